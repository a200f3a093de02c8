#include "app/config_file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string_view>

#include "common/join.hpp"

namespace hamcp::app {
namespace {

namespace fs = std::filesystem;

bool is_secret(const std::string& name) { return name == "ha-token" || name == "auth-token"; }

bool env_set(const CLI::Option& opt) {
  const std::string& name = opt.get_envname();
  if (name.empty()) return false;
  const char* value = std::getenv(name.c_str());
  return value != nullptr && *value != '\0';  // CLI11 ignores empty variables too
}

// Options a user sets: top-level ones with a long name, except help, version and --config.
bool is_setting(const CLI::Option& opt) {
  if (opt.get_lnames().empty() || !opt.get_configurable()) return false;
  const std::string& name = opt.get_lnames().front();
  return name != "help" && name != "version" && name != "config";
}

// CLI11's TOML reader, with hamcp's checks and the env-over-file precedence.
class HamcpConfigReader : public CLI::ConfigTOML {
 public:
  HamcpConfigReader(const CLI::App* app, std::shared_ptr<ConfigFileState> state)
      : app_(app), state_(std::move(state)) {}

  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override {
    const std::string file = app_->get_config_ptr()->as<std::string>();
    std::vector<CLI::ConfigItem> kept;
    for (CLI::ConfigItem& item : CLI::ConfigTOML::from_config(input)) {
      if (item.name == "++" || item.name == "--" || !item.parents.empty())
        throw CLI::ConfigError("unknown section '" + (item.parents.empty() ? item.name : item.parents.front()) +
                               "' in config file " + file +
                               ": hamcp reads top-level keys only (e.g. ha-url = \"http://localhost:8123\")");
      const CLI::Option* opt = app_->get_option_no_throw("--" + item.name);
      if (opt == nullptr || !is_setting(*opt))
        throw CLI::ConfigError("unknown key '" + item.name + "' in config file " + file +
                               ": keys are the long flag names of `hamcp --help` without '--'");
      const bool has_value = std::any_of(item.inputs.begin(), item.inputs.end(), [](auto& in) { return !in.empty(); });
      if (is_secret(item.name) && has_value) check_secret_file_mode(file, item.name);
      if (opt->count() > 0 || env_set(*opt)) continue;  // the command line or the environment wins
      state_->from_file.insert(item.name);
      kept.push_back(std::move(item));
    }
    state_->path_read = file;
    return kept;
  }

