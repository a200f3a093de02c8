// `hamcp setup <client>`: prints (or, with --write, merges into the client's file) what an MCP
// client needs to start or reach hamcp. The configuration goes to stdout, so it can be piped;
// where it goes and what is still missing go to stderr.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "app/commands.hpp"
#include "app/setup/client_configs.hpp"
#include "app/setup/json_config_file.hpp"

namespace hamcp::app {
namespace {

namespace fs = std::filesystem;

std::string own_executable() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("hamcp") : self.string();
}

// The token `hamcp --http` generated earlier (<data dir>/auth-token), if there is one. Never
// creates it: setup must not change what the server will accept.
std::string generated_token(const McpConfig& mcp) {
  fs::path dir = mcp.data_dir;
  if (dir.empty()) {
    const char* state = std::getenv("XDG_STATE_HOME");
    const char* home = std::getenv("HOME");
    if (state != nullptr && *state != '\0')
      dir = fs::path(state) / "hamcp";
    else if (home != nullptr)
      dir = fs::path(home) / ".local/state/hamcp";
  }
  std::error_code error;
  const fs::path file = dir / "auth-token";
  if (dir.empty() || !fs::is_regular_file(fs::symlink_status(file, error))) return {};
  std::ifstream in(file);
  std::string token;
  std::getline(in, token);
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
  return token;
}

setup::Target make_target(const Config& config) {
  const SetupConfig& wanted = config.setup;
  setup::Target target;
  target.name = wanted.name;
  target.http = wanted.http;
  target.command = wanted.command.empty() ? own_executable() : wanted.command;
  if (wanted.demo) target.args.emplace_back("--demo");
  target.ha_url = config.ha.url;
  target.ha_token = config.ha.token;
  target.url = wanted.url;
  target.bearer = config.mcp.auth_token.empty() ? generated_token(config.mcp) : config.mcp.auth_token;
  return target;
}

fs::path config_file(const SetupConfig& wanted, const fs::path& default_file) {
  if (!wanted.file.empty()) return wanted.file;
  const std::string relative = default_file.string();
  if (relative.starts_with("./")) return fs::current_path() / relative.substr(2);
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') throw std::runtime_error("HOME is not set: pass --file");
  return fs::path(home) / default_file;
}

int write_config(const SetupConfig& wanted, const setup::ClientConfig& client) {
  if (client.servers_key.empty()) {
    std::fprintf(stderr, "hamcp setup: %s has no config file hamcp writes: use the output above\n",
                 wanted.client.c_str());
    return 2;
  }
  for (std::string_view placeholder : {setup::kHaTokenPlaceholder, setup::kHaUrlPlaceholder}) {
    if (client.text.find(placeholder) != std::string::npos) {
      std::fprintf(stderr, "hamcp setup: --write needs real values, not \"%.*s\": pass --ha-url and --ha-token\n",
                   static_cast<int>(placeholder.size()), placeholder.data());
      return 2;
    }
  }
  const fs::path file = config_file(wanted, client.file);
  const setup::WriteResult result =
      setup::merge_into_json_file(file, client.servers_key, wanted.name, client.entry, client.inputs);
  std::fprintf(stderr, "hamcp setup: %s \"%s\" in %s%s%s\n", result.replaced ? "replaced" : "added",
               wanted.name.c_str(), file.c_str(), result.backup ? "; previous file kept as " : "",
               result.backup ? result.backup->c_str() : "");
  return 0;
}

}  // namespace

int run_setup(const Config& config) {
  try {
    const setup::ClientConfig client = setup::render(config.setup.client, make_target(config));
    std::fwrite(client.text.data(), 1, client.text.size(), stdout);
    std::fflush(stdout);
    for (const std::string& note : client.notes) std::fprintf(stderr, "hamcp setup: %s\n", note.c_str());
    return config.setup.write ? write_config(config.setup, client) : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hamcp setup: %s\n", e.what());
    return 2;
  }
}

}  // namespace hamcp::app
