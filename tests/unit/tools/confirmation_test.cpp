// One confirmation shape (issue 14 item 5, issue 15 item 1): every tool of the
// registry with a `confirm` argument is called, without confirm, on a real
// target of the demo home; each answer is the one preview shape
// (tools/confirmation.hpp) and the simulated HA's own record of received
// requests holds reads only. The registry decides what must be covered: a tool
// added later with `confirm` fails CoversEveryToolWithConfirm until a call of
// it is listed here. A read-only sweep of every tool × action (registry-driven)
// checks that no answer uses an old preview shape. Then elicitation: a client
// that can be asked is asked, in the 2025 era (elicitation/create) and in the
// 2026-07-28 era (an InputRequiredResult and the retry's inputResponses);
// accept runs the action, decline answers the preview.

#include "tools/confirmation.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "mcp/registry.hpp"
#include "sim/core/sim_core.hpp"
#include "tools/gate/read_policy.hpp"
#include "unit/tools/confirm_fixture.hpp"
#include "unit/tools/tool_sweep.hpp"

namespace hamcp::tools::testing {
namespace {

// What the sim received, judged as hamcp's read-only gate would have to.
bool received_is_read(const sim::ReceivedRequest& r) {
  if (r.channel == "GET") return is_known_read(RequestKind::rest_get, r.what);
  if (r.channel == "POST") return is_known_read(RequestKind::rest_post, r.what);
  if (r.channel != "ws") return false;
  if (r.what.rfind("call_service ", 0) == 0) return is_known_read(RequestKind::service, r.what.substr(13));
  if (r.what.rfind("supervisor/api ", 0) == 0) return is_known_read(RequestKind::supervisor, r.what.substr(15));
  return is_known_read(RequestKind::ws_command, r.what) || is_known_read(RequestKind::ws_subscribe, r.what);
}

// The one shape, and the `next` every confirm=true retry is told.
void expect_confirm_shape(const json::object& s, const std::string& what) {
  expect_one_shape(s, what);
  EXPECT_EQ(s.if_contains("next") ? *s.if_contains("next") : json::value(), "call again with confirm=true") << what;
}

class ConfirmationTest : public AskingToolsTest {
 protected:
  std::string bridge_entry() {
    CallResult r = call("ha_get_integration", R"({"domain":"sim_bridge"})");
    return std::string(r.structured.at("entries").at(0).at("entry_id").as_string());
  }

