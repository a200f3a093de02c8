// ha_get_settings' answer: every row with its value and source, secrets as
// "***" (an unset secret stays empty), the config file and whether it was read.
#include <gtest/gtest.h>

#include "tools/settings/settings_tools.hpp"

namespace hamcp::tools {
namespace {

EffectiveSettings sample() {
  EffectiveSettings s;
  s.config_file = "/data/hamcp.toml";
  s.config_file_read = true;
  s.rows = {{"ha-url", "http://ha:8123", "file", false},
            {"ha-token", "s3cret-token", "env", true},
            {"auth-token", "", "default", true},
            {"log-level", "debug", "flag", false},
            {"port", "8086", "default", false}};
  return s;
}

std::string field(const json::object& view, const char* name, const char* key) {
  return std::string(view.at("settings").as_object().at(name).as_object().at(key).as_string());
}

TEST(SettingsTool, EveryRowWithValueAndSource) {
  const json::object view = settings_view(sample());
  EXPECT_EQ(view.at("config_file").as_string(), "/data/hamcp.toml");
  EXPECT_TRUE(view.at("config_file_read").as_bool());
  EXPECT_EQ(view.at("settings").as_object().size(), 5U);
  EXPECT_EQ(field(view, "ha-url", "value"), "http://ha:8123");
  EXPECT_EQ(field(view, "ha-url", "source"), "file");
  EXPECT_EQ(field(view, "log-level", "source"), "flag");
  EXPECT_EQ(field(view, "port", "source"), "default");
  EXPECT_EQ(field(view, "ha-token", "source"), "env");
}

TEST(SettingsTool, SecretsAreMaskedNeverShown) {
  const json::object view = settings_view(sample());
  EXPECT_EQ(field(view, "ha-token", "value"), "***");
  EXPECT_EQ(field(view, "auth-token", "value"), "");  // unset: nothing to hide
  EXPECT_EQ(json::serialize(view).find("s3cret-token"), std::string::npos);
}

TEST(SettingsTool, NoSettingsAnswersEmpty) {
  const json::object view = settings_view(EffectiveSettings{});
  EXPECT_FALSE(view.at("config_file_read").as_bool());
  EXPECT_TRUE(view.at("settings").as_object().empty());
}

TEST(SettingsTool, SpecIsReadOnly) {
  const ToolSpec spec = make_get_settings_spec(nullptr);
  EXPECT_EQ(spec.name, "ha_get_settings");
  EXPECT_TRUE(spec.annotations.read_only_hint.value_or(false));
}

}  // namespace
}  // namespace hamcp::tools
