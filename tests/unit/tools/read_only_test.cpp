// Read-only mode (issue 14): every tool the registry holds, under every name
// (listed and hidden ha-mcp aliases), is called in a read-only session with
// write-looking arguments derived from its schema (every value of its enums:
// actions, kinds), and the known writes with arguments that would succeed.
// The simulated HA's own record of received requests must then hold reads
// only, and its states must be unchanged. The sweep reads the registry, so a
// tool added later is swept without editing this file.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "mcp/registry.hpp"
#include "sim/core/sim_core.hpp"
#include "tools/gate/read_policy.hpp"
#include "unit/tools/tool_sweep.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr const char* kLight = "light.kitchen_ceiling_light";

// Writes that would succeed outside read-only mode: each must be refused
// with code read_only (the gate was reached, not an argument error).
struct KnownWrite {
  const char* tool;
  const char* args;
};
const KnownWrite kKnownWrites[] = {
    {"ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":"light.kitchen_ceiling_light"})"},
    {"ha_call_service", R"({"domain":"homeassistant","service":"restart"})"},
    {"ha_bulk_control", R"({"operations":[{"entity_id":"light.kitchen_ceiling_light","action":"turn_on"}]})"},
    {"ha_call_event", R"({"event_type":"hamcp_sweep"})"},
    {"ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","name":"Renamed"})"},
    {"ha_remove_entity", R"({"entity_id":"light.kitchen_ceiling_light","confirm":true})"},
    {"ha_config_set",
     R"({"kind":"automation","config":{"alias":"Sweep","triggers":[{"trigger":"state","entity_id":"light.kitchen_ceiling_light"}],"actions":[]}})"},
    {"ha_config_remove", R"({"id":"automation.leak_alert","confirm":true})"},
    {"ha_config_set_helper", R"({"helper_type":"input_boolean","action":"create","name":"Sweep"})"},
    {"ha_config_set_group", R"({"object_id":"sweep","entities":["light.kitchen_ceiling_light"]})"},
    {"ha_manage_backup", R"({"action":"create","name":"Sweep"})"},
    {"ha_manage_backup", R"({"action":"delete","backup_id":"5e4f3a2b","confirm":true})"},
    {"ha_manage_backup", R"({"action":"restore","backup_id":"9a8b7c6d","confirm":true})"},
    {"ha_manage_app", R"({"action":"restart","slug":"core_mosquitto"})"},
    {"ha_manage_app", R"({"action":"uninstall","slug":"core_mosquitto","confirm":true})"},
    {"ha_manage_app", R"({"slug":"core_mosquitto","boot":"manual"})"},
    {"ha_manage_app", R"({"action":"install","slug":"core_ssh"})"},
    {"ha_manage_backup", R"({"action":"create","via":"supervisor"})"},
    {"ha_manage_backup", R"({"action":"delete","via":"supervisor","backup_id":"9f3c1a20","confirm":true})"},
    {"ha_manage_backup", R"({"action":"restore","folders":["share"],"backup_id":"9f3c1a20","confirm":true})"},
    {"ha_manage_radio", R"({"radio":"zwave","action":"rebuild_routes"})"},
    {"ha_manage_radio", R"({"radio":"zigbee","action":"permit_join","params":{"duration":30}})"},
    {"ha_manage_radio", R"({"radio":"zigbee","action":"group_add","params":{"name":"Sweep"}})"},
    {"ha_manage_radio",
     R"({"radio":"thread","action":"set_preferred_dataset","params":{"dataset_id":"01JDEMODATASET000000000001"}})"},
};

std::vector<json::object> argument_sets(const json::object& schema) { return sweep_argument_sets(schema, kLight); }

