// History, logbook and statistics commands (recorder-backed in HA; here from
// the store's records plus plausible synthesized data for older periods).
#include <cmath>
#include <set>

#include "sim/core/time_util.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim {
namespace {

using Table = std::map<std::string, WsConnection::Handler, std::less<>>;

void history_during_period(WsConnection& c, int64_t id, const json::object& msg) {
  auto start = opt_time(msg, "start_time");
  if (!start) throw BadMessage{"required key not provided @ data['start_time']"};
  Timestamp end = opt_time(msg, "end_time").value_or(now_timestamp());
  if (!msg.contains("entity_ids")) throw BadMessage{"required key not provided @ data['entity_ids']"};
  auto ids = opt_strings(msg, "entity_ids");
  bool include_start = opt_bool(msg, "include_start_time_state", true);
  bool significant_only = opt_bool(msg, "significant_changes_only", true);
  bool minimal = opt_bool(msg, "minimal_response", false);
  bool no_attributes = opt_bool(msg, "no_attributes", false);
  json::object out;
  auto& store = c.core().store();
  for (const auto& eid : ids) {
    auto points = store.history(eid, *start, end);
    json::array list;
    std::string last_state;
    for (const auto& p : points) {
      if (!include_start && p->last_updated < *start) continue;
      // significant_changes_only: attribute-only updates of most domains are skipped
      if (significant_only && !list.empty() && p->state == last_state && domain_of(eid) != "climate" &&
          domain_of(eid) != "water_heater")
        continue;
      json::object o{{"s", p->state}};
      bool first = list.empty();
      if (!no_attributes && (!minimal || first)) o["a"] = p->attributes;
      Timestamp lu = std::max(p->last_updated, *start);
      o["lu"] = lu;
      if (p->last_changed != p->last_updated && (!minimal || first)) o["lc"] = std::max(p->last_changed, *start);
      last_state = p->state;
      list.push_back(std::move(o));
    }
    if (!list.empty()) out[eid] = std::move(list);
  }
  c.send_result(id, out);
}

json::object logbook_json(const LogbookEntry& e, bool float_when) {
  json::object o;
  if (float_when)
    o["when"] = e.when;
  else
    o["when"] = iso_time(e.when);
  if (e.state) o["state"] = *e.state;
  if (!e.entity_id.empty()) o["entity_id"] = e.entity_id;
  if (!e.name.empty()) o["name"] = e.name;
  if (e.message) o["message"] = *e.message;
  if (!e.domain.empty() && (e.message || e.entity_id.empty())) o["domain"] = e.domain;
  o["context_id"] = e.context.id;
  if (e.context.user_id) o["context_user_id"] = *e.context.user_id;
  if (e.context_event_type) o["context_event_type"] = *e.context_event_type;
  if (e.context_domain) o["context_domain"] = *e.context_domain;
  if (e.context_service) o["context_service"] = *e.context_service;
  return o;
}

void logbook_get_events(WsConnection& c, int64_t id, const json::object& msg) {
  auto start = opt_time(msg, "start_time");
  if (!start) throw BadMessage{"required key not provided @ data['start_time']"};
  Timestamp end = opt_time(msg, "end_time").value_or(now_timestamp());
  auto ids = opt_strings(msg, "entity_ids");
  std::set<std::string> wanted(ids.begin(), ids.end());
  auto devices = opt_strings(msg, "device_ids");
  auto& store = c.core().store();
  for (const auto& d : devices)
    for (const auto& e : store.home().entities)
      if (e.device_id == d) wanted.insert(e.entity_id);
  bool filter = msg.contains("entity_ids") || msg.contains("device_ids");
  auto context_id = opt_string(msg, "context_id");
  json::array out;
  for (const auto& e : store.logbook(*start, end)) {
    if (filter && !wanted.count(e.entity_id)) continue;
    if (context_id && e.context.id != *context_id) continue;
    out.push_back(logbook_json(e, true));
  }
  c.send_result(id, out);
}

void statistics_during_period(WsConnection& c, int64_t id, const json::object& msg) {
  auto start = opt_time(msg, "start_time");
  if (!start) throw BadMessage{"required key not provided @ data['start_time']"};
  Timestamp now = now_timestamp();
  Timestamp end = std::min(opt_time(msg, "end_time").value_or(now), now);
  std::string period = req_string(msg, "period");
  static const std::map<std::string, double> seconds = {
      {"5minute", 300}, {"hour", 3600}, {"day", 86400}, {"week", 604800}, {"month", 2592000}};
  auto step = seconds.find(period);
  if (step == seconds.end())
    throw BadMessage{
        "value must be one of ['5minute', 'day', 'hour', 'month', 'week'] for dictionary value @ data['period']"};
  auto ids = opt_strings(msg, "statistic_ids");
  auto types_list = opt_strings(msg, "types");
  std::set<std::string> types(types_list.begin(), types_list.end());
  auto want = [&](const char* t) { return types.empty() || types.count(t); };
  json::object out;
  auto& store = c.core().store();
  for (const auto& sid : ids) {
    StatePtr s = store.get(sid);
    if (!s) continue;
    const auto* sc = s->attributes.if_contains("state_class");
    auto value = numeric_state(s->state);
    if (!sc || !sc->is_string() || !value) continue;
    bool measurement = sc->get_string() == "measurement";
    double dt = step->second;
    Timestamp t = std::floor(std::max(*start, now - 86400.0 * 30) / dt) * dt;
    std::size_t hash = std::hash<std::string>{}(sid);
    double sum = 0;
    json::array rows;
    for (int n = 0; t + dt <= end + dt && t < end && n < 2000; t += dt, ++n) {
      double phase = std::sin((t / 86400.0) * 2 * M_PI + static_cast<double>(hash % 7));
      json::object row{{"start", static_cast<int64_t>(t * 1000)}, {"end", static_cast<int64_t>((t + dt) * 1000)}};
      if (measurement) {
        double spread = std::max(0.3, std::fabs(*value) * 0.04);
        double mean = *value + phase * spread;
        if (want("mean")) row["mean"] = std::round(mean * 100) / 100;
        if (want("min")) row["min"] = std::round((mean - spread * 0.5) * 100) / 100;
        if (want("max")) row["max"] = std::round((mean + spread * 0.5) * 100) / 100;
      } else {
        double change = std::max(0.0, (0.05 + 0.03 * phase) * dt / 3600.0);
        sum += change;
        if (want("change")) row["change"] = std::round(change * 1000) / 1000;
        if (want("state")) row["state"] = std::round((*value - 5 + sum) * 1000) / 1000;
        if (want("sum")) row["sum"] = std::round(sum * 1000) / 1000;
      }
      if (want("last_reset")) row["last_reset"] = nullptr;
      rows.push_back(std::move(row));
    }
    if (!rows.empty()) out[sid] = std::move(rows);
  }
  c.send_result(id, out);
}

void list_statistic_ids(WsConnection& c, int64_t id, const json::object& msg) {
  auto type = opt_string(msg, "statistic_type");
  json::array out;
  for (const auto& s : c.core().store().all()) {
    const auto* sc = s->attributes.if_contains("state_class");
    if (!sc || !sc->is_string()) continue;
    bool mean = sc->get_string() == "measurement";
    if (type && (*type == "mean") != mean) continue;
    const auto* unit = s->attributes.if_contains("unit_of_measurement");
    const auto* name = s->attributes.if_contains("friendly_name");
    out.push_back(json::object{{"statistic_id", s->entity_id},
                               {"display_unit_of_measurement", unit ? *unit : json::value(nullptr)},
                               {"has_mean", mean},
                               {"has_sum", !mean},
                               {"name", name ? *name : json::value(nullptr)},
                               {"source", "recorder"},
                               {"statistics_unit_of_measurement", unit ? *unit : json::value(nullptr)},
                               {"unit_class", nullptr}});
  }
  c.send_result(id, out);
}

}  // namespace

void register_history_commands(Table& t) {
  t["history/history_during_period"] = history_during_period;
  t["logbook/get_events"] = logbook_get_events;
  t["recorder/statistics_during_period"] = statistics_during_period;
  t["recorder/list_statistic_ids"] = list_statistic_ids;
}

// Shared with the REST logbook endpoint.
json::object logbook_entry_json(const LogbookEntry& e) { return logbook_json(e, false); }

}  // namespace hamcp::sim
