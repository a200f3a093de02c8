// ha_manage_blueprints against the demo sim: every action's happy path and
// errors (unknown path, invalid YAML with its line, in use with the users
// named, import URL failing, confirm missing), take control journaled, and
// ha-mcp's renamed aliases.
#include "support/file_server.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr const char* kPath = "homeassistant/motion_light.yaml";
constexpr const char* kNotify =
    "blueprint:\n  name: Notify on state\n  domain: automation\n  input:\n    watched:\n      name: Entity\n"
    "    message:\n      default: changed\ntriggers:\n  - trigger: state\n    entity_id: !input watched\n"
    "actions:\n  - action: notify.notify\n    data:\n      message: !input message\n";

std::string quoted(const std::string& s) { return json::serialize(json::value(s)); }

class BlueprintsToolTest : public ToolsTest {
 protected:
  CallResult bp(const std::string& args_json) { return call("ha_manage_blueprints", args_json); }
  std::string code(const CallResult& r) { return std::string(r.error().at("code").as_string()); }
};

TEST_F(BlueprintsToolTest, ListAndGetShowMetadataAndUsers) {
  start();
  CallResult list = bp(R"({"action":"list"})");
  ASSERT_FALSE(list.is_error) << list.text;
  const auto& first = list.structured.at("blueprints").at(0);
  EXPECT_EQ(first.at("path"), kPath);
  EXPECT_EQ(first.at("name"), "Motion-activated Light");
  CallResult got = bp(std::string(R"({"action":"get","path":")") + kPath + R"("})");
  ASSERT_FALSE(got.is_error) << got.text;
  EXPECT_EQ(got.structured.at("used_by"), (json::array{"automation.landing_motion_light"}));
  EXPECT_TRUE(got.structured.at("metadata").at("input").as_object().contains("no_motion_wait"));
  CallResult alias = call("ha_get_blueprint", std::string(R"({"path":")") + kPath + R"("})");  // ha-mcp's old name
  ASSERT_FALSE(alias.is_error) << alias.text;
  EXPECT_EQ(alias.structured.at("path"), kPath);
}

TEST_F(BlueprintsToolTest, GetOfAnUnknownPathNamesTheKnownOnes) {
  start();
  CallResult r = bp(R"({"action":"get","path":"nope.yaml"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(code(r), "blueprint_not_found");
  EXPECT_EQ(r.error().at("available"), (json::array{kPath}));
}

TEST_F(BlueprintsToolTest, SaveIsJournaledAndInvalidYamlNamesTheLine) {
  start();
  CallResult saved = bp(R"({"action":"save","path":"me/notify","yaml":)" + quoted(kNotify) + "}");
  ASSERT_FALSE(saved.is_error) << saved.text;
  EXPECT_EQ(saved.structured.at("result"), "saved");
  EXPECT_EQ(env->journal.get(std::string(saved.structured.at("edit_id").as_string()))->kind, "blueprint");
  CallResult again = bp(R"({"action":"save","path":"me/notify","yaml":)" + quoted(kNotify) + "}");
  EXPECT_EQ(code(again), "blueprint_exists");
  CallResult over = bp(R"({"action":"save","path":"me/notify","overwrite":true,"yaml":)" + quoted(kNotify) + "}");
  EXPECT_EQ(over.structured.at("result"), "replaced") << over.text;
  CallResult bad = bp(R"({"action":"save","path":"x","yaml":"blueprint:\n  name: [oops\n  domain: automation\n"})");
  ASSERT_TRUE(bad.is_error);
  EXPECT_EQ(code(bad), "invalid_yaml");
  EXPECT_EQ(bad.error().at("line"), 3) << bad.text;  // libyaml stops where the "[" list cannot go on
  EXPECT_EQ(bad.error().at("written"), false);
  CallResult undeclared = bp(
      R"({"action":"save","path":"x","yaml":"blueprint:\n  name: x\n  domain: automation\nactions:\n  - delay: !input d\n"})");
  EXPECT_EQ(code(undeclared), "invalid_blueprint") << undeclared.text;
}

TEST_F(BlueprintsToolTest, DeleteNeedsConfirmAndIsRefusedWhileInUse) {
  start();
  CallResult unconfirmed = bp(std::string(R"({"action":"delete","path":")") + kPath + R"("})");
  ASSERT_FALSE(unconfirmed.is_error) << unconfirmed.text;
  EXPECT_EQ(unconfirmed.structured.at("result"), "preview") << unconfirmed.text;
  EXPECT_EQ(unconfirmed.structured.at("used_by").as_array().size(), 1u) << unconfirmed.text;
  CallResult used = bp(std::string(R"({"action":"delete","confirm":true,"path":")") + kPath + R"("})");
  ASSERT_TRUE(used.is_error);
  EXPECT_EQ(code(used), "blueprint_in_use");
  EXPECT_NE(used.text.find("automation.landing_motion_light"), std::string::npos) << used.text;
  CallResult missing = bp(R"({"action":"delete","confirm":true,"path":"nope.yaml"})");
  EXPECT_EQ(code(missing), "delete_failed") << missing.text;
  bp(R"({"action":"save","path":"me/notify","yaml":)" + quoted(kNotify) + "}");
  CallResult deleted = bp(R"({"action":"delete","confirm":true,"path":"me/notify.yaml"})");
  ASSERT_FALSE(deleted.is_error) << deleted.text;
}

// HA returns no blueprint file's text: the journal keeps what hamcp last wrote
// at a path as the `before` of the next save or delete there, and a restore
// writes it again; text hamcp never wrote is named as unknown, not a null.
TEST_F(BlueprintsToolTest, JournalKeepsTheTextHamcpWroteAndRestoreSavesItAgain) {
  start();
  const std::string v2 = std::string(kNotify) + "mode: single\n";
  auto file_text = [&] {
    std::lock_guard lock(sim->store().mutex());
    const auto& files = sim->store().home().blueprints;
    auto it = files.find("automation/me/notify.yaml");
    return it == files.end() ? std::string("(none)") : it->second.yaml;
  };
  ASSERT_FALSE(bp(R"({"action":"save","path":"me/notify","yaml":)" + quoted(kNotify) + "}").is_error);
  CallResult over = bp(R"({"action":"save","path":"me/notify","overwrite":true,"yaml":)" + quoted(v2) + "}");
  ASSERT_FALSE(over.is_error) << over.text;
  EXPECT_FALSE(over.structured.contains("previous_text")) << over.text;
  auto edit = env->journal.get(std::string(over.structured.at("edit_id").as_string()));
  EXPECT_EQ(edit->before.at("yaml").as_string(), kNotify);
  EXPECT_EQ(file_text(), v2);
  CallResult restored = call("ha_config_set", R"({"restore":")" + edit->id + R"("})");
  ASSERT_FALSE(restored.is_error) << restored.text;
  EXPECT_EQ(file_text(), kNotify);

  CallResult deleted = bp(R"({"action":"delete","confirm":true,"path":"me/notify.yaml"})");
  ASSERT_FALSE(deleted.is_error) << deleted.text;
  edit = env->journal.get(std::string(deleted.structured.at("edit_id").as_string()));
  EXPECT_EQ(edit->action, "remove");
  EXPECT_EQ(edit->before.at("yaml").as_string(), kNotify);  // the restored text, the last hamcp wrote
  EXPECT_EQ(file_text(), "(none)");
  restored = call("ha_config_set", R"({"restore":")" + edit->id + R"("})");
  ASSERT_FALSE(restored.is_error) << restored.text;
  EXPECT_EQ(file_text(), kNotify);

  const std::string demo_text = "blueprint:\n  name: Mine\n  domain: automation\nactions: []\n";
  CallResult foreign = bp(std::string(R"({"action":"save","overwrite":true,"path":")") + kPath + R"(","yaml":)" +
                          quoted(demo_text) + "}");
  ASSERT_FALSE(foreign.is_error) << foreign.text;
  EXPECT_EQ(foreign.structured.at("previous_text"), "previous text unknown: not written by hamcp") << foreign.text;
  edit = env->journal.get(std::string(foreign.structured.at("edit_id").as_string()));
  EXPECT_EQ(edit->before.at("note"), "previous text unknown: not written by hamcp");
  CallResult refused = call("ha_config_set", R"({"restore":")" + edit->id + R"("})");
  ASSERT_TRUE(refused.is_error) << refused.text;
  EXPECT_EQ(code(refused), "invalid_argument");
  EXPECT_NE(refused.text.find("previous text unknown: not written by hamcp"), std::string::npos) << refused.text;
}

TEST_F(BlueprintsToolTest, ImportFromALoopbackServerAndAFailingUrl) {
  start();
  ::hamcp::testing::FileServer server(std::map<std::string, std::string>{{"/bp/notify.yaml", kNotify}});
  CallResult r = bp(R"({"action":"import","url":)" + quoted(server.url("/bp/notify.yaml")) + "}");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("path"), "127.0.0.1/notify.yaml");
  CallResult listed = bp(R"({"action":"get","path":"127.0.0.1/notify.yaml"})");
  ASSERT_FALSE(listed.is_error) << listed.text;
  EXPECT_EQ(listed.structured.at("metadata").at("source_url"), server.url("/bp/notify.yaml").c_str());
  CallResult failing = call("ha_import_blueprint", R"({"url":)" + quoted(server.url("/bp/gone.yaml")) + "}");
  ASSERT_TRUE(failing.is_error);
  EXPECT_EQ(code(failing), "import_failed") << failing.text;
  EXPECT_EQ(failing.error().at("written"), false);
}

TEST_F(BlueprintsToolTest, SubstituteExpandsAndTakeControlIsJournaledAndRestorable) {
  start();
  CallResult expanded = bp(std::string(R"({"action":"substitute","path":")") + kPath +
                           R"(","input":{"motion_entity":"binary_sensor.m","light_target":{"entity_id":"light.l"}}})");
  ASSERT_FALSE(expanded.is_error) << expanded.text;
  EXPECT_EQ(expanded.structured.at("substituted_config").at("triggers").at(0).at("entity_id"), "binary_sensor.m");
  CallResult missing = bp(std::string(R"({"action":"substitute","path":")") + kPath + R"(","input":{}})");
  EXPECT_EQ(code(missing), "substitute_failed") << missing.text;

  CallResult took = bp(R"({"action":"substitute","id":"automation.landing_motion_light"})");
  ASSERT_FALSE(took.is_error) << took.text;
  EXPECT_EQ(took.structured.at("result"), "took_control");
  CallResult now = call("ha_config_get", R"({"id":"automation.landing_motion_light"})");
  const auto& cfg = now.structured.at("config").as_object();
  EXPECT_FALSE(cfg.contains("use_blueprint"));
  EXPECT_EQ(cfg.at("triggers").at(0).at("entity_id"), "binary_sensor.landing_motion_motion");
  EXPECT_EQ(cfg.at("alias"), "Landing motion light");
  CallResult again = bp(R"({"action":"substitute","id":"automation.landing_motion_light"})");
  EXPECT_EQ(code(again), "not_a_blueprint_item");
  const std::string edit(took.structured.at("edit_id").as_string());
  CallResult restored = call("ha_config_set", R"({"restore":")" + edit + R"("})");
  ASSERT_FALSE(restored.is_error) << restored.text;
  CallResult back = call("ha_config_get", R"({"id":"automation.landing_motion_light"})");
  EXPECT_TRUE(back.structured.at("config").as_object().contains("use_blueprint")) << back.text;
}

TEST_F(BlueprintsToolTest, HaMcpTakeControlOfBlueprintOnConfigSet) {
  start();
  CallResult took = call("ha_config_set_automation",
                         R"({"identifier":"automation.landing_motion_light","take_control_of_blueprint":true})");
  ASSERT_FALSE(took.is_error) << took.text;
  EXPECT_EQ(took.structured.at("blueprint"), kPath);
  CallResult now = call("ha_config_get", R"({"id":"automation.landing_motion_light"})");
  EXPECT_FALSE(now.structured.at("config").as_object().contains("use_blueprint")) << now.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