// What the sim received, judged as hamcp's read-only gate would have to.
bool received_is_read(const sim::ReceivedRequest& r) {
  if (r.channel == "GET") return is_known_read(RequestKind::rest_get, r.what);
  if (r.channel == "POST") return is_known_read(RequestKind::rest_post, r.what);
  if (r.channel != "ws") return false;  // DELETE and anything else
  if (r.what.rfind("call_service ", 0) == 0) return is_known_read(RequestKind::service, r.what.substr(13));
  if (r.what.rfind("supervisor/api ", 0) == 0) return is_known_read(RequestKind::supervisor, r.what.substr(15));
  return is_known_read(RequestKind::ws_command, r.what) || is_known_read(RequestKind::ws_subscribe, r.what);
}

class ReadOnlyTest : public ToolsTest {
 protected:
  // A tools/call in `session`; JSON-RPC errors (e.g. a schema refusal) count as answers.
  json::object call_raw(mcp::Session& session, const std::string& name, const json::object& args) {
    json::object req{{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", "tools/call"}};
    req["params"] = json::object{{"name", name}, {"arguments", args}};
    auto channel = std::make_shared<mcp::testing::MemoryChannel>();
    session.deliver(json::value(std::move(req)), channel);
    h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(15000));
    auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << name << " " << json::serialize(args);
    return responses.empty() ? json::object() : responses.front();
  }

  static std::string error_code(const json::object& response) {
    const json::value* result = response.if_contains("result");
    const json::value* sc = result ? result->as_object().if_contains("structuredContent") : nullptr;
    const json::value* err = sc ? sc->as_object().if_contains("error") : nullptr;
    return err ? std::string(err->at("code").as_string()) : std::string();
  }

  std::shared_ptr<mcp::Session> read_only_session() {
    auto s = other_session("read-only-sweep");
    s->make_read_only();
    return s;
  }

  // Every name the registry answers to: listed tools and their aliases.
  std::vector<std::pair<std::string, const mcp::RegisteredTool*>> every_name() {
    std::vector<std::pair<std::string, const mcp::RegisteredTool*>> names;
    for (const auto& t : h.server.registry().tools()) {
      names.emplace_back(t->tool.name, t.get());
      for (const auto& alias : t->tool.aliases) names.emplace_back(alias, t.get());
    }
    return names;
  }
};

TEST_F(ReadOnlyTest, EveryToolUnderEveryNameSendsHomeAssistantNoWrite) {
  start();
  auto session = read_only_session();
  // The config cache's first fill (hamcp's own background reads, some through
  // helper options flows) is over before the record starts: the record is the tools'.
  ASSERT_TRUE(eventually([&] { return env->configs.status().ready; }, std::chrono::milliseconds(30000)));
  const std::string states_before = sim->store().states_array_json();
  sim->core().record_requests(true);

  std::size_t refused = 0;
  for (const KnownWrite& w : kKnownWrites) {
    const json::object response = call_raw(*session, w.tool, json::parse(w.args).as_object());
    // ha_bulk_control reports each operation's refusal in results[].error.
    const bool was_refused = error_code(response) == "read_only" ||
                             json::serialize(response).find(R"("code":"read_only")") != std::string::npos;
    EXPECT_TRUE(was_refused) << w.tool << " " << w.args << ": " << json::serialize(response);
    refused += was_refused;
  }
  std::size_t calls = 0;
  for (const auto& [name, tool] : every_name()) {
    for (const json::object& args : argument_sets(tool->tool.input_schema)) {
      call_raw(*session, name, args);
      ++calls;
    }
  }
  h.run_for(std::chrono::milliseconds(200));  // anything a tool left running
  sim->core().record_requests(false);

  EXPECT_EQ(refused, std::size(kKnownWrites));
  EXPECT_GT(calls, 100u) << "the sweep made too few calls to mean anything";
  const auto received = sim->core().received_requests();
  EXPECT_FALSE(received.empty()) << "the sim recorded nothing: is the record wired?";
  for (const auto& r : received)
    EXPECT_TRUE(received_is_read(r)) << "HA received a write: " << r.channel << " " << r.what;
  EXPECT_EQ(sim->store().states_array_json(), states_before) << "a state changed in read-only mode";
}

TEST_F(ReadOnlyTest, ReadOnlySessionListsNoWriteToolButMixedOnes) {
  start();
  auto session = read_only_session();
  const json::object all = list_tools();
  auto channel = std::make_shared<mcp::testing::MemoryChannel>();
  session->deliver(json::parse(R"({"jsonrpc":"2.0","id":"l","method":"tools/list"})"), channel);
  h.run_until([&] { return channel->closed > 0; });
  const json::array listed = channel->responses().front().at("result").at("tools").as_array();
  const std::size_t all_count = all.at("result").at("tools").as_array().size();
  EXPECT_LT(listed.size(), all_count);
  std::set<std::string> names;
  for (const auto& t : listed) {
    const std::string name(t.at("name").as_string());
    names.insert(name);
    const auto registered = h.server.registry().find_tool(name);
    const bool read = t.at("annotations").at("readOnlyHint").as_bool();
    EXPECT_TRUE(read || registered->tool.kept_in_read_only) << name << " is a write tool listed in read-only mode";
  }
  EXPECT_TRUE(names.count("ha_search"));
  EXPECT_TRUE(names.count("ha_manage_blueprints"));  // mixed: list/get are reads
  EXPECT_FALSE(names.count("ha_call_service"));
  EXPECT_FALSE(names.count("ha_config_set"));
}

TEST_F(ReadOnlyTest, ReadsWorkAndMixedToolsReadButRefuseWrites) {
  start();
  auto session = read_only_session();
  const json::object state = call_raw(*session, "ha_get_state", json::object{{"entity_id", kLight}});
  EXPECT_EQ(error_code(state), "") << json::serialize(state);
  const json::object tmpl = call_raw(*session, "ha_eval_template", json::object{{"template", "{{ 1 + 1 }}"}});
  EXPECT_EQ(error_code(tmpl), "") << json::serialize(tmpl);
  const json::object list = call_raw(*session, "ha_manage_blueprints", json::object{{"action", "list"}});
  EXPECT_EQ(error_code(list), "") << json::serialize(list);
  const json::object del = call_raw(*session, "ha_manage_blueprints",
                                    json::object{{"action", "delete"}, {"path", "x/y.yaml"}, {"confirm", true}});
  EXPECT_EQ(error_code(del), "read_only") << json::serialize(del);
}

// Each family's reads need their requests in the read policy (gate/read_policy.cpp);
// the sweep above only proves that no write leaks, so a read refused by mistake shows here.
TEST_F(ReadOnlyTest, EveryFamilysReadsAnswerInAReadOnlySession) {
  start();
  auto session = read_only_session();
  const std::string zigbee_plug = [&] {
    std::lock_guard lock(sim->store().mutex());
    for (const auto& d : sim->store().home().devices)
      if (d.name == "Desk Lamp Plug") return d.id;
    return std::string();
  }();
  const std::vector<std::pair<std::string, std::string>> reads = {
      {"ha_get_dashboard", R"({})"},
      {"ha_get_dashboard", R"({"url_path":"lovelace"})"},
      {"ha_manage_theme", R"({"action":"list"})"},
      {"ha_manage_dashboard_resources", R"({"action":"list"})"},
      {"ha_get_registry", R"({"kind":"zone"})"},
      {"ha_get_registry", R"({"kind":"exposure"})"},
      {"ha_get_registry", R"({"kind":"floor"})"},
      {"ha_get_system_health", R"({"include":"config_check,logger"})"},
      {"ha_get_logs", R"({"source":"logger"})"},
      {"ha_get_todo", R"({"entity_id":"todo.shopping_list"})"},
      {"ha_config_get_calendar_events", R"({"entity_id":"calendar.family"})"},
      {"ha_manage_backup", R"({"action":"list"})"},
      {"ha_manage_backup", R"({"action":"view","backup_id":"9a8b7c6d"})"},
      {"ha_manage_backup", R"({"scope":"edits","action":"list"})"},
      {"ha_manage_backup", R"({"action":"list","via":"supervisor"})"},
      {"ha_manage_backup", R"({"action":"view","via":"supervisor","backup_id":"9f3c1a20"})"},
      {"ha_manage_backup", R"({"action":"restore","via":"supervisor","backup_id":"9f3c1a20"})"},  // the preview
      {"ha_manage_backup", R"({"action":"delete","via":"supervisor","backup_id":"9f3c1a20"})"},   // the preview
      {"ha_manage_updates", R"({"action":"list","include_release_notes":true})"},
      {"ha_manage_updates", R"({"action":"get","entity_ids":["update.mosquitto_broker_update"]})"},
      {"ha_manage_hacs", R"({"action":"search","query":"card"})"},
      {"ha_get_hacs_info", R"({"action":"info","repository_id":"hacs/integration"})"},
      {"ha_get_integration", R"({})"},
      {"ha_get_integration", R"({"query":"hallway"})"},
      {"ha_manage_energy_prefs", R"({"mode":"get","include_statistics":true})"},
      {"ha_manage_energy_prefs",
       R"({"mode":"add_device","stat_consumption":"sensor.kuche_wasserkocher_energy","dry_run":true})"},
      {"ha_manage_pipeline", R"({"action":"list"})"},
      {"ha_manage_pipeline", R"({"action":"get"})"},
      {"ha_get_app", R"({})"},
      {"ha_get_app", R"({"source":"available","repository":"core"})"},
      {"ha_get_app", R"({"slug":"core_mosquitto","include_stats":true})"},
      {"ha_get_addon", R"({"slug":"core_mosquitto"})"},
      {"ha_manage_app", R"({"action":"uninstall","slug":"core_mosquitto"})"},      // the preview
      {"ha_manage_app", R"({"slug":"45df7312_zigbee2mqtt","path":"/api/info"})"},  // a GET through ingress
      {"ha_get_logs", R"({"source":"supervisor","slug":"core_mosquitto"})"},
      {"ha_get_logs", R"({"source":"system_service","slug":"kernel"})"},
      {"ha_get_skill_guide", R"({})"},
      {"ha_get_settings", R"({})"},
      {"ha_get_skill_guide", R"({"topic":"automations"})"},
      {"ha_manage_radio", R"({"radio":"zwave","action":"network_status"})"},
      {"ha_manage_radio", R"({"radio":"zwave","action":"diagnostics"})"},
      {"ha_manage_radio", R"({"radio":"zwave","action":"hard_reset"})"},  // the preview
      {"ha_manage_radio", R"({"radio":"zigbee","action":"diagnostics"})"},
      {"ha_manage_radio", R"({"radio":"zigbee","action":"groups"})"},
      {"ha_manage_radio", R"({"radio":"zigbee","action":"network_backup","params":{"list":true}})"},
      {"ha_manage_radio", R"({"radio":"zigbee","action":"change_channel","params":{"channel":20}})"},  // preview
      {"ha_manage_radio",
       R"({"radio":"zigbee","action":"network_restore","params":{"backup_time":"2026-01-01T03:00:00+00:00"}})"},
      {"ha_manage_radio", R"({"radio":"zigbee","action":"cluster_read","device_id":")" + zigbee_plug +
                              R"(","params":{"cluster_id":"0x0000","attribute":["manufacturer",5]}})"},
      {"ha_manage_radio", R"({"radio":"zigbee","action":"cluster_write","device_id":")" + zigbee_plug +
                              R"(","params":{"cluster_id":3,"attribute":"identify_time","value":5}})"},  // preview
      {"ha_manage_radio", R"({"radio":"zigbee","action":"cluster_command","device_id":")" + zigbee_plug +
                              R"(","params":{"cluster_id":6,"command":"toggle"}})"},  // preview
      {"ha_manage_radio", R"({"radio":"thread","action":"network_status"})"},
      {"ha_manage_radio", R"({"radio":"thread","action":"discover_routers","params":{"seconds":1}})"},
      {"ha_manage_radio", R"({"radio":"matter","action":"network_status"})"},
      {"ha_get_system_health", R"({"include":"zha_network,zwave_network,thread_network,matter_network"})"},
  };
  for (const auto& [tool, args] : reads) {
    const json::object r = call_raw(*session, tool, json::parse(args).as_object());
    EXPECT_EQ(error_code(r), "") << tool << " " << args << ": " << json::serialize(r);
    EXPECT_FALSE(r.contains("error")) << tool << " " << args << ": " << json::serialize(r);
  }
}

