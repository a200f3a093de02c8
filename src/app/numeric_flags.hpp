#pragma once
// Numbers from the command line and the environment, range-checked. A cast of
// an unchecked double used to turn `--session-idle-hours 0.5` into 0 (every
// session expired at once) and `--ha-timeout 1e30` into an overflowed,
// negative timeout (every request failed at once); nan, inf and -1 passed too.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace hamcp::app {

struct NumericFlag {
  std::string_view flag;  // "--ha-timeout"
  std::string_view env;   // "HA_TIMEOUT" ("" if none)
  std::string_view what;  // "a number of seconds"
  double min = 0;
  double max = 0;
  std::string_view example;  // a good value, e.g. "30"
};

inline constexpr NumericFlag kHaTimeoutFlag{"--ha-timeout", "HA_TIMEOUT", "a number of seconds", 0.1, 3600, "30"};
inline constexpr NumericFlag kSessionIdleHoursFlag{
    "--session-idle-hours", "HAMCP_SESSION_IDLE_HOURS", "a number of hours", 0.01, 87600, "720"};
inline constexpr NumericFlag kSimRestartGapFlag{
    "--restart-gap-ms", "", "a whole number of milliseconds", 0, 600000, "3000"};
inline constexpr NumericFlag kSimEntitiesFlag{"--entities", "", "a whole number of entities", 0, 1000000, "10000"};
inline constexpr NumericFlag kPortFlag{"--port", "MCP_PORT", "a port number", 0, 65535, "8086"};
inline constexpr NumericFlag kSimPortFlag{"--port", "", "a port number", 0, 65535, "8123"};

// The number `text` holds when it is a plain finite decimal within the flag's
// range; otherwise throws std::invalid_argument with a message naming the
// flag, its environment variable, the range and an example.
double parse_numeric_flag(const NumericFlag& flag, std::string_view text);
// The same for counts and ports: also refuses fractions ("80.5").
std::uint64_t parse_whole_flag(const NumericFlag& flag, std::string_view text);

// Conversions that keep fractions (0.5 hours = 1800 s).
std::chrono::milliseconds seconds_to_duration(double seconds);
std::chrono::seconds hours_to_duration(double hours);

}  // namespace hamcp::app
