#include "tools/write_outcome.hpp"

namespace hamcp::tools {

bool outcome_unknown(const ha::HaError& e) {
  return e.cause == ha::ErrorCause::timeout || e.cause == ha::ErrorCause::connection_lost ||
         e.cause == ha::ErrorCause::protocol_error;
}

ToolError unknown_outcome(const ha::HaError& e, std::string_view what, std::string check) {
  ToolError err = from_ha_error(e);
  err.code = "write_outcome_unknown";
  err.message = "No clear answer from Home Assistant to " + std::string(what) + " (" + err.message +
                "); it may or may not have been applied. hamcp never retries a write.";
  err.suggestion = std::move(check);
  err.extra["written"] = "unknown";
  return err;
}

}  // namespace hamcp::tools
