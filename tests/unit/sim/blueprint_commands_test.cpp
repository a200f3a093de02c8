// The simulator's blueprint/* commands against HA's shapes and errors, and
// automations that use a blueprint (validated on save, substituted, in use).
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "sim/core/blueprints.hpp"
#include "sim/rest/rest_api.hpp"
#include "sim/ws/ws_connection.hpp"
#include "support/file_server.hpp"

namespace hamcp::sim {
namespace {

constexpr const char* kPath = "homeassistant/motion_light.yaml";

constexpr const char* kNotify = R"(blueprint:
  name: Notify on state
  domain: automation
  input:
    watched:
      name: Entity
    message:
      default: changed
triggers:
  - trigger: state
    entity_id: !input watched
actions:
  - action: notify.notify
    data:
      message: !input message
)";

class BlueprintTest : public ::testing::Test {
 protected:
  SimCore core{demo_home(), "tok"};
  std::mutex mu;  // blueprint/import answers from its own thread
  std::vector<json::value> out;
  std::shared_ptr<WsConnection> conn = std::make_shared<WsConnection>(
      core,
      [this](std::string f) {
        std::lock_guard lock(mu);
        out.push_back(json::parse(f));
      },
      [] {});
  int64_t next_id = 1;

  void SetUp() override { conn->on_message(R"({"type":"auth","access_token":"tok"})"); }
  void TearDown() override { conn->shutdown(); }

  // Sends a command and waits (bounded) for its result.
  json::object cmd(json::object msg) {
    const int64_t id = ++next_id;
    msg["id"] = id;
    conn->on_message(json::serialize(msg));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(mu);
        for (auto& m : out)
          if (m.as_object().contains("id") && m.at("id") == id && m.at("type") == "result") return m.as_object();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ADD_FAILURE() << "no result for " << json::serialize(msg);
    return {};
  }
  static std::string code(const json::object& r) { return std::string(r.at("error").at("code").as_string()); }
  static std::string message(const json::object& r) { return std::string(r.at("error").at("message").as_string()); }

