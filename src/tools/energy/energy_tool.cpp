// ha_manage_energy_prefs (ha-mcp's name and arguments): mode=get reads the
// prefs with their config_hash (include_statistics: energy/validate's issues,
// energy/info and the statistics a source or device may use; include_schema: the shapes);
// set / add_device / remove_device / add_source compute the next prefs, check
// that every statistic id they add is one Home Assistant records, and save
// them once (energy/save_prefs), journaled; dry_run=true shows the RFC 6902
// diff and saves nothing. set needs the config_hash of the version it
// replaces; a stale hash writes nothing.
#include <set>

#include "home/config_json.hpp"
#include "tools/config_lock.hpp"
#include "tools/edit_record.hpp"
#include "tools/energy/energy_prefs.hpp"
#include "tools/energy/energy_tools.hpp"
#include "tools/helpers/helper_ha.hpp"

namespace hamcp::tools {

namespace {

using energy::Edit;

constexpr const char* kShapes =
    "energy_sources: [{type:grid, flow_from:[{stat_energy_from, stat_cost?, entity_energy_price?, "
    "number_energy_price?}], flow_to:[{stat_energy_to, stat_compensation?, ...price}], cost_adjustment_day}, "
    "{type:solar, stat_energy_from, stat_rate?}, {type:battery, stat_energy_from, stat_energy_to}, "
    "{type:gas|water, stat_energy_from, stat_cost?, ...price}]; device_consumption / device_consumption_water: "
    "[{stat_consumption, name?, included_in_stat?, stat_rate?}]. One grid at most.";

Edit edit_of(Args& args) {
  Edit e;
  e.mode = args.str("mode");
  if (const json::object* c = args.object("config")) e.config = *c;
  e.stat = args.str("stat_consumption");
  e.name = args.str("name");
  e.included_in_stat = args.str("included_in_stat");
  e.water = args.flag("water", false);
  if (const json::object* s = args.object("source")) e.source = *s;
  return e;
}

// Where a statistic id of the next prefs came from, in the caller's arguments.
std::string field_of(const Edit& edit, const std::string& path) {
  if (edit.mode == "set") return "config." + path;
  if (edit.mode == "add_source") {
    const auto dot = path.find("].");
    return "source." + (dot == std::string::npos ? path : path.substr(dot + 2));
  }
  return path.substr(path.rfind('.') + 1);  // stat_consumption / included_in_stat
}

boost::asio::awaitable<json::array> recorded_statistics(ToolEnv& env) {
  auto listing = helpers::ws_read(env, json::object{{"type", "recorder/list_statistic_ids"}});
  json::value listed = co_await std::move(listing);
  co_return listed.is_array() ? listed.get_array() : json::array{};
}

// Every statistic id the edit adds must be recorded; else unknown_statistic naming the field.
boost::asio::awaitable<void> check_statistics(ToolEnv& env, const Edit& edit, const json::object& current,
                                              const json::object& next) {
  std::set<std::string> known_before;
  for (const auto& ref : energy::statistic_refs(current)) known_before.insert(ref.statistic_id);
  std::vector<energy::StatRef> added;
  for (auto& ref : energy::statistic_refs(next))
    if (!known_before.count(ref.statistic_id)) added.push_back(std::move(ref));
  if (added.empty()) co_return;
  auto listing = recorded_statistics(env);
  const json::array stats = co_await std::move(listing);
  std::set<std::string> recorded;
  for (const auto& s : stats)
    if (const json::value* id = s.as_object().if_contains("statistic_id"); id && id->is_string())
      recorded.insert(std::string(id->get_string()));
  for (const auto& ref : added) {
    if (recorded.count(ref.statistic_id)) continue;
    ToolError err =
        bad_argument(field_of(edit, ref.field), "'" + ref.statistic_id + "' is not a statistic Home Assistant records",
                     "Pass a sensor with a state_class (mode=get include_statistics=true lists them).");
    err.code = "unknown_statistic";
    err.extra["suggestions"] = nearest_entities(env.index, ref.statistic_id);
    err.extra["written"] = false;
    throw ToolException(std::move(err));
  }
}

// Statistics that can feed a source or device: sums (energy, gas, water meters).
json::array usable_statistics(const json::array& stats) {
  json::array out;
  for (const auto& s : stats) {
    const json::object& o = s.as_object();
    if (const json::value* sum = o.if_contains("has_sum"); !sum || !sum->is_bool() || !sum->get_bool()) continue;
    if (out.size() >= 200) break;
    out.push_back(
        json::object{{"statistic_id", o.at("statistic_id")},
                     {"unit", o.contains("statistics_unit_of_measurement") ? o.at("statistics_unit_of_measurement")
                                                                           : json::value(nullptr)}});
  }
  return out;
}

boost::asio::awaitable<json::object> get_body(Args& args, ToolEnv& env, const json::value& prefs) {
  const json::value shown = prefs.is_object() ? prefs : json::value(energy::empty_prefs());
  json::object body{{"prefs", shown}, {"config_hash", home::config_hash(shown)}, {"saved_before", prefs.is_object()}};
  if (args.flag("include_statistics", false)) {
    auto validating = helpers::ws_read(env, json::object{{"type", "energy/validate"}});
    body["validation"] = co_await std::move(validating);
    auto informing = helpers::ws_read(env, json::object{{"type", "energy/info"}});
    body["info"] = co_await std::move(informing);  // cost sensors, solar forecast integrations
    auto listing = recorded_statistics(env);
    const json::array stats = co_await std::move(listing);
    body["statistics"] = usable_statistics(stats);
  }
  if (args.flag("include_schema", false)) body["schema"] = kShapes;
  co_return body;
}

void check_hash(Args& args, ToolEnv& env, const std::string& mode, const json::object& current) {
  if (!args.has("config_hash") && mode == "set")
    throw ToolException(bad_argument("config_hash", "set replaces lists, so it needs the hash of what it replaces",
                                     "Read it with mode=get and pass its config_hash."));
  check_config_hash(env, {"energy", "prefs", "The energy preferences", "mode=get"}, current,
                    args.opt_str("config_hash"));
}

boost::asio::awaitable<mcp::ToolResult> run_energy(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string mode = args.str("mode", "get");
  auto reading = energy::read_prefs(env);
  const json::value prefs = co_await std::move(reading);
  if (mode == "get") {
    auto answering = get_body(args, env, prefs);
    json::object body = co_await std::move(answering);
    co_return ok(std::move(body));
  }
  const json::object current = prefs.is_object() ? prefs.get_object() : energy::empty_prefs();
  const std::string current_hash = home::config_hash(current);
  check_hash(args, env, mode, current);
  const Edit edit = edit_of(args);
  const json::object next = energy::apply_edit(current, edit);
  auto checking = check_statistics(env, edit, current, next);
  co_await std::move(checking);
  json::object body{{"mode", mode}, {"diff", home::json_diff(current, next)}};
  if (body["diff"].as_array().empty() || args.flag("dry_run", false)) {
    body["saved"] = false;
    body["config_hash"] = current_hash;
    if (args.flag("dry_run", false)) body["dry_run"] = true;
    body["note"] = body["diff"].as_array().empty() ? "Nothing to change." : "Dry run: nothing saved.";
    co_return ok(std::move(body));
  }
  auto saving = energy::save_prefs(env, next);
  const json::object saved = co_await std::move(saving);
  body["saved"] = true;
  body["config_hash"] = home::config_hash(saved);
  home::EditRecord entry;
  entry.kind = "energy";
  entry.key = "prefs";
  entry.action = "update";
  entry.before = prefs;
  entry.after = saved;
  record_edit(env, body, std::move(entry));
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_energy_prefs_spec() {
  ToolSpec s;
  s.name = "ha_manage_energy_prefs";
  s.title = "Energy dashboard preferences";
  s.description =
      "Energy dashboard sources and devices. get (config_hash); set (config: lists to replace, needs config_hash); "
      "add_device/remove_device (stat_consumption; water: water devices); add_source (source). dry_run: the diff, "
      "nothing saved.";
  s.input_schema = R"J({"type":"object","properties":{
"mode":{"type":"string","enum":["get","set","add_device","remove_device","add_source"]},
"config":{"type":"object"},"config_hash":{"type":"string"},"dry_run":{"type":"boolean"},
"stat_consumption":{"type":"string"},"name":{"type":"string"},"included_in_stat":{"type":"string"},
"water":{"type":"boolean"},"source":{"type":"object"},"include_schema":{"type":"boolean"},
"include_statistics":{"type":"boolean"}},"required":["mode"]})J";
  s.output_schema = R"J({"type":"object","properties":{"config_hash":{"type":"string"}}})J";
  s.annotations = writes(true, false);
  s.mixed = true;
  s.run = run_energy;
  return s;
}

void register_energy_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_energy_prefs_spec(), env));
}

}  // namespace hamcp::tools
