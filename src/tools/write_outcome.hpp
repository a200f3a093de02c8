#pragma once
// The one answer to a write Home Assistant never confirmed. hamcp sends a write
// once; when the answer is lost (timeout, dropped connection, garbled reply) HA
// may have applied it, so the error says "unknown" and names the read that
// tells, never "failed".

#include <string>
#include <string_view>

#include "ha/errors.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

// True when HA may have applied a write it did not confirm.
bool outcome_unknown(const ha::HaError& e);

// write_outcome_unknown: "No clear answer from Home Assistant to `what` (…); it may or may not
// have been applied. hamcp never retries a write." with `check` (the read that tells) as the
// suggestion and written="unknown".
ToolError unknown_outcome(const ha::HaError& e, std::string_view what, std::string check);

}  // namespace hamcp::tools
