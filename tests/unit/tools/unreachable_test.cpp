// Home Assistant unreachable or misconfigured at start: the server still
// lists its tools, and every call answers with the typed diagnosis
// (explanation + fix) instead of hanging or crashing.
#include <boost/asio/ip/tcp.hpp>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::uint16_t closed_port() {
  // Bind and close: nothing listens there afterwards (loopback only).
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  auto port = a.local_endpoint().port();
  a.close();
  return port;
}

TEST_F(ToolsTest, UnreachableHomeStillListsToolsAndDiagnosesCalls) {
  EntityToolsOptions o;
  o.first_sync_wait = std::chrono::milliseconds(1500);
  start(o, "http://127.0.0.1:" + std::to_string(closed_port()));
  json::object list = list_tools();
  EXPECT_EQ(list.at("result").at("tools").as_array().size(),
            31u);  // entity (14) + config (5) + helper (5) + everyday (7) families

  for (const char* tool : {"ha_search", "ha_get_overview", "ha_get_state"}) {
    CallResult r = call(tool, std::string(tool) == "ha_get_state" ? R"({"entity_id":"light.x"})" : "{}");
    ASSERT_TRUE(r.is_error) << tool;
    const std::string code = r.code();
    EXPECT_TRUE(code == "ha_connection_refused" || code == "ha_not_connected") << tool << ": " << r.text;
    EXPECT_FALSE(r.error().at("suggestion").as_string().empty()) << r.text;
    EXPECT_EQ(r.text.find("unit-token"), std::string::npos) << "token leaked: " << r.text;
  }
  CallResult w = call("ha_call_service", R"({"domain":"light","service":"turn_on"})");
  ASSERT_TRUE(w.is_error);
  EXPECT_EQ(w.code().rfind("ha_", 0), 0u) << w.text;
  CallResult c = call("ha_config_set", R"({"kind":"automation","config":{"alias":"x"}})");
  ASSERT_TRUE(c.is_error);
  EXPECT_EQ(c.code().rfind("ha_", 0), 0u) << c.text;
}

TEST_F(ToolsTest, MissingConfigurationIsDiagnosed) {
  EntityToolsOptions o;
  o.first_sync_wait = std::chrono::milliseconds(200);
  start(o, "not a url");
  CallResult r = call("ha_search", R"({"query":"x"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "ha_invalid_url") << r.text;
  EXPECT_NE(r.error().at("suggestion").as_string().find("HOMEASSISTANT_URL"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
