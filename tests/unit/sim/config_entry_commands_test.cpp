// The simulator's config entry administration in HA 2026.2's shapes:
// config_entries/get with type_filter, get_single, disable (not_loaded while
// disabled), subentries/list and delete with their not_found texts, the
// diagnostics download, and sim_bridge's reconfigure flow (POST .../flow with
// entry_id, the entry's values suggested, abort reconfigure_successful).
#include <gtest/gtest.h>

#include "sim/rest/rest_api.hpp"
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim {
namespace {

class ConfigEntryCommands : public testing::WsCommandTest {
 protected:
  RestResponse rest(const std::string& method, const std::string& target, const std::string& body = "") {
    RestApi api(core, nullptr);
    RestRequest req;
    req.method = method;
    req.target = target;
    req.body = body;
    req.authorization = "Bearer tok";
    return api.handle(req);
  }
  std::string bridge() {
    auto r = cmd({{"type", "config_entries/get"}, {"domain", "sim_bridge"}});
    EXPECT_EQ(r.at("result").as_array().size(), 1u) << json::serialize(r);
    return std::string(r.at("result").at(0).at("entry_id").as_string());
  }
};

TEST_F(ConfigEntryCommands, GetFiltersByTypeAndGetsOne) {
  auto all = cmd({{"type", "config_entries/get"}});
  auto helpers = cmd({{"type", "config_entries/get"}, {"type_filter", json::array{"helper"}}});
  auto hubs = cmd({{"type", "config_entries/get"}, {"type_filter", "hub"}});
  ASSERT_TRUE(all.at("success").as_bool());
  auto services = cmd({{"type", "config_entries/get"}, {"type_filter", "service"}});
  bool bridge_is_hub = false;
  for (const auto& e : hubs.at("result").as_array()) bridge_is_hub |= e.at("domain") == "sim_bridge";
  EXPECT_TRUE(bridge_is_hub);
  for (const auto& e : helpers.at("result").as_array()) EXPECT_NE(e.at("domain"), "sim_bridge");
  EXPECT_EQ(helpers.at("result").as_array().size() + hubs.at("result").as_array().size() +
                services.at("result").as_array().size(),
            all.at("result").as_array().size());
  const std::string id = bridge();
  auto one = cmd({{"type", "config_entries/get_single"}, {"entry_id", id}});
  EXPECT_EQ(one.at("result").at("config_entry").at("domain"), "sim_bridge");
  EXPECT_EQ(one.at("result").at("config_entry").at("supports_reconfigure"), true);
  auto missing = cmd({{"type", "config_entries/get_single"}, {"entry_id", "nope"}});
  EXPECT_EQ(code(missing), "not_found");
  EXPECT_EQ(message(missing), "Config entry not found");
}

TEST_F(ConfigEntryCommands, DisableAndSubentries) {
  const std::string id = bridge();
  auto r = cmd({{"type", "config_entries/disable"}, {"entry_id", id}, {"disabled_by", "user"}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_EQ(r.at("result"), json::parse(R"({"require_restart":false})"));
  auto one = cmd({{"type", "config_entries/get_single"}, {"entry_id", id}});
  EXPECT_EQ(one.at("result").at("config_entry").at("state"), "not_loaded");
  EXPECT_EQ(code(cmd({{"type", "config_entries/disable"}, {"entry_id", id}, {"disabled_by", "integration"}})),
            "invalid_format");
  cmd({{"type", "config_entries/disable"}, {"entry_id", id}, {"disabled_by", nullptr}});
  one = cmd({{"type", "config_entries/get_single"}, {"entry_id", id}});
  EXPECT_EQ(one.at("result").at("config_entry").at("state"), "loaded");

  auto subs = cmd({{"type", "config_entries/subentries/list"}, {"entry_id", id}});
  ASSERT_EQ(subs.at("result").as_array().size(), 2u);
  EXPECT_EQ(subs.at("result").at(0).at("subentry_type"), "room");
  auto gone = cmd({{"type", "config_entries/subentries/delete"}, {"entry_id", id}, {"subentry_id", "nope"}});
  EXPECT_EQ(message(gone), "Config subentry not found");
  gone = cmd({{"type", "config_entries/subentries/delete"},
              {"entry_id", id},
              {"subentry_id", subs.at("result").at(0).at("subentry_id")}});
  ASSERT_TRUE(gone.at("success").as_bool());
  one = cmd({{"type", "config_entries/get_single"}, {"entry_id", id}});
  EXPECT_EQ(one.at("result").at("config_entry").at("num_subentries"), 1);
}

TEST_F(ConfigEntryCommands, DiagnosticsAndReconfigure) {
  const std::string id = bridge();
  RestResponse d = rest("GET", "/api/diagnostics/config_entry/" + id);
  ASSERT_EQ(d.status, 200) << d.body;
  const json::value payload = json::parse(d.body);
  for (const char* k : {"home_assistant", "custom_components", "integration_manifest", "setup_times", "data"})
    EXPECT_TRUE(payload.as_object().contains(k)) << k;
  EXPECT_EQ(rest("GET", "/api/diagnostics/config_entry/nope").status, 404);

  RestResponse start =
      rest("POST", "/api/config/config_entries/flow", R"({"handler":"sim_bridge","entry_id":")" + id + R"("})");
  ASSERT_EQ(start.status, 200) << start.body;
  const json::value form = json::parse(start.body);
  EXPECT_EQ(form.at("step_id"), "reconfigure");
  EXPECT_EQ(form.at("data_schema").at(0).at("description").at("suggested_value"), "192.168.1.40");
  const std::string flow(form.at("flow_id").as_string());
  RestResponse done = rest("POST", "/api/config/config_entries/flow/" + flow, R"({"host":"10.1.1.1","port":80})");
  ASSERT_EQ(done.status, 200) << done.body;
  EXPECT_EQ(json::parse(done.body).at("type"), "abort");
  EXPECT_EQ(json::parse(done.body).at("reason"), "reconfigure_successful");
  d = rest("GET", "/api/diagnostics/config_entry/" + id);
  EXPECT_EQ(json::parse(d.body).at("data").at("entry").at("data").at("host"), "10.1.1.1");
}

}  // namespace
}  // namespace hamcp::sim
