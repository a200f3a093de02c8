// /api/history/period, /api/logbook, /api/error_log.
#include <algorithm>
#include <optional>

#include "sim/core/time_util.hpp"
#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {

json::object logbook_entry_json(const LogbookEntry& e);  // ws/ws_history_commands.cpp

namespace {

json::value history_state(const StoredState& s, bool minimal, bool no_attributes, bool first, Timestamp start) {
  if (minimal && !first)
    return json::object{{"state", s.state}, {"last_changed", iso_time(std::max(s.last_changed, start))}};
  json::object o{{"entity_id", s.entity_id}, {"state", s.state}};
  if (!no_attributes) o["attributes"] = s.attributes;
  o["last_changed"] = iso_time(std::max(s.last_changed, start));
  o["last_updated"] = iso_time(std::max(s.last_updated, start));
  return o;
}

// [start, end) from an optional start segment (default: a day ago) and ?end_time
// (default: a day after start); nullopt + `error` when one does not parse.
std::optional<std::pair<Timestamp, Timestamp>> time_window(RestCall& c, std::optional<RestResponse>& error) {
  Timestamp start = now_timestamp() - 86400;
  if (!c.path.empty()) {
    auto t = parse_iso_time(c.path[0]);
    if (!t) {
      error = message_response(400, "Invalid datetime");
      return std::nullopt;
    }
    start = *t;
  }
  Timestamp end = start + 86400;
  if (c.query.has("end_time")) {
    auto t = parse_iso_time(c.query.get("end_time"));
    if (!t) {
      error = message_response(400, "Invalid end_time");
      return std::nullopt;
    }
    end = *t;
  }
  return std::make_pair(start, end);
}

RestResponse history(RestCall& c) {
  std::optional<RestResponse> error;
  auto window = time_window(c, error);
  if (!window) return *error;
  const auto [start, end] = *window;
  if (!c.query.has("filter_entity_id")) return message_response(400, "filter_entity_id is missing");
  const bool minimal = c.query.has("minimal_response"), no_attrs = c.query.has("no_attributes");
  const bool significant = !c.query.has("significant_changes_only") || c.query.get("significant_changes_only") != "0";
  json::array out;
  const std::string ids = c.query.get("filter_entity_id");
  std::size_t i = 0;
  while (i <= ids.size()) {
    std::size_t j = ids.find(',', i);
    if (j == std::string::npos) j = ids.size();
    std::string eid = ids.substr(i, j - i);
    i = j + 1;
    if (eid.empty()) continue;
    json::array list;
    std::string last;
    for (const auto& p : c.store.history(eid, start, end)) {
      if (significant && !list.empty() && p->state == last) continue;
      list.push_back(history_state(*p, minimal, no_attrs, list.empty(), start));
      last = p->state;
    }
    if (!list.empty()) out.push_back(std::move(list));
  }
  return json_response(200, out);
}

RestResponse logbook(RestCall& c) {
  std::optional<RestResponse> error;
  auto window = time_window(c, error);
  if (!window) return *error;
  const std::string entity = c.query.get("entity");
  json::array out;
  for (const auto& e : c.store.logbook(window->first, window->second))
    if (entity.empty() || ("," + entity + ",").find("," + e.entity_id + ",") != std::string::npos)
      out.push_back(logbook_entry_json(e));
  return json_response(200, out);
}

RestResponse error_log(RestCall& c) {
  std::string log;
  for (const auto& e : c.core.system_log())
    log += iso_time(e.timestamp).substr(0, 19) + " " + e.level + " (MainThread) [" + e.name + "] " + e.message + "\n";
  return text_response(200, log);
}

}  // namespace

void add_history_routes(RestRouter& r) {
  r.add("GET", "/api/history/period", history);
  r.add("GET", "/api/history/period/{start}", history);
  r.add("GET", "/api/logbook", logbook);
  r.add("GET", "/api/logbook/{start}", logbook);
  r.add("*", "/api/error_log", error_log);
}

}  // namespace hamcp::sim
