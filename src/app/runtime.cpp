#include "app/runtime.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdint>
#include <string_view>

#include "app/home.hpp"
#include "mcp/http/data_dir.hpp"
#include "sim/server/sim_server.hpp"
#include "tools/confirmation.hpp"

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
  options.read_only = config.gov.read_only;
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

Runtime::Runtime(const Config& config) : config_(config), server_(io_.get_executor(), make_server_options(config)) {
  register_tool_families(server_, config_);
  connect_home();
}

Runtime::~Runtime() {
  // Tool handlers (owned by server_, destroyed after home_) share the tool
  // environment: Home::stop() unhooks it from the HA client first.
  if (home_) home_->stop();
  if (demo_sim_) demo_sim_->stop();
}

ha::HaClient* Runtime::ha() { return home_ ? &home_->ha() : nullptr; }

namespace {

// <data dir>/edit-journal/<hash of the HA URL>: one journal per Home
// Assistant. Empty (memory only) for the demo home, which starts afresh each
// run, or when the data dir is unusable (then said once on stderr).
// The directory name is a stable FNV-1a hash of the URL, not a digest: nothing
// depends on it being unguessable, and OpenSSL's digest at start-up maps ~2 MB
// more of libcrypto into an idle hamcp.
std::string url_key(std::string_view url) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : url) h = (h ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

std::filesystem::path journal_dir(const Config& config, const std::string& ha_url) {
  if (config.demo) return {};
  try {
    const std::filesystem::path data = mcp::http::resolve_data_dir(config.mcp.data_dir);
    return data / "edit-journal" / url_key(ha_url);
  } catch (const std::exception& e) {
    spdlog::warn("edit journal kept in memory only: {}", e.what());
    return {};
  }
}

// "a, b," from an environment variable: names without blanks, empties dropped.
std::vector<std::string> trimmed(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    const auto first = name.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    out.push_back(name.substr(first, name.find_last_not_of(" \t") - first + 1));
  }
  return out;
}

}  // namespace

void Runtime::connect_home() {
  ha::ConnectionInput input;
  input.url = config_.ha.url;
  input.token = config_.ha.token;
  input.ca_file = config_.ha.ca_file;
  input.insecure_tls = config_.ha.insecure_tls;
  input.timeout = config_.ha.timeout;
  if (config_.demo) {
    demo_sim_ = std::make_unique<sim::SimServer>(sim::demo_home(), sim::SimServerOptions{"127.0.0.1", 0, "hamcp-demo"});
    try {
      demo_sim_->start();
      input.url = demo_sim_->url();
      input.token = demo_sim_->token();
      spdlog::info("demo: simulated Home Assistant on {}", input.url);
    } catch (const std::exception& e) {
      spdlog::error("demo: cannot start the simulated home: {}", e.what());
    }
  } else {
    ha::fill_from_environment(input);  // SUPERVISOR_TOKEN in an add-on
  }
  HomeOptions options;
  options.tools.journal.dir = journal_dir(config_, input.url);
  options.tools.read_only = config_.gov.read_only;
  options.tools.redact_secrets = config_.gov.redact_secrets;
  tools::set_elicit_confirm(config_.gov.elicit_confirm);
  options.tools.visibility = {trimmed(config_.gov.entities_allow), trimmed(config_.gov.entities_deny),
                              config_.gov.entities_exposed_only};
  if (const std::filesystem::path journal = options.tools.journal.dir; !journal.empty())
    options.tools.audit.file = journal.parent_path().parent_path() / "audit" / (journal.filename().string() + ".jsonl");
  options.filter.disabled = trimmed(config_.gov.disabled_tools);
  options.filter.enabled = trimmed(config_.gov.enabled_tools);
  options.settings = config_.settings;
  home_ = std::make_unique<Home>(io_.get_executor(), input, options);
  home_->register_tools(server_.registry());
  home_->register_resources(server_);
  home_->start();
}

}  // namespace hamcp::app
