// ZHA's per-device commands and cluster services in the sim
// (ws_zha_cluster_commands.cpp, core/services_zha.cpp) in HA's shapes:
// zha/devices/reconfigure streams the cluster handlers' messages and never
// answers with a result (an unknown device: unknown_error), the cluster
// services write attributes and issue commands, and refuse an unknown device
// or cluster with HA's ValueError texts; without ZHA the services are unknown.
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim::testing {
namespace {

constexpr char kPlug[] = "84:2e:14:ff:fe:6b:0d:91";

class WsZhaClusterTest : public WsCommandTest {
 protected:
  // Sends msg and returns every frame answering its id (events and results).
  std::vector<json::object> frames(json::object msg) {
    const int64_t id = ++next_id;
    msg["id"] = id;
    out.clear();
    conn->on_message(json::serialize(msg));
    std::vector<json::object> mine;
    for (auto& m : out)
      if (m.as_object().contains("id") && m.at("id") == id) mine.push_back(m.as_object());
    return mine;
  }
  json::object service(const char* name, json::object data) {
    return cmd({{"type", "call_service"}, {"domain", "zha"}, {"service", name}, {"service_data", std::move(data)}});
  }
  json::value read(std::int64_t cluster, std::int64_t attribute, const std::string& ieee = kPlug) {
    return cmd({{"type", "zha/devices/clusters/attributes/value"},
                {"ieee", ieee},
                {"endpoint_id", 1},
                {"cluster_id", cluster},
                {"cluster_type", "in"},
                {"attribute", attribute}})
        .at("result");
  }
  json::object on_off(const std::string& ieee, int command) {
    return service("issue_zigbee_cluster_command", {{"ieee", ieee},
                                                    {"endpoint_id", 1},
                                                    {"cluster_id", 6},
                                                    {"command", command},
                                                    {"command_type", "server"},
                                                    {"params", json::object{}}});
  }
  // A demo ZHA light (a TRADFRI bulb): its IEEE address and light entity.
  std::pair<std::string, std::string> zha_light() {
    Home& home = core.store().home();
    for (const auto& d : home.devices) {
      if (d.identifiers.empty() || d.identifiers.front().first != "zha") continue;
      for (const auto& e : home.entities)
        if (e.device_id == d.id && e.entity_id.rfind("light.", 0) == 0)
          return {d.identifiers.front().second, e.entity_id};
    }
    ADD_FAILURE() << "the demo has no ZHA light";
    return {};
  }
  std::string state_of(const std::string& entity_id) { return core.store().get(entity_id)->state; }
  // state_changed events of entity_id among the frames sent since the last command.
  std::vector<std::string> new_states(const std::string& entity_id) {
    std::vector<std::string> states;
    for (const auto& m : out) {
      const json::object& o = m.as_object();
      if (o.at("type") != "event" || o.at("event").at("event_type") != "state_changed") continue;
      const json::object& data = o.at("event").at("data").as_object();
      if (data.at("entity_id") == entity_id.c_str()) states.emplace_back(data.at("new_state").at("state").as_string());
    }
    return states;
  }
};

TEST_F(WsZhaClusterTest, ReconfigureStreamsEventsWithoutAResult) {
  const std::vector<json::object> got = frames({{"type", "zha/devices/reconfigure"}, {"ieee", kPlug}});
  ASSERT_FALSE(got.empty());
  for (const auto& f : got) EXPECT_EQ(f.at("type"), "event") << json::serialize(f);
  EXPECT_EQ(got.front().at("event").at("type"), "zha_channel_bind");
  EXPECT_EQ(got.front().at("event").at("zha_channel_msg_data").at("cluster_name"), "OnOff");
  EXPECT_EQ(got.back().at("event"), (json::object{{"type", "zha_channel_cfg_done"}}));
  const json::object unknown = cmd({{"type", "zha/devices/reconfigure"}, {"ieee", "00:00:00:00:00:00:00:01"}});
  EXPECT_EQ(code(unknown), "unknown_error");
  EXPECT_EQ(code(cmd({{"type", "zha/devices/reconfigure"}, {"ieee", "nope"}})), "invalid_format");
}

TEST_F(WsZhaClusterTest, ClusterCommandsAreListedWithTheirSchema) {
  const json::object listed = cmd({{"type", "zha/devices/clusters/commands"},
                                   {"ieee", kPlug},
                                   {"endpoint_id", 1},
                                   {"cluster_id", 6},
                                   {"cluster_type", "in"}});
  ASSERT_TRUE(listed.at("success").as_bool()) << json::serialize(listed);
  ASSERT_EQ(listed.at("result").as_array().size(), 3u);
  EXPECT_EQ(listed.at("result").at(2),
            (json::object{{"type", "server"}, {"id", 2}, {"name", "toggle"}, {"schema", json::array{}}}));
}

TEST_F(WsZhaClusterTest, ServicesWriteAttributesAndIssueCommands) {
  const json::object write =
      service("set_zigbee_cluster_attribute",
              {{"ieee", kPlug}, {"endpoint_id", 1}, {"cluster_id", 3}, {"attribute", 0}, {"value", 12}});
  ASSERT_TRUE(write.at("success").as_bool()) << json::serialize(write);
  EXPECT_EQ(read(3, 0), "12");
  const json::object toggle = service("issue_zigbee_cluster_command", {{"ieee", kPlug},
                                                                       {"endpoint_id", 1},
                                                                       {"cluster_id", 6},
                                                                       {"command", 2},
                                                                       {"command_type", "server"},
                                                                       {"params", json::object{}}});
  ASSERT_TRUE(toggle.at("success").as_bool()) << json::serialize(toggle);
  EXPECT_EQ(read(6, 0), "False");
}

// In HA the light entity ZHA made of a device's OnOff cluster follows the
// cluster's on_off (state_changed fires), and turning the entity on or off
// is what a cluster read answers afterwards.
TEST_F(WsZhaClusterTest, OnOffCommandsAndTheLightEntityAreOne) {
  const auto [ieee, light] = zha_light();
  ASSERT_FALSE(light.empty());
  cmd({{"type", "subscribe_events"}, {"event_type", "state_changed"}});
  ASSERT_TRUE(on_off(ieee, 1).at("success").as_bool());  // on
  EXPECT_EQ(state_of(light), "on");
  EXPECT_EQ(read(6, 0, ieee), "True");
  ASSERT_TRUE(on_off(ieee, 0).at("success").as_bool());  // off
  EXPECT_EQ(state_of(light), "off");
  EXPECT_EQ(new_states(light), (std::vector<std::string>{"off"})) << "no state_changed for the light";
  EXPECT_EQ(read(6, 0, ieee), "False");
  ASSERT_TRUE(on_off(ieee, 2).at("success").as_bool());  // toggle
  EXPECT_EQ(state_of(light), "on");
  EXPECT_EQ(new_states(light), (std::vector<std::string>{"on"}));
  const json::object off =
      cmd({{"type", "call_service"}, {"domain", "light"}, {"service", "turn_off"}, {"target", {{"entity_id", light}}}});
  ASSERT_TRUE(off.at("success").as_bool()) << json::serialize(off);
  EXPECT_EQ(read(6, 0, ieee), "False") << "the attribute did not follow the entity";
  const json::object write =
      service("set_zigbee_cluster_attribute",
              {{"ieee", ieee}, {"endpoint_id", 1}, {"cluster_id", 6}, {"attribute", 0}, {"value", 1}});
  ASSERT_TRUE(write.at("success").as_bool()) << json::serialize(write);
  EXPECT_EQ(state_of(light), "on");
}

TEST_F(WsZhaClusterTest, ServicesRefuseAnUnknownDeviceOrClusterAsHaDoes) {
  const json::object no_device = service(
      "set_zigbee_cluster_attribute",
      {{"ieee", "00:00:00:00:00:00:00:01"}, {"endpoint_id", 1}, {"cluster_id", 6}, {"attribute", 0}, {"value", 1}});
  EXPECT_EQ(code(no_device), "unknown_error");
  EXPECT_EQ(message(no_device), "Device with IEEE 00:00:00:00:00:00:00:01 not found");
  const json::object no_cluster =
      service("set_zigbee_cluster_attribute",
              {{"ieee", kPlug}, {"endpoint_id", 1}, {"cluster_id", 8}, {"attribute", 0}, {"value", 1}});
  EXPECT_EQ(code(no_cluster), "unknown_error");
  EXPECT_EQ(message(no_cluster), "Cluster 8 not found on endpoint 1 while writing attribute 0 with value 1");
  const json::object no_args =
      service("issue_zigbee_cluster_command",
              {{"ieee", kPlug}, {"endpoint_id", 1}, {"cluster_id", 6}, {"command", 2}, {"command_type", "server"}});
  EXPECT_EQ(code(no_args), "invalid_format");
  const json::object missing = service("set_zigbee_cluster_attribute", {{"ieee", kPlug}, {"endpoint_id", 1}});
  EXPECT_EQ(code(missing), "invalid_format");
  std::erase_if(core.store().home().config_entries,
                [](const json::object& e) { return e.at("entry").at("domain") == "zha"; });
  const json::object gone =
      service("set_zigbee_cluster_attribute",
              {{"ieee", kPlug}, {"endpoint_id", 1}, {"cluster_id", 6}, {"attribute", 0}, {"value", 1}});
  EXPECT_EQ(code(gone), "not_found");
  EXPECT_EQ(code(cmd({{"type", "zha/devices/reconfigure"}, {"ieee", kPlug}})), "unknown_command");
}

}  // namespace
}  // namespace hamcp::sim::testing
