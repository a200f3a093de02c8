// Tool filters (issue 14): switched-off tools and families leave tools/list,
// and a call under any of their names answers tool_disabled.

#include "tools/gate/tool_filter.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class ToolFilterTest : public ToolsTest {
 protected:
  std::set<std::string> listed() {
    std::set<std::string> names;
    const json::object listing = list_tools();  // named: a range-for over a temporary's member dangles
    for (const auto& t : listing.at("result").at("tools").as_array()) names.emplace(t.at("name").as_string());
    return names;
  }
};

TEST_F(ToolFilterTest, DisabledToolsFamiliesAndHaMcpNamesLeaveTheCatalogue) {
  filter.disabled = {"helpers", "ha_call_service", "ha_config_get_automation"};
  start();
  const auto names = listed();
  EXPECT_FALSE(names.count("ha_call_service"));
  EXPECT_FALSE(names.count("ha_config_get"));  // ha-mcp's name maps to the hamcp tool
  EXPECT_FALSE(names.count("ha_config_list_helpers"));
  EXPECT_FALSE(names.count("ha_config_set_group"));
  EXPECT_TRUE(names.count("ha_search"));
  EXPECT_TRUE(names.count("ha_config_set"));

  const CallResult by_name = call("ha_call_service", R"({"domain":"light","service":"turn_on"})");
  EXPECT_EQ(by_name.code(), "tool_disabled") << by_name.text;
  EXPECT_NE(by_name.text.find("ha_call_service"), std::string::npos);
  const CallResult by_alias = call("ha_config_get_script", R"({"script_id":"x"})");
  EXPECT_EQ(by_alias.code(), "tool_disabled") << by_alias.text;
  const CallResult still = call("ha_search", R"({"query":"kitchen"})");
  EXPECT_FALSE(still.is_error) << still.text;
}

TEST_F(ToolFilterTest, EnabledListKeepsOnlyWhatItNames) {
  filter.enabled = {"ha_search", "ha_get_state"};
  start();
  EXPECT_EQ(listed(), (std::set<std::string>{"ha_search", "ha_get_state"}));
  EXPECT_EQ(call("ha_get_overview").code(), "tool_disabled");
}

TEST(ToolFilter, UnknownNameIsRefusedWithTheFix) {
  mcp::Registry registry;
  ToolFilter filter;
  filter.disabled = {"ha_no_such_tool"};
  try {
    apply_tool_filter(registry, {{"entities", {}}}, filter);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ha_no_such_tool"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("entities"), std::string::npos);
  }
}

}  // namespace
}  // namespace hamcp::tools::testing
