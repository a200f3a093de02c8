// /api/calendars, /api/calendars/<entity_id>?start=&end= (HA 2026.2
// calendar/__init__.py CalendarListView / CalendarEventView) and
// /api/camera_proxy/<entity_id> (camera/__init__.py CameraImageView: 404 for an
// unknown camera, 503 when it is off, 500 when no image can be had). The
// simulated camera serves a fixed 1x1 PNG and ignores width/height.
#include <algorithm>

#include "common/iso_time.hpp"
#include "sim/core/calendar_rules.hpp"
#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {

namespace {

RestResponse calendar_list(RestCall& c) {
  std::vector<std::pair<std::string, std::string>> found;  // name, entity_id
  for (const auto& [entity_id, events] : c.store.home().calendars) {
    auto s = c.store.get(entity_id);
    if (!s) continue;
    const json::value* name = s->attributes.if_contains("friendly_name");
    found.emplace_back(name && name->is_string() ? std::string(name->get_string()) : entity_id, entity_id);
  }
  std::sort(found.begin(), found.end());
  json::array out;
  for (const auto& [name, entity_id] : found) out.push_back(json::object{{"name", name}, {"entity_id", entity_id}});
  return json_response(200, out);
}

RestResponse calendar_events(RestCall& c) {
  const auto& calendars = c.store.home().calendars;
  auto it = calendars.find(c.path[0]);
  if (it == calendars.end() || !c.store.get(c.path[0])) return message_response(400, "Entity not found");
  if (!c.query.has("start") || !c.query.has("end")) return message_response(400, "No start or end included");
  const auto start = common::parse_iso_time(c.query.get("start"));
  const auto end = common::parse_iso_time(c.query.get("end"));
  if (!start || !end) return message_response(400, "Error parsing timestamp");
  if (*start >= *end) return message_response(400, "Start date must be before end date");
  return json_response(200, calendar::events_json(it->second, *start, *end));
}

RestResponse camera_image(RestCall& c) {
  auto s = c.store.get(c.path[0]);
  if (!s || s->entity_id.rfind("camera.", 0) != 0) return text_response(404, "404: Not Found");
  const auto& off = c.store.home().cameras_off;
  if (s->state == "off" || std::find(off.begin(), off.end(), s->entity_id) != off.end())
    return text_response(503, "503: Service Unavailable");
  if (s->state == "unavailable") return text_response(500, "500 Internal Server Error");
  static const unsigned char png[] = {
      0x89, 'P',  'N',  'G',  0x0D, 0x0A, 0x1A, 0x0A, 0,    0,    0,    0x0D, 'I',  'H',  'D',  'R',  0,
      0,    0,    1,    0,    0,    0,    1,    8,    0,    0,    0,    0,    0x3A, 0x7E, 0x9B, 0x55, 0,
      0,    0,    0x0A, 'I',  'D',  'A',  'T',  0x78, 0x9C, 0x63, 0x68, 0,    0,    0,    0x82, 0,    0x81,
      0x77, 0xCD, 0x72, 0xB6, 0,    0,    0,    0,    'I',  'E',  'N',  'D',  0xAE, 0x42, 0x60, 0x82};
  return RestResponse{200, "image/png", std::string(reinterpret_cast<const char*>(png), sizeof png), {}, {}};
}

}  // namespace

void add_everyday_routes(RestRouter& r) {
  r.add("*", "/api/calendars", calendar_list);
  r.add("GET", "/api/calendars/{entity_id}", calendar_events);
  r.add("*", "/api/camera_proxy/{entity_id}", camera_image);
}

}  // namespace hamcp::sim
