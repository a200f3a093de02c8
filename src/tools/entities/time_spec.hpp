#pragma once
// Times as models write them: relative ("24h", "7d", "30m", "2w", "1h30m",
// with or without a leading '-', meaning "that long ago"), "now", ISO 8601
// ("2026-01-01T08:00:00+01:00", "2026-01-01T08:00:00Z", "2026-01-01"; no zone
// = UTC), or epoch seconds.

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "common/iso_time.hpp"

namespace hamcp::tools {

// Epoch seconds (UTC), or a sentence saying what is wrong with `text`.
std::variant<double, std::string> parse_time_spec(std::string_view text, double now_epoch);

// Duration like "24h", "90m", "1h30m", "7d", "2w", "45s" in seconds.
std::optional<double> parse_duration(std::string_view text);

using common::now_epoch_seconds;

class Args;
// The time in argument `key` (a time spec as above, or a number: hours ago); `fallback` when the
// argument is absent. Throws a ToolException naming `key` when it cannot be read.
double time_argument(Args& args, const char* key, const char* fallback, double now);

}  // namespace hamcp::tools
