#include "app/runtime.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace hamcp::app {

namespace {
constexpr std::string_view kInstructions =
    "hamcp controls a Home Assistant home. Find entities by name or area before acting on them; "
    "use the exact entity_id the search returns. Tools that change the home say so in their "
    "annotations (destructiveHint); read-only tools are safe to call freely. When a tool returns "
    "an error, read its message: it names the field at fault and how to fix it.";
}

mcp::ServerOptions make_server_options(const Config& config) {
  mcp::ServerOptions options;
  options.name = "hamcp";
  options.title = "hamcp: Home Assistant MCP server";
  options.version = HAMCP_VERSION;
  options.instructions = std::string(kInstructions);
  return options;
}

void register_tool_families(mcp::Server& server, const Config& config) {
  // Tool families (src/tools/*) register here, e.g. tools::register_states(server.registry(), ...).
}

void configure_logging(std::string_view level) {
  auto logger = spdlog::get("hamcp");
  if (!logger) logger = spdlog::stderr_color_mt("hamcp");
  spdlog::set_default_logger(logger);
  auto parsed = spdlog::level::from_str(std::string(level));
  // from_str maps unknown names to "off"; keep info then.
  if (parsed == spdlog::level::off && level != "off") parsed = spdlog::level::info;
  spdlog::set_level(parsed);
}

Runtime::Runtime(const Config& config)
    : config_(config), server_(io_.get_executor(), make_server_options(config)) {
  register_tool_families(server_, config_);
}

}  // namespace hamcp::app