  // A destructive call (without confirm) on a real demo target per tool and action.
  struct Destructive {
    std::string tool;
    std::string args;
  };
  std::vector<Destructive> destructive_calls() {
    const std::string entry = bridge_entry();
    CallResult helper =
        call("ha_config_set_helper", R"({"helper_type":"input_boolean","config":{"name":"Preview me"}})");
    const std::string helper_id(helper.structured.at("entity_id").as_string());
    CallResult journaled = call("ha_set_registry", R"({"kind":"label","name":"Preview label"})");
    const std::string edit_id = journaled.structured.contains("edit_id")
                                    ? std::string(journaled.structured.at("edit_id").as_string())
                                    : std::string("missing");
    return {
        {"ha_manage_todo", R"({"action":"remove","entity_id":"todo.shopping_list","item":"Milk"})"},
        {"ha_manage_calendar", R"({"action":"remove","entity_id":"calendar.family","uid":"demo-oma"})"},
        {"ha_manage_hacs", R"({"action":"download","repository_id":"146194325"})"},
        {"ha_manage_hacs", R"({"action":"remove","repository_id":"444350375"})"},
        {"ha_manage_updates", R"({"action":"install","entity_ids":["update.garage_door_controller_firmware"]})"},
        {"ha_manage_app", R"({"action":"uninstall","slug":"core_mosquitto"})"},
        {"ha_manage_app", R"({"action":"update","slug":"core_mosquitto"})"},
        {"ha_set_integration", R"({"entry_id":")" + entry + R"(","remove":true})"},
        {"ha_set_integration",
         R"({"entry_id":")" + entry + R"(","remove":true,"subentry_id":"01JDEMOBRIDGEROOMKITCHEN01"})"},
        {"ha_set_integration", R"({"entry_id":")" + helper_id + R"(","remove":true,"helper_type":"input_boolean"})"},
        {"ha_manage_dashboard_resources", R"({"action":"remove","resource_id":"6f1d0c3e2b7a4c5d9e8f7a6b5c4d3e2f"})"},
        {"ha_set_dashboard", R"({"url_path":"dashboard-energy","remove":true})"},
        {"ha_remove_registry", R"({"kind":"label","id":"Holiday mode"})"},
        {"ha_config_remove", R"({"id":"automation.leak_alert"})"},
        {"ha_config_remove_scene", R"({"scene_id":"Dinner"})"},
        {"ha_remove_entity", R"({"entity_id":"light.laundry_light"})"},
        {"ha_config_remove_group", R"({"object_id":"family"})"},
        {"ha_config_set_helper", R"({"helper_type":"input_boolean","action":"remove","helper_id":")" +
                                     helper_id.substr(helper_id.find('.') + 1) + R"("})"},
        {"ha_restart", R"({})"},
        {"ha_manage_backup", R"({"action":"delete","backup_id":"5e4f3a2b"})"},
        {"ha_manage_backup", R"({"action":"restore","backup_id":"9a8b7c6d"})"},
        {"ha_manage_backup", R"({"action":"delete","older_than_days":0})"},
        {"ha_manage_backup", R"({"action":"restore","via":"supervisor","backup_id":"b71e44d5"})"},
        {"ha_manage_backup", R"({"action":"delete","via":"supervisor","backup_id":"9f3c1a20"})"},
        {"ha_manage_backup", R"({"scope":"edits","action":"delete","backup_id":")" + edit_id + R"("})"},
        {"ha_manage_blueprints", R"({"action":"delete","path":"me/notify.yaml","domain":"automation"})"},
        {"ha_manage_radio",
         R"({"radio":"zwave","action":"remove_device","device_id":")" + device_named("Garage Siren") + R"("})"},
        {"ha_manage_radio", R"({"radio":"zigbee","action":"remove_device","device_id":")" +
                                device_named("Bedroom Window Sensor") + R"("})"},
        {"ha_manage_radio", R"({"radio":"zigbee","action":"group_remove","params":{"group_id":2}})"},
        {"ha_manage_radio", R"({"radio":"matter","action":"remove_fabric","device_id":")" +
                                device_named("Living Room Matter Plug") + R"(","params":{"fabric_index":2}})"},
    };
  }

  // A 2026-07-28 tools/call (stateless, per-request _meta) on the fixture's session.
  json::object modern_call(const std::string& name, const std::string& args, const std::string& extra_params = {}) {
    std::string text = R"({"jsonrpc":"2.0","id":)" + std::to_string(++next_id) +
                       R"(,"method":"tools/call","params":{"name":")" + name + R"(","arguments":)" + args +
                       extra_params +
                       R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                       R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}})";
    auto channel = std::make_shared<mcp::testing::MemoryChannel>();
    h.session->deliver(json::parse(text), channel);
    h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(15000));
    const auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << text;
    return responses.empty() ? json::object() : responses.front();
  }

  bool has_item(const std::string& summary) {
    CallResult r = call("ha_get_todo", R"({"entity_id":"todo.shopping_list"})");
    return r.text.find("\"" + summary + "\"") != std::string::npos;
  }

  // Tools of the registry (primary names) with a `confirm` argument.
  std::set<std::string> tools_with_confirm() {
    std::set<std::string> out;
    for (const auto& t : h.server.registry().tools()) {
      const json::value* props = t->tool.input_schema.if_contains("properties");
      if (props && props->is_object() && props->as_object().contains("confirm")) out.insert(t->tool.name);
    }
    return out;
  }
};

TEST_F(ConfirmationTest, CoversEveryToolWithConfirm) {
  start();
  std::set<std::string> covered;
  for (const auto& d : destructive_calls()) covered.insert(d.tool);
  const std::set<std::string> with_confirm = tools_with_confirm();
  EXPECT_GE(with_confirm.size(), 12u) << "the registry lost its destructive tools?";
  for (const auto& name : with_confirm)
    EXPECT_TRUE(covered.count(name)) << name << " takes confirm but no destructive call of it is checked here";
}

TEST_F(ConfirmationTest, EveryDestructiveCallWithoutConfirmPreviewsInOneShapeAndHaSeesNoWrite) {
  start();
  ASSERT_TRUE(eventually([&] { return env->configs.status().ready; }, std::chrono::milliseconds(30000)));
  const std::vector<Destructive> calls = destructive_calls();
  const std::string states_before = sim->store().states_array_json();
  sim->core().record_requests(true);
  for (const auto& d : calls) {
    CallResult r = call(d.tool, d.args);
    ASSERT_FALSE(r.is_error) << d.tool << " " << d.args << ": " << r.text;
    expect_confirm_shape(r.structured, d.tool + " " + d.args + ": " + r.text);
  }
  h.run_for(std::chrono::milliseconds(100));
  sim->core().record_requests(false);
  const auto received = sim->core().received_requests();
  EXPECT_FALSE(received.empty()) << "the sim recorded nothing: is the record wired?";
  for (const auto& r : received)
    EXPECT_TRUE(received_is_read(r)) << "HA received a write: " << r.channel << " " << r.what;
  EXPECT_EQ(sim->store().states_array_json(), states_before) << "a preview changed a state";
}

