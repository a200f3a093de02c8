#pragma once
// hamcp's config file: <data dir>/hamcp.toml when present, or the file named by
// --config / HAMCP_CONFIG. Read by CLI11's own TOML reader; this file adds what
// hamcp needs on top of it:
//   * precedence flag > env > file > default (CLI11 2.1 lets a file beat the
//     environment: file keys whose variable is set are dropped before CLI11 applies them);
//   * an unknown key is an error naming the key and the file (no typo ignored);
//   * a token in a file readable by group or others is refused ("chmod 600 FILE");
//   * where each setting came from, for ha_get_settings.

#include <CLI/CLI.hpp>
#include <memory>
#include <set>
#include <string>

#include "tools/settings/effective_settings.hpp"

namespace hamcp::app {

// What the config file reader saw during one parse.
struct ConfigFileState {
  std::string default_path;         // <data dir>/hamcp.toml
  std::string path_read;            // the file actually read (empty: none)
  std::set<std::string> from_file;  // option names whose value came from the file
};

// <data dir>/hamcp.toml, the data dir taken from --data-dir in argv, else
// HAMCP_DATA_DIR, else the default data dir (as mcp::http::resolve_data_dir; never created here).
std::string default_config_path(int argc, char** argv);

// Adds --config FILE (env HAMCP_CONFIG) and the reader above to `app` (call
// after every option is added, before parse).
std::shared_ptr<ConfigFileState> add_config_file(CLI::App& app, std::string default_path);

// After a successful parse: every top-level setting with its effective value and source.
tools::EffectiveSettings effective_settings(CLI::App& app, const ConfigFileState& state);

// `hamcp config`: every setting commented out with its description and current
// value (env and file included; tokens always empty), ready to edit into hamcp.toml.
std::string example_config(CLI::App& app);

// Throws CLI::ConfigError (naming the file and the fix) when `path` is readable by group or others.
void check_secret_file_mode(const std::string& path, const std::string& key);

}  // namespace hamcp::app
