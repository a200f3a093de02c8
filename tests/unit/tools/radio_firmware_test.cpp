// ha_manage_radio firmware_update (zigbee, zwave, matter) against the demo
// sim: the device's update entity is installed (its state shows the install
// started), an up-to-date device installs nothing, a device without an update
// entity is named.
#include "unit/tools/radio_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class RadioFirmwareTest : public RadioTest {
 protected:
  CallResult firmware(const char* radio, const std::string& device, const std::string& params = "{}") {
    return call("ha_manage_radio", std::string(R"({"radio":")") + radio +
                                       R"(","action":"firmware_update","device_id":")" + device + R"(","params":)" +
                                       params + "}");
  }
};

TEST_F(RadioFirmwareTest, InstallsThroughTheDevicesUpdateEntity) {
  start();
  CallResult zigbee = firmware("zigbee", device_named("Desk Lamp Plug"));
  ASSERT_FALSE(zigbee.is_error) << zigbee.text;
  EXPECT_TRUE(zigbee.structured.at("done").as_bool());
  EXPECT_EQ(zigbee.structured.at("installing"), "0x02040062");
  const std::string entity(zigbee.structured.at("entity_id").as_string());
  EXPECT_EQ(attribute(entity, "in_progress"), true) << entity;

  CallResult matter = firmware("matter", device_named("Living Room Matter Plug"));
  ASSERT_FALSE(matter.is_error) << matter.text;
  EXPECT_EQ(matter.structured.at("installing"), "1.3.0");
}

TEST_F(RadioFirmwareTest, UpToDateOrWithoutUpdateEntityInstallsNothing) {
  start();
  CallResult current = firmware("zwave", device_named("Basement Dimmer"));
  ASSERT_FALSE(current.is_error) << current.text;
  EXPECT_FALSE(current.structured.at("done").as_bool());
  EXPECT_TRUE(current.structured.at("up_to_date").as_bool());
  EXPECT_EQ(attribute(std::string(current.structured.at("entity_id").as_string()), "in_progress"), false);

  CallResult none = firmware("zwave", device_named("Garage Siren"));
  EXPECT_EQ(none.code(), "no_firmware_update") << none.text;
  EXPECT_NE(none.text.find("Garage Siren"), std::string::npos) << none.text;
  CallResult wrong_radio = firmware("matter", device_named("Desk Lamp Plug"));
  EXPECT_NE(wrong_radio.text.find("not a Matter device"), std::string::npos) << wrong_radio.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