// Every tool with confirm, every action its schema names, without confirm, in a
// read-only session (so the sweep changes nothing): whatever previews answers in
// the one shape; no answer carries an old `preview` member.
TEST_F(ConfirmationTest, NoToolAnswersAnOldPreviewShape) {
  start();
  const std::set<std::string> with_confirm = tools_with_confirm();
  auto session = other_session("confirm-sweep");
  session->make_read_only();
  std::size_t calls = 0;
  for (const auto& t : h.server.registry().tools()) {
    if (!with_confirm.count(t->tool.name)) continue;
    for (json::object args : sweep_argument_sets(t->tool.input_schema, "light.kitchen_ceiling_light")) {
      args.erase("confirm");
      CallResult r = call_in(*session, t->tool.name, json::serialize(args));
      ++calls;
      EXPECT_FALSE(r.structured.contains("preview")) << t->tool.name << " " << json::serialize(args) << ": " << r.text;
      if (r.structured.contains("result") && r.structured.at("result") == "preview")
        expect_confirm_shape(r.structured, t->tool.name + " " + json::serialize(args));
    }
  }
  EXPECT_GT(calls, 30u);
}

TEST_F(ConfirmationTest, AuditLineCountsTheOneShapeAsPreview) {
  start();
  CallResult r = call("ha_remove_registry", R"({"kind":"label","id":"Holiday mode"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(is_preview_body(r.structured));
  CallResult audit = call("ha_get_audit_log", R"({"tool":"ha_remove_registry"})");
  EXPECT_NE(audit.text.find(R"("outcome":"preview")"), std::string::npos) << audit.text;
}

TEST_F(ConfirmationTest, ElicitationAcceptRunsTheRemoval2025Era) {
  start();
  auto session = asking_session("asks-accept");
  ASSERT_TRUE(has_item("Milk"));
  Asked a = call_answering(*session, "ha_remove_todo_item", R"({"entity_id":"todo.shopping_list","item":"Milk"})",
                           json::parse(R"({"action":"accept","content":{"confirm":true}})"));
  ASSERT_FALSE(a.question.empty()) << "the user was not asked";
  const std::string message(a.question.at("message").as_string());
  EXPECT_EQ(message.rfind("Remove todo.shopping_list?", 0), 0u) << message;
  EXPECT_NE(message.find("Milk"), std::string::npos) << "the question says what would change: " << message;
  EXPECT_EQ(a.question.at("requestedSchema").at("properties").at("confirm").at("type"), "boolean");
  EXPECT_EQ(structured_of(a.response).at("removed"), true) << json::serialize(a.response);
  EXPECT_FALSE(has_item("Milk"));
}

TEST_F(ConfirmationTest, ElicitationDeclineOrCancelAnswersThePreview2025Era) {
  start();
  auto session = asking_session("asks-decline");
  for (const char* answer :
       {R"({"action":"decline"})", R"({"action":"cancel"})", R"({"action":"accept","content":{"confirm":false}})"}) {
    Asked a = call_answering(*session, "ha_remove_todo_item", R"({"entity_id":"todo.shopping_list","item":"Milk"})",
                             json::parse(answer));
    ASSERT_FALSE(a.question.empty()) << answer;
    const json::object& s = structured_of(a.response);
    expect_confirm_shape(s, answer);
    EXPECT_EQ(s.at("declined"), true) << answer;
    EXPECT_NE(std::string(s.at("note").as_string()).find("declined"), std::string::npos);
    EXPECT_TRUE(has_item("Milk")) << answer;
  }
}

// ha_config_remove asks too: decline keeps the automation, accept removes it.
TEST_F(ConfirmationTest, ConfigRemoveAsksTheUser2025Era) {
  start();
  auto session = asking_session("asks-config-remove");
  Asked no = call_answering(*session, "ha_config_remove", R"({"id":"automation.leak_alert"})",
                            json::parse(R"({"action":"decline"})"));
  ASSERT_FALSE(no.question.empty()) << "the user was not asked";
  EXPECT_EQ(std::string(no.question.at("message").as_string()).rfind("Remove automation.leak_alert?", 0), 0u);
  EXPECT_EQ(structured_of(no.response).at("declined"), true) << json::serialize(no.response);
  EXPECT_TRUE(ha->snapshot()->states.find("automation.leak_alert"));
  Asked yes = call_answering(*session, "ha_config_remove", R"({"id":"automation.leak_alert"})",
                             json::parse(R"({"action":"accept","content":{"confirm":true}})"));
  EXPECT_EQ(structured_of(yes.response).at("result"), "removed") << json::serialize(yes.response);
  EXPECT_TRUE(eventually([&] { return !ha->snapshot()->states.find("automation.leak_alert"); },
                         std::chrono::milliseconds(5000)));
}

TEST_F(ConfirmationTest, NobodyIsAskedWithoutTheCapabilityWithConfirmOrWhenSwitchedOff) {
  start();
  // The fixture's own session declared no elicitation: the preview as before.
  CallResult r = call("ha_remove_todo_item", R"({"entity_id":"todo.shopping_list","item":"Milk"})");
  expect_confirm_shape(r.structured, r.text);
  EXPECT_FALSE(r.structured.contains("asked"));
  // confirm=true: done without asking.
  auto session = asking_session("asks-not");
  Asked done = call_answering(*session, "ha_remove_todo_item",
                              R"({"entity_id":"todo.shopping_list","item":"Milk","confirm":true})",
                              json::parse(R"({"action":"decline"})"));
  EXPECT_TRUE(done.question.empty());
  EXPECT_FALSE(has_item("Milk"));
  // Switched off (--no-elicit-confirm): previews only.
  set_elicit_confirm(false);
  Asked off = call_answering(*session, "ha_remove_registry", R"({"kind":"label","id":"Holiday mode"})",
                             json::parse(R"({"action":"accept"})"));
  set_elicit_confirm(true);
  EXPECT_TRUE(off.question.empty());
  expect_confirm_shape(structured_of(off.response), json::serialize(off.response));
}

TEST_F(ConfirmationTest, ReadOnlySessionsAreNeverAsked) {
  start();
  auto session = asking_session("asks-read-only");
  session->make_read_only();
  Asked a = call_answering(*session, "ha_remove_registry", R"({"kind":"label","id":"Holiday mode"})",
                           json::parse(R"({"action":"accept"})"));
  EXPECT_TRUE(a.question.empty()) << "a read-only session was asked";
}

TEST_F(ConfirmationTest, ActionTablesAskThenRunWithConfirm) {  // radio and blueprints re-run on accept
  start();
  auto session = asking_session("asks-radio");
  Asked a = call_answering(*session, "ha_manage_radio",
                           R"({"radio":"zigbee","action":"group_remove","params":{"group_id":2}})",
                           json::parse(R"({"action":"accept","content":{"confirm":true}})"));
  ASSERT_FALSE(a.question.empty());
  const json::object& s = structured_of(a.response);
  EXPECT_EQ(s.at("done"), true) << json::serialize(s);
  EXPECT_FALSE(s.contains("result") && s.at("result") == "preview");
}

TEST_F(ConfirmationTest, ElicitationInTheModernEraIsAnInputRequiredRoundTrip) {
  start();
  const std::string args = R"({"entity_id":"todo.shopping_list","item":"Milk"})";
  json::object first = modern_call("ha_remove_todo_item", args);
  const json::object& interim = first.at("result").as_object();
  ASSERT_EQ(interim.at("resultType"), "input_required") << json::serialize(first);
  const json::object& requests = interim.at("inputRequests").as_object();
  ASSERT_EQ(requests.size(), 1u);
  const std::string key(requests.begin()->key());
  EXPECT_EQ(requests.begin()->value().at("method"), "elicitation/create");
  EXPECT_TRUE(has_item("Milk")) << "nothing is done before the answer";
  // Declined: the preview, nothing removed.
  json::object declined =
      modern_call("ha_remove_todo_item", args, R"(,"inputResponses":{")" + key + R"(":{"action":"decline"}})");
  ASSERT_EQ(declined.at("result").at("resultType"), "complete") << json::serialize(declined);
  expect_confirm_shape(structured_of(declined), json::serialize(declined));
  EXPECT_EQ(structured_of(declined).at("declined"), true);
  EXPECT_TRUE(has_item("Milk"));
  // Accepted: removed.
  json::object accepted =
      modern_call("ha_remove_todo_item", args,
                  R"(,"inputResponses":{")" + key + R"(":{"action":"accept","content":{"confirm":true}}})");
  ASSERT_EQ(accepted.at("result").at("resultType"), "complete") << json::serialize(accepted);
  EXPECT_EQ(structured_of(accepted).at("removed"), true) << json::serialize(accepted);
  EXPECT_FALSE(has_item("Milk"));
}

}  // namespace
}  // namespace hamcp::tools::testing
