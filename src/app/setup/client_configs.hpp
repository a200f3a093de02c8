#pragma once
// `hamcp setup <client>`: the configuration each MCP client needs to start or reach hamcp, in the
// client's own format (JSON, TOML or the client's own CLI command). Pure: no I/O, so every client's
// output is unit-tested; reading tokens and writing files live in setup_command.cpp.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::app::setup {

// What the client should start (stdio) or reach (HTTP).
struct Target {
  std::string name = "hamcp";     // the server's name in the client's list
  bool http = false;              // Streamable HTTP instead of a stdio child process
  std::string command;            // stdio: absolute path of the hamcp binary
  std::vector<std::string> args;  // stdio: e.g. {"--demo"}
  std::string ha_url;             // stdio: handed to hamcp as HOMEASSISTANT_URL (empty: not set)
  std::string ha_token;           // stdio: HOMEASSISTANT_TOKEN (empty: a placeholder, or VS Code asks)
  std::string url;                // HTTP: the MCP endpoint, e.g. http://127.0.0.1:8086/mcp
  std::string bearer;             // HTTP: the token clients send (empty: none, loopback)
};

enum class Format { json, toml, shell };

struct ClientConfig {
  Format format = Format::json;
  std::string text;                // what `hamcp setup` prints on stdout
  std::vector<std::string> notes;  // where it goes and what to do next (stderr)
  // --write, JSON clients only: `entry` goes to `<servers_key>.<name>` of `file` (and `inputs`,
  // VS Code's secret prompts, to its "inputs"). An empty servers_key: this client cannot be written.
  std::string servers_key;
  boost::json::object entry;
  boost::json::array inputs;
  std::filesystem::path file;  // relative paths are relative to the home directory, "./" to the cwd
};

// The clients `hamcp setup` knows, in the order help lists them.
const std::vector<std::string_view>& client_names();

// The configuration of `client` for `target`. Throws std::invalid_argument naming the client and
// the known ones when `client` is unknown.
ClientConfig render(std::string_view client, const Target& target);

// Placeholders used where the user gave no value (the notes say what to put there).
inline constexpr std::string_view kHaTokenPlaceholder = "<Home Assistant long-lived access token>";
inline constexpr std::string_view kHaUrlPlaceholder = "<Home Assistant URL, e.g. http://homeassistant.local:8123>";

}  // namespace hamcp::app::setup