TEST_F(ReadOnlyTest, TheRefusalSaysWhatAndHowToEnableWrites) {
  start();
  auto session = read_only_session();
  const json::object r =
      call_raw(*session, "ha_call_service",
               json::object{{"domain", "light"}, {"service", "turn_on"}, {"entity_id", kLight}, {"wait", false}});
  const json::object& err = r.at("result").at("structuredContent").at("error").as_object();
  EXPECT_EQ(err.at("code").as_string(), "read_only");
  EXPECT_EQ(err.at("refused").at("request").as_string(), "light.turn_on");
  EXPECT_EQ(err.at("written").as_bool(), false);
  EXPECT_NE(std::string(err.at("suggestion").as_string()).find("READ_ONLY_MODE"), std::string::npos);
  // The same call in the ordinary session still works: the mode is per session.
  const json::object ok = call_raw(*h.session, "ha_call_service",
                                   json::object{{"domain", "light"}, {"service", "turn_on"}, {"entity_id", kLight}});
  EXPECT_EQ(error_code(ok), "") << json::serialize(ok);
}

TEST_F(ReadOnlyTest, ServerWideReadOnlyRefusesInEverySession) {
  EntityToolsOptions options;
  options.read_only = true;
  start(options);
  const json::object r = call_raw(*h.session, "ha_call_service",
                                  json::object{{"domain", "light"}, {"service", "turn_off"}, {"entity_id", kLight}});
  EXPECT_EQ(error_code(r), "read_only") << json::serialize(r);
}

