// config/device_registry/remove_config_entry as HA 2026.2 answers it: its
// checks in order with their home_assistant_error texts, the integration's
// refusal while it still provides the device, and a removed device's entities
// leaving the entity registry.
#include <gtest/gtest.h>

#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim {
namespace {

class DeviceRemovalTest : public testing::WsCommandTest {
 protected:
  json::object remove(const std::string& device, const std::string& entry) {
    return cmd(
        {{"type", "config/device_registry/remove_config_entry"}, {"device_id", device}, {"config_entry_id", entry}});
  }
};

TEST_F(DeviceRemovalTest, ChecksRefusalAndRemoval) {
  const Device device = core.store().home().devices.front();
  ASSERT_FALSE(device.config_entries.empty());
  const std::string entry = device.config_entries.front();
  auto r = remove(device.id, "no-such-entry");
  EXPECT_EQ(r.at("error").at("code"), "home_assistant_error");
  EXPECT_EQ(r.at("error").at("message"), "Unknown config entry");
  r = remove("no-such-device", entry);
  EXPECT_EQ(r.at("error").at("message"), "Unknown device");
  r = remove(device.id, entry);
  EXPECT_EQ(r.at("error").at("message"), "Failed to remove device entry, rejected by integration");

  std::size_t owned = 0;
  for (const auto& e : core.store().home().entities) owned += e.device_id == device.id ? 1 : 0;
  ASSERT_GT(owned, 0u);
  core.store().home().devices.front().orphaned = true;
  for (std::size_t i = 1; i < device.config_entries.size(); ++i) remove(device.id, device.config_entries[i]);
  r = remove(device.id, entry);
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_TRUE(r.at("result").is_null());  // the device is gone
  for (const auto& d : core.store().home().devices) EXPECT_NE(d.id, device.id);
  for (const auto& e : core.store().home().entities) EXPECT_NE(e.device_id, device.id);
}

}  // namespace
}  // namespace hamcp::sim