 private:
  const CLI::App* app_;
  std::shared_ptr<ConfigFileState> state_;
};

// Defaults of the options CLI11 cannot print (flags, parsed-by-function numbers).
std::string builtin_default(const std::string& name) {
  static const std::map<std::string, std::string, std::less<>> kDefaults = {{"ha-timeout", "30"},
                                                                            {"port", "8086"},
                                                                            {"session-idle-hours", "720"},
                                                                            {"redact-secrets", "true"},
                                                                            {"elicit-confirm", "true"}};
  if (auto it = kDefaults.find(name); it != kDefaults.end()) return it->second;
  return "";
}

std::string effective_value(CLI::Option& opt, const std::string& name) {
  if (opt.get_expected_min() == 0) {  // a flag
    if (opt.count() == 0) return builtin_default(name).empty() ? "false" : builtin_default(name);
    return opt.as<bool>() ? "true" : "false";
  }
  if (opt.count() > 0) return join(opt.results(), ",");
  // Not set: the bound variable still holds its default (CLI11 prints it on request).
  opt.capture_default_str();
  std::string value = opt.get_default_str();
  if (value == "[]") value.clear();
  return value.empty() ? builtin_default(name) : value;
}

bool is_number(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos &&
         std::count(text.begin(), text.end(), '.') <= 1;  // not an address like 127.0.0.1
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// One value as TOML: flags and numbers bare, lists as arrays, the rest quoted.
std::string toml_value(CLI::Option& opt, const std::string& value) {
  if (opt.get_expected_min() == 0 || is_number(value)) return value;
  if (opt.get_expected_max() > 1) {
    std::string out = "[";
    std::size_t start = 0;
    while (!value.empty() && start <= value.size()) {
      const std::size_t comma = std::min(value.find(',', start), value.size());
      out += (out.size() > 1 ? ", " : "") + quoted(value.substr(start, comma - start));
      start = comma + 1;
    }
    return out + "]";
  }
  return quoted(value);
}

}  // namespace

std::string example_config(CLI::App& app) {
  std::string out =
      "# hamcp.toml: put it in the data dir (or name it with --config / HAMCP_CONFIG).\n"
      "# Precedence: flag > environment variable > this file > default. Uncomment what you set.\n"
      "# A token here needs chmod 600 on this file.\n\n";
  for (CLI::Option* opt : app.get_options([](CLI::Option* o) { return is_setting(*o); })) {
    const std::string& name = opt->get_lnames().front();
    const std::string value = is_secret(name) ? "" : effective_value(*opt, name);  // never a secret
    out += "# " + opt->get_description() + "\n# " + name + " = " + toml_value(*opt, value) + "\n\n";
  }
  return out;
}

std::string default_config_path(int argc, char** argv) {
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--data-dir" && i + 1 < argc) dir = argv[i + 1];
    if (arg.rfind("--data-dir=", 0) == 0) dir = std::string(arg.substr(11));
  }
  if (dir.empty())
    if (const char* env = std::getenv("HAMCP_DATA_DIR"); env != nullptr) dir = env;
  fs::path base = dir;
  if (dir.empty()) {  // the default data dir, as mcp::http::resolve_data_dir picks it
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg != '\0')
      base = fs::path(xdg) / "hamcp";
    else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
      base = fs::path(home) / ".local" / "state" / "hamcp";
    else
      return "";
  }
  return (base / "hamcp.toml").string();
}

std::shared_ptr<ConfigFileState> add_config_file(CLI::App& app, std::string default_path) {
  auto state = std::make_shared<ConfigFileState>();
  state->default_path = default_path;
  // CLI11 2.1 reads the config file before the environment, so HAMCP_CONFIG is
  // applied here; a file named this way must exist (like --config FILE).
  const char* named = std::getenv("HAMCP_CONFIG");
  const bool env_named = named != nullptr && *named != '\0';
  if (env_named) default_path = named;
  CLI::Option* opt = app.set_config("--config", std::move(default_path),
                                    "TOML file of settings (default <data dir>/hamcp.toml if present); keys are "
                                    "the long flag names, e.g. ha-url = \"http://ha:8123\". Precedence: flag > env "
                                    "> file > default");
  opt->envname("HAMCP_CONFIG");
  if (env_named) opt->required();
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.config_formatter(std::make_shared<HamcpConfigReader>(&app, state));
  return state;
}

tools::EffectiveSettings effective_settings(CLI::App& app, const ConfigFileState& state) {
  tools::EffectiveSettings out;
  out.config_file = state.path_read.empty() ? state.default_path : state.path_read;
  out.config_file_read = !state.path_read.empty();
  const std::vector<CLI::Option*>& order = app.parse_order();
  for (CLI::Option* opt : app.get_options([](CLI::Option* o) { return is_setting(*o); })) {
    const std::string& name = opt->get_lnames().front();
    tools::SettingRow row{name, effective_value(*opt, name), "default", is_secret(name)};
    if (std::find(order.begin(), order.end(), opt) != order.end())
      row.source = "flag";
    else if (state.from_file.count(name) != 0)
      row.source = "file";
    else if (opt->count() > 0)
      row.source = "env";
    out.rows.push_back(std::move(row));
  }
  return out;
}

void check_secret_file_mode(const std::string& path, const std::string& key) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return;  // CLI11 has just read it; nothing more to check
  if ((info.st_mode & (S_IRGRP | S_IROTH | S_IWGRP | S_IWOTH)) == 0) return;
  throw CLI::ConfigError("config file " + path + " holds a secret (" + key +
                         ") but other users can read it; fix: chmod 600 " + path);
}

}  // namespace hamcp::app
