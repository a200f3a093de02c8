#pragma once
// ISO 8601 timestamps as Home Assistant writes them, both ways. One implementation for the HA
// client (states, history, logbook), the tools' time arguments and the simulator.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hamcp::common {

// Seconds since the Unix epoch -> "2026-01-01T12:00:00.123456+00:00" (HA's isoformat of an aware
// UTC datetime). Any double is accepted: values outside years 1..9999 clamp to them, NaN is the
// epoch (HA, or a tool argument, may carry 1e300; casting that to time_t is undefined).
std::string format_iso_time(double epoch_seconds);

// Parses "YYYY-MM-DD" alone, or followed by 'T' or ' ' and "hh:mm", optional ":ss", optional
// fraction, and an optional zone: 'Z', "+hh:mm", "+hhmm" or "+hh" (or '-'). No zone means UTC.
// nullopt for anything else, including trailing text and out-of-range fields.
std::optional<double> parse_iso_time(std::string_view text);

// Wall-clock now, in the same unit.
double now_epoch_seconds();

// Wall-clock now in whole seconds (session and revocation records store these).
std::int64_t now_unix_seconds();

}  // namespace hamcp::common
