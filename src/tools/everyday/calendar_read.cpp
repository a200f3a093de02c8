#include "tools/everyday/calendar_read.hpp"

#include "common/iso_time.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::everyday {

namespace {

constexpr double kYear = 366.0 * 86400;

json::value when_text(const json::value* when) {
  if (!when || !when->is_object()) return nullptr;
  for (const char* key : {"dateTime", "date"})
    if (const json::value* v = when->as_object().if_contains(key)) return *v;
  return nullptr;
}

json::object flat_event(const json::object& e) {
  json::object out{{"summary", e.contains("summary") ? e.at("summary") : json::value("")},
                   {"start", when_text(e.if_contains("start"))},
                   {"end", when_text(e.if_contains("end"))}};
  for (const char* key : {"uid", "recurrence_id", "rrule", "description", "location"})
    if (const json::value* v = e.if_contains(key); v && v->is_string() && !v->get_string().empty()) out[key] = *v;
  return out;
}

}  // namespace

double time_arg(const std::string& text, std::string_view field) {
  auto t = common::parse_iso_time(text);
  if (!t)
    throw ToolException(bad_argument(field, "'" + text + "' is not an ISO date or date-time",
                                     "Use 2026-12-04 (all day) or 2026-12-04T09:00:00+01:00."));
  return *t;
}

boost::asio::awaitable<json::array> calendar_events(ToolEnv& env, std::string entity_id, double start, double end) {
  std::string path = "/api/calendars/" + entity_id + "?start=" + query_value(common::format_iso_time(start)) +
                     "&end=" + query_value(common::format_iso_time(end));
  auto reading = helpers::rest_call(env, "GET", std::move(path), nullptr, false);
  const helpers::RestAnswer answer = co_await std::move(reading);
  if (answer.status != 200 || !answer.body.is_array()) {
    const json::value* m = answer.body.is_object() ? answer.body.as_object().if_contains("message") : nullptr;
    const std::string said =
        m && m->is_string() ? std::string(m->get_string()) : "HTTP " + std::to_string(answer.status);
    throw ToolException("calendar_read_failed",
                        "Home Assistant could not list the events of " + entity_id + ": " + said,
                        "Check entity_id (a calendar.* entity) and that start is before end.");
  }
  json::array out;
  for (const auto& e : answer.body.as_array())
    if (e.is_object()) out.push_back(flat_event(e.as_object()));
  co_return out;
}

boost::asio::awaitable<json::value> find_event(ToolEnv& env, std::string entity_id, std::string uid,
                                               std::string recurrence_id, double around) {
  auto reading = calendar_events(env, entity_id, around - kYear, around + kYear);
  json::array events = co_await std::move(reading);
  for (auto& e : events) {
    const json::object& o = e.as_object();
    const json::value* u = o.if_contains("uid");
    if (!u || u->as_string() != uid) continue;
    const json::value* r = o.if_contains("recurrence_id");
    if (!recurrence_id.empty() && (!r || r->as_string() != recurrence_id)) continue;
    co_return e;
  }
  co_return nullptr;
}

boost::asio::awaitable<json::value> written_event(ToolEnv& env, std::string entity_id, json::object ha_event) {
  const double start = time_arg(std::string(ha_event.at("dtstart").as_string()), "start");
  auto reading = calendar_events(env, entity_id, start, start + 1);
  json::array events = co_await std::move(reading);
  for (auto& e : events)
    if (e.as_object().at("summary") == ha_event.at("summary")) co_return e;
  co_return nullptr;
}

json::object ha_event_of(const json::object& flat, bool with_rrule) {
  json::object event{{"summary", flat.contains("summary") ? flat.at("summary") : json::value("")},
                     {"dtstart", flat.contains("start") ? flat.at("start") : json::value(nullptr)},
                     {"dtend", flat.contains("end") ? flat.at("end") : json::value(nullptr)}};
  for (const char* key : {"description", "location", "rrule"}) {
    if (std::string_view(key) == "rrule" && !with_rrule) continue;
    if (const json::value* v = flat.if_contains(key); v && v->is_string() && !v->get_string().empty()) event[key] = *v;
  }
  return event;
}

json::object flat_of(const json::object& ha_event) {
  json::object out{{"summary", ha_event.contains("summary") ? ha_event.at("summary") : json::value("")},
                   {"start", ha_event.contains("dtstart") ? ha_event.at("dtstart") : json::value(nullptr)},
                   {"end", ha_event.contains("dtend") ? ha_event.at("dtend") : json::value(nullptr)}};
  for (const char* key : {"description", "location", "rrule"})
    if (const json::value* v = ha_event.if_contains(key)) out[key] = *v;
  return out;
}

}  // namespace hamcp::tools::everyday
