#pragma once
// Time formats Home Assistant uses on the wire.

#include <optional>
#include <string>
#include <string_view>

#include "sim/home/home_model.hpp"

namespace hamcp::sim {

// "2026-01-01T12:00:00.123456+00:00" (HA's isoformat of an aware UTC datetime).
std::string iso_time(Timestamp t);
// Parses ISO-8601 ("2026-01-01T12:00:00Z", "+00:00", "+02:00", fractional
// seconds, a date alone). nullopt when it is not a timestamp.
std::optional<Timestamp> parse_iso_time(std::string_view text);
// Current wall-clock time.
Timestamp now_timestamp();

}  // namespace hamcp::sim
