// The simulator's config entry administration in HA 2026.2's shapes:
// config_entries/get with type_filter, get_single, disable (not_loaded while
// disabled), subentries/list and delete with their not_found texts, the
// diagnostics download, sim_bridge's reconfigure flow (POST .../flow with
// entry_id, the entry's values suggested, abort reconfigure_successful) and its
// "room" subentry flows.
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

// Subentry flows (HA's ConfigSubentryFlowManager): handler [entry_id, type],
// create_entry with the new subentry's unique_id, a duplicate aborted
// already_configured, reconfigure with the subentry's values suggested, and
// the refusals (unknown type 404, a type without reconfigure 400). The list
// shows HA's four keys; the subentry's data stays inside.
TEST_F(ConfigEntryCommands, SubentryFlowsCreateAndReconfigureInHaShapes) {
  const std::string id = bridge();
  const std::string base = "/api/config/config_entries/subentries/flow";
  auto start = rest("POST", base, R"({"handler":[")" + id + R"(","room"]})");
  ASSERT_EQ(start.status, 200) << start.body;
  json::object form = json::parse(start.body).as_object();
  EXPECT_EQ(form.at("type"), "form");
  EXPECT_EQ(form.at("step_id"), "user");
  EXPECT_EQ(form.at("handler").at(1), "room");
  const std::string flow_id(form.at("flow_id").as_string());
  auto refused = rest("POST", base + "/" + flow_id, R"({"sensors":2})");
  EXPECT_EQ(refused.status, 400) << "name is required";
  auto made = rest("POST", base + "/" + flow_id, R"({"name":"Office","sensors":3})");
  ASSERT_EQ(made.status, 200) << made.body;
  json::object created = json::parse(made.body).as_object();
  EXPECT_EQ(created.at("type"), "create_entry");
  EXPECT_EQ(created.at("title"), "Office");
  EXPECT_EQ(created.at("unique_id"), "room-office");
  EXPECT_FALSE(created.contains("data"));

  auto listed = cmd({{"type", "config_entries/subentries/list"}, {"entry_id", id}});
  ASSERT_EQ(listed.at("result").as_array().size(), 3u) << json::serialize(listed);
  std::string office;
  for (const auto& s : listed.at("result").as_array()) {
    EXPECT_EQ(s.as_object().size(), 4u) << json::serialize(s);
    if (s.at("title") == "Office") office = std::string(s.at("subentry_id").as_string());
  }
  ASSERT_FALSE(office.empty());
  auto entry = cmd({{"type", "config_entries/get_single"}, {"entry_id", id}});
  EXPECT_EQ(entry.at("result").at("config_entry").at("num_subentries"), 3);

  auto again = rest("POST", base, R"({"handler":[")" + id + R"(","room"]})");
  const std::string again_id(json::parse(again.body).at("flow_id").as_string());
  auto duplicate = rest("POST", base + "/" + again_id, R"({"name":"Kitchen","sensors":1})");
  EXPECT_EQ(json::parse(duplicate.body).at("reason"), "already_configured") << duplicate.body;

  auto reconf = rest("POST", base, R"({"handler":[")" + id + R"(","room"],"subentry_id":")" + office + R"("})");
  ASSERT_EQ(reconf.status, 200) << reconf.body;
  json::object step = json::parse(reconf.body).as_object();
  EXPECT_EQ(step.at("step_id"), "reconfigure");
  EXPECT_EQ(step.at("data_schema").at(1).at("description").at("suggested_value"), 3) << reconf.body;
  auto done = rest("POST", base + "/" + std::string(step.at("flow_id").as_string()), R"({"name":"Study","sensors":4})");
  EXPECT_EQ(json::parse(done.body).at("reason"), "reconfigure_successful") << done.body;
  listed = cmd({{"type", "config_entries/subentries/list"}, {"entry_id", id}});
  bool renamed = false;
  for (const auto& s : listed.at("result").as_array()) renamed |= s.at("title") == "Study";
  EXPECT_TRUE(renamed);

  EXPECT_EQ(rest("POST", base, R"({"handler":[")" + id + R"(","garage"]})").status, 404);
  EXPECT_EQ(rest("POST", base, R"({"handler":")" + id + R"("})").status, 400);
  EXPECT_EQ(rest("GET", "/api/config/config_entries/flow/" + again_id).status, 404)
      << "a subentry flow is not a config flow";
}

}  // namespace
}  // namespace hamcp::sim