  RestResponse post_automation(const std::string& id, const json::object& cfg) {
    RestApi api(core, nullptr);
    RestRequest req;
    req.method = "POST";
    req.target = "/api/config/automation/config/" + id;
    req.authorization = "Bearer tok";
    req.body = json::serialize(cfg);
    return api.handle(req);
  }
};

TEST_F(BlueprintTest, ListShowsTheDemoBlueprintMetadata) {
  auto r = cmd({{"type", "blueprint/list"}, {"domain", "automation"}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  const auto& meta = r.at("result").at(kPath).at("metadata");
  EXPECT_EQ(meta.at("name"), "Motion-activated Light");
  EXPECT_TRUE(meta.at("input").as_object().contains("motion_entity"));
  EXPECT_TRUE(cmd({{"type", "blueprint/list"}, {"domain", "light"}}).at("result").as_object().empty());
}

TEST_F(BlueprintTest, SaveThenOverwriteOnlyWhenAllowed) {
  auto saved = cmd({{"type", "blueprint/save"}, {"domain", "automation"}, {"path", "me/notify"}, {"yaml", kNotify}});
  ASSERT_TRUE(saved.at("success").as_bool()) << json::serialize(saved);
  EXPECT_EQ(saved.at("result").at("overrides_existing"), false);
  auto again =
      cmd({{"type", "blueprint/save"}, {"domain", "automation"}, {"path", "me/notify.yaml"}, {"yaml", kNotify}});
  EXPECT_EQ(code(again), "already_exists");
  auto over = cmd({{"type", "blueprint/save"},
                   {"domain", "automation"},
                   {"path", "me/notify.yaml"},
                   {"yaml", kNotify},
                   {"allow_override", true}});
  EXPECT_EQ(over.at("result").at("overrides_existing"), true);
}

TEST_F(BlueprintTest, SaveRefusesBadYamlWrongDomainAndUndeclaredInput) {
  auto bad = cmd({{"type", "blueprint/save"},
                  {"domain", "automation"},
                  {"path", "x"},
                  {"yaml", "blueprint:\n  name: [oops\n  domain: automation\n"}});
  EXPECT_EQ(code(bad), "invalid_format");
  EXPECT_NE(message(bad).find("line "), std::string::npos) << message(bad);
  auto wrong = cmd({{"type", "blueprint/save"}, {"domain", "script"}, {"path", "x"}, {"yaml", kNotify}});
  EXPECT_EQ(message(wrong), "Found incorrect blueprint type automation, expected script");
  std::string undeclared = std::string(kNotify) + "conditions:\n  - condition: state\n    entity_id: !input nope\n";
  auto missing = cmd({{"type", "blueprint/save"}, {"domain", "automation"}, {"path", "x"}, {"yaml", undeclared}});
  EXPECT_EQ(message(missing), "Invalid blueprint: Missing input definition for nope");
}

TEST_F(BlueprintTest, DeleteRefusedWhileInUseAndRelatedNamesTheUsers) {
  auto refused = cmd({{"type", "blueprint/delete"}, {"domain", "automation"}, {"path", kPath}});
  EXPECT_EQ(code(refused), "home_assistant_error");
  EXPECT_EQ(message(refused), "Blueprint in use");
  auto related = cmd({{"type", "search/related"}, {"item_type", "automation_blueprint"}, {"item_id", kPath}});
  EXPECT_EQ(related.at("result").at("automation"), (json::array{"automation.landing_motion_light"}));
  auto back =
      cmd({{"type", "search/related"}, {"item_type", "automation"}, {"item_id", "automation.landing_motion_light"}});
  EXPECT_EQ(back.at("result").at("automation_blueprint"), (json::array{kPath}));
  auto unknown = cmd({{"type", "blueprint/delete"}, {"domain", "automation"}, {"path", "nope.yaml"}});
  EXPECT_EQ(code(unknown), "unknown_error");
  cmd({{"type", "blueprint/save"}, {"domain", "automation"}, {"path", "me/notify"}, {"yaml", kNotify}});
  auto deleted = cmd({{"type", "blueprint/delete"}, {"domain", "automation"}, {"path", "me/notify.yaml"}});
  EXPECT_TRUE(deleted.at("success").as_bool()) << json::serialize(deleted);
}

TEST_F(BlueprintTest, SubstituteFillsInputsAndDefaults) {
  cmd({{"type", "blueprint/save"}, {"domain", "automation"}, {"path", "me/notify"}, {"yaml", kNotify}});
  auto r = cmd({{"type", "blueprint/substitute"},
                {"domain", "automation"},
                {"path", "me/notify.yaml"},
                {"input", {{"watched", "light.landing_light"}}}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  const auto& cfg = r.at("result").at("substituted_config");
  EXPECT_EQ(cfg.at("triggers").at(0).at("entity_id"), "light.landing_light");
  EXPECT_EQ(cfg.at("actions").at(0).at("data").at("message"), "changed");
  EXPECT_FALSE(cfg.as_object().contains("blueprint"));
  auto missing = cmd({{"type", "blueprint/substitute"},
                      {"domain", "automation"},
                      {"path", "me/notify.yaml"},
                      {"input", json::object{}}});
  EXPECT_EQ(message(missing), "Missing input watched");
}

TEST_F(BlueprintTest, AutomationUsingABlueprintIsValidatedOnSave) {
  json::object ok{
      {"alias", "Notify"},
      {"use_blueprint",
       {{"path", kPath}, {"input", {{"motion_entity", "binary_sensor.x"}, {"light_target", json::object{}}}}}}};
  EXPECT_EQ(post_automation("bp1", ok).status, 200);
  json::object missing{{"alias", "Notify"}, {"use_blueprint", {{"path", kPath}, {"input", json::object{}}}}};
  auto r = post_automation("bp2", missing);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("Missing input light_target, motion_entity"), std::string::npos) << r.body;
  json::object unknown{{"alias", "Notify"}, {"use_blueprint", {{"path", "nope.yaml"}, {"input", json::object{}}}}};
  auto u = post_automation("bp3", unknown);
  EXPECT_EQ(u.status, 400);
  EXPECT_NE(u.body.find("Unable to find automation/nope.yaml"), std::string::npos) << u.body;
}

TEST_F(BlueprintTest, ImportFetchesTheUrlItself) {
  testing::FileServer server({{"/bp/notify.yaml", kNotify}, {"/bp/junk.yaml", "a: [1\n"}});
  auto r = cmd({{"type", "blueprint/import"}, {"url", server.url("/bp/notify.yaml")}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_EQ(r.at("result").at("suggested_filename"), "127.0.0.1/notify");
  EXPECT_EQ(r.at("result").at("raw_data"), kNotify);
  EXPECT_EQ(r.at("result").at("blueprint").at("metadata").at("source_url"), server.url("/bp/notify.yaml").c_str());
  EXPECT_EQ(r.at("result").at("exists"), false);
  EXPECT_EQ(code(cmd({{"type", "blueprint/import"}, {"url", server.url("/bp/missing.yaml")}})), "unknown_error");
  EXPECT_EQ(code(cmd({{"type", "blueprint/import"}, {"url", server.url("/bp/junk.yaml")}})), "home_assistant_error");
}

}  // namespace
}  // namespace hamcp::sim