TEST(ReadPolicy, DefaultDeny) {
  EXPECT_TRUE(is_known_read(RequestKind::ws_command, "get_states"));
  EXPECT_TRUE(is_known_read(RequestKind::ws_command, "input_boolean/list"));
  EXPECT_FALSE(is_known_read(RequestKind::ws_command, "input_boolean/create"));
  EXPECT_FALSE(is_known_read(RequestKind::ws_command, "call_service"));
  EXPECT_FALSE(is_known_read(RequestKind::ws_command, "fire_event"));
  EXPECT_FALSE(is_known_read(RequestKind::ws_command, "some/new_command"));
  EXPECT_TRUE(is_known_read(RequestKind::rest_get, "/api/states?x=1"));
  EXPECT_FALSE(is_known_read(RequestKind::rest_get, "/api/../x"));
  EXPECT_TRUE(is_known_read(RequestKind::rest_post, "/api/template"));
  EXPECT_FALSE(is_known_read(RequestKind::rest_post, "/api/services/light/turn_on"));
  EXPECT_FALSE(is_known_read(RequestKind::rest_delete, "/api/config/automation/config/x"));
  EXPECT_FALSE(is_known_read(RequestKind::service, "light.turn_on"));
  EXPECT_TRUE(is_known_read(RequestKind::service, "weather.get_forecasts"));
  // ha_manage_app's proxy into an add-on's own API: a GET reads, anything else writes
  EXPECT_TRUE(is_known_read(RequestKind::supervisor, "PROXY GET core_mosquitto /status"));
  EXPECT_FALSE(is_known_read(RequestKind::supervisor, "PROXY POST core_mosquitto /status"));
  EXPECT_FALSE(is_known_read(RequestKind::supervisor, "PROXY GET core_mosquitto /../x"));
}

}  // namespace
}  // namespace hamcp::tools::testing
