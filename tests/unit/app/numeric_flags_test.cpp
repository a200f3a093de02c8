// Numeric flags and environment variables are range-checked with a message
// naming the flag, its variable, the range and a good value; fractions count.
#include "app/numeric_flags.hpp"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <vector>

#include "app/main.hpp"

namespace hamcp::app {
namespace {

std::string error_for(const NumericFlag& flag, const std::string& text) {
  try {
    parse_numeric_flag(flag, text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

TEST(NumericFlags, RejectsWhatNoSaneValueIsNamingFlagRangeAndFix) {
  for (const char* bad : {"-1", "0", "nan", "inf", "-inf", "1e30", "", "abc", "5x", " 5", "0x10", "100000"}) {
    const std::string message = error_for(kSessionIdleHoursFlag, bad);
    ASSERT_FALSE(message.empty()) << "accepted \"" << bad << "\"";
    EXPECT_NE(message.find("--session-idle-hours"), std::string::npos) << message;
    EXPECT_NE(message.find("HAMCP_SESSION_IDLE_HOURS"), std::string::npos) << message;
    EXPECT_NE(message.find("from 0.01 to 87600"), std::string::npos) << message;
    EXPECT_NE(message.find("e.g. --session-idle-hours 720"), std::string::npos) << message;
  }
  for (const char* bad : {"1e30", "0", "-5", "nan", "inf", "3601"}) {
    const std::string message = error_for(kHaTimeoutFlag, bad);
    ASSERT_FALSE(message.empty()) << "accepted --ha-timeout " << bad;
    EXPECT_NE(message.find("--ha-timeout (or HA_TIMEOUT)"), std::string::npos) << message;
  }
  EXPECT_FALSE(error_for(kSimEntitiesFlag, "1e12").empty());
  for (const char* bad : {"70000", "-1", "80.5", "nan"}) {
    try {
      parse_whole_flag(kPortFlag, bad);
      ADD_FAILURE() << "--port " << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--port (or MCP_PORT) must be a port number from 0 to 65535"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(parse_whole_flag(kPortFlag, "8086"), 8086u);
}

TEST(NumericFlags, FractionsAreHonoured) {
  EXPECT_EQ(hours_to_duration(parse_numeric_flag(kSessionIdleHoursFlag, "0.5")), std::chrono::seconds(1800));
  EXPECT_EQ(hours_to_duration(parse_numeric_flag(kSessionIdleHoursFlag, "720")), std::chrono::hours(720));
  EXPECT_EQ(seconds_to_duration(parse_numeric_flag(kHaTimeoutFlag, "2.5")), std::chrono::milliseconds(2500));
  EXPECT_EQ(seconds_to_duration(parse_numeric_flag(kHaTimeoutFlag, "3600")), std::chrono::seconds(3600));
}

// Through the real command line: the bad value stops hamcp before it runs
// anything (before the fix, `nan` and `1e30` were taken and doctor ran).
int run_with(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return run(static_cast<int>(argv.size()), argv.data());
}

TEST(NumericFlags, CommandLineAndEnvironmentAreChecked) {
  const int validation = static_cast<int>(CLI::ExitCodes::ValidationError);
  const std::string unreachable = "http://127.0.0.1:1";
  EXPECT_EQ(run_with({"hamcp", "--session-idle-hours", "nan", "doctor", "--ha-url", unreachable}), validation);
  EXPECT_EQ(run_with({"hamcp", "--session-idle-hours", "-1", "doctor", "--ha-url", unreachable}), validation);
  EXPECT_EQ(run_with({"hamcp", "doctor", "--ha-timeout", "1e30", "--ha-url", unreachable}), validation);
  EXPECT_EQ(run_with({"hamcp", "sim", "--entities", "1e30"}), validation);
  EXPECT_EQ(run_with({"hamcp", "sim", "--entities", "2.5"}), validation);
  EXPECT_EQ(run_with({"hamcp", "sim", "--port", "70000"}), validation);
  ::setenv("HAMCP_SESSION_IDLE_HOURS", "inf", 1);
  EXPECT_EQ(run_with({"hamcp", "doctor", "--ha-url", unreachable}), validation);
  ::unsetenv("HAMCP_SESSION_IDLE_HOURS");
}

// Through the real command line into the Config the server is built from.
// The defect: `--session-idle-hours 0.5` became 0 hours, and every session
// expired at once. Checked on the parsed value, not on a helper alone.
Config parsed(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  Config config;
  const auto outcome = parse_command_line(static_cast<int>(argv.size()), argv.data(), config);
  EXPECT_TRUE(std::holds_alternative<Command>(outcome)) << "parsing ended hamcp";
  return config;
}

TEST(NumericFlags, FractionalSessionIdleHoursReachTheConfig) {
  EXPECT_EQ(parsed({"hamcp", "--http", "--session-idle-hours", "0.5"}).mcp.session_idle_expiry,
            std::chrono::seconds(1800));
  EXPECT_EQ(parsed({"hamcp", "--session-idle-hours", "0.01"}).mcp.session_idle_expiry, std::chrono::seconds(36));
  EXPECT_EQ(parsed({"hamcp", "doctor", "--ha-timeout", "2.5"}).ha.timeout, std::chrono::milliseconds(2500));
  ::setenv("HAMCP_SESSION_IDLE_HOURS", "1.25", 1);
  EXPECT_EQ(parsed({"hamcp"}).mcp.session_idle_expiry, std::chrono::seconds(4500));
  ::unsetenv("HAMCP_SESSION_IDLE_HOURS");
  EXPECT_EQ(parsed({"hamcp"}).mcp.session_idle_expiry, std::chrono::hours(720));
}

}  // namespace
}  // namespace hamcp::app
