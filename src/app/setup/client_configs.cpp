#include "app/setup/client_configs.hpp"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cstdio>
#include <stdexcept>

#include "app/setup/config_text.hpp"

namespace hamcp::app::setup {
namespace {

namespace json = boost::json;

// The environment variable Codex reads the bearer token from: Codex refuses an inline token.
constexpr std::string_view kCodexTokenVariable = "HAMCP_AUTH_TOKEN";
// mcp-remote takes headers as arguments; the secret goes through its environment instead, so it
// is not visible in the process list.
constexpr std::string_view kBridgeHeaderVariable = "HAMCP_AUTH_HEADER";

bool is_demo(const Target& target) { return std::ranges::find(target.args, "--demo") != target.args.end(); }

std::string ha_url_or_placeholder(const Target& target) {
  return target.ha_url.empty() ? std::string(kHaUrlPlaceholder) : target.ha_url;
}

std::string ha_token_or(const Target& target, std::string_view fallback) {
  return target.ha_token.empty() ? std::string(fallback) : target.ha_token;
}

json::array to_array(const std::vector<std::string>& items) {
  json::array out;
  for (const std::string& item : items) out.emplace_back(item);
  return out;
}

// {"command", "args", "env"}: the shape Claude Desktop, Cursor and most clients share.
json::object stdio_entry(const Target& target, std::string_view token_value) {
  json::object entry;
  entry["command"] = target.command;
  entry["args"] = to_array(target.args);
  if (!is_demo(target)) {
    entry["env"] =
        json::object{{"HOMEASSISTANT_URL", ha_url_or_placeholder(target)}, {"HOMEASSISTANT_TOKEN", token_value}};
  }
  return entry;
}

json::object http_entry(const Target& target) {
  json::object entry{{"url", target.url}};
  if (!target.bearer.empty()) entry["headers"] = json::object{{"Authorization", "Bearer " + target.bearer}};
  return entry;
}

// "type" first: it is what a reader of the file looks for first.
json::object typed(std::string_view type, const json::object& entry) {
  json::object out{{"type", type}};
  for (const auto& member : entry) out[member.key()] = member.value();
  return out;
}

bool is_loopback_url(std::string_view url) {
  for (std::string_view host : {"://127.0.0.1", "://localhost", "://[::1]"}) {
    if (url.find(host) != std::string_view::npos) return true;
  }
  return false;
}

// Claude Desktop's config file starts only local processes; mcp-remote (npm) bridges to HTTP.
json::object bridge_entry(const Target& target) {
  json::array args{"-y", "mcp-remote", target.url};
  if (url_scheme_is_http(target.url) && !is_loopback_url(target.url)) args.emplace_back("--allow-http");
  if (!target.bearer.empty()) {
    args.emplace_back("--header");
    args.emplace_back("Authorization:${" + std::string(kBridgeHeaderVariable) + "}");
  }
  json::object entry{{"command", "npx"}, {"args", std::move(args)}};
  if (!target.bearer.empty()) entry["env"] = json::object{{kBridgeHeaderVariable, "Bearer " + target.bearer}};
  return entry;
}

void add_stdio_notes(const Target& target, ClientConfig& out) {
  if (is_demo(target)) return;
  if (target.ha_url.empty())
    out.notes.emplace_back("Put your Home Assistant URL in HOMEASSISTANT_URL (or pass --ha-url).");
  if (target.ha_token.empty() && out.text.find(kHaTokenPlaceholder) != std::string::npos) {
    out.notes.emplace_back(
        "Put a long-lived access token (HA: your profile > Security) in HOMEASSISTANT_TOKEN, or pass --ha-token.");
  }
}

ClientConfig json_client(std::string servers_key, json::object entry, const Target& target) {
  ClientConfig out;
  out.servers_key = std::move(servers_key);
  out.entry = std::move(entry);
  json::object servers{{target.name, out.entry}};
  json::object root{{out.servers_key, std::move(servers)}};
  out.text = pretty_json(root);
  return out;
}

ClientConfig claude_desktop(const Target& target) {
  json::object entry =
      target.http ? bridge_entry(target) : stdio_entry(target, ha_token_or(target, kHaTokenPlaceholder));
  ClientConfig out = json_client("mcpServers", std::move(entry), target);
#ifdef __APPLE__
  out.file = "Library/Application Support/Claude/claude_desktop_config.json";
#else
  out.file = ".config/Claude/claude_desktop_config.json";
#endif
  out.notes.emplace_back(
      "Claude Desktop reads claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, "
      "Windows: %APPDATA%\\Claude\\); restart it afterwards.");
  if (target.http)
    out.notes.emplace_back("Over HTTP Claude Desktop goes through the mcp-remote bridge (needs Node.js).");
  return out;
}

ClientConfig cursor(const Target& target) {
  json::object entry = target.http ? http_entry(target) : stdio_entry(target, ha_token_or(target, kHaTokenPlaceholder));
  ClientConfig out = json_client("mcpServers", std::move(entry), target);
  out.file = ".cursor/mcp.json";
  out.notes.emplace_back("Cursor reads ~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project).");
  return out;
}

ClientConfig generic(const Target& target) {
  json::object entry = target.http ? http_entry(target) : stdio_entry(target, ha_token_or(target, kHaTokenPlaceholder));
  if (target.http) entry = typed("streamable-http", entry);
  ClientConfig out = json_client("mcpServers", std::move(entry), target);
  out.servers_key.clear();  // no file of its own to write
  out.notes.emplace_back(target.http ? "Any MCP client: Streamable HTTP at the url, with the headers shown."
                                     : "Any MCP client: start the command with this environment over stdio.");
  return out;
}

// VS Code asks for the token when it starts the server (stored in its secret storage) rather than
// keeping it in a workspace file that may be committed.
ClientConfig vscode(const Target& target) {
  constexpr std::string_view kPrompt = "${input:ha-token}";
  json::object entry = target.http ? http_entry(target) : stdio_entry(target, ha_token_or(target, kPrompt));
  entry = typed(target.http ? "http" : "stdio", entry);
  ClientConfig out = json_client("servers", std::move(entry), target);
  if (!target.http && !is_demo(target) && target.ha_token.empty()) {
    out.inputs.emplace_back(json::object{{"type", "promptString"},
                                         {"id", "ha-token"},
                                         {"description", "Home Assistant long-lived access token"},
                                         {"password", true}});
    json::object root{{"inputs", out.inputs}, {"servers", json::object{{target.name, out.entry}}}};
    out.text = pretty_json(root);
  }
  out.file = "./.vscode/mcp.json";
  out.notes.emplace_back("VS Code reads .vscode/mcp.json in the workspace (or the user profile's mcp.json).");
  return out;
}

ClientConfig claude_code(const Target& target) {
  std::vector<std::string> words{"claude", "mcp", "add", "--scope", "user", "--transport"};
  ClientConfig out;
  out.format = Format::shell;
  if (target.http) {
    words.insert(words.end(), {"http", target.name, target.url});
    if (!target.bearer.empty()) words.insert(words.end(), {"--header", "Authorization: Bearer " + target.bearer});
  } else {
    words.insert(words.end(), {"stdio", target.name});
    if (!is_demo(target)) {
      words.insert(words.end(), {"--env", "HOMEASSISTANT_URL=" + ha_url_or_placeholder(target), "--env",
                                 "HOMEASSISTANT_TOKEN=" + ha_token_or(target, kHaTokenPlaceholder)});
    }
    words.insert(words.end(), {"--", target.command});
    words.insert(words.end(), target.args.begin(), target.args.end());
  }
  out.text = shell_command(words) + "\n";
  out.notes.emplace_back("Run this once; Claude Code keeps it in ~/.claude.json (--scope project: .mcp.json).");
  return out;
}

ClientConfig codex(const Target& target) {
  ClientConfig out;
  out.format = Format::toml;
  std::string table = "[mcp_servers." + toml_key(target.name) + "]\n";
  if (target.http) {
    table += "url = " + toml_string(target.url) + "\n";
    if (!target.bearer.empty()) {
      table += "bearer_token_env_var = " + toml_string(kCodexTokenVariable) + "\n";
      out.notes.emplace_back("Codex reads the token from the environment: export " + std::string(kCodexTokenVariable) +
                             "=<the token> before starting Codex.");
    }
  } else {
    table += "command = " + toml_string(target.command) + "\n";
    table += "args = " + toml_array(target.args) + "\n";
    if (!is_demo(target)) {
      table += "env = { HOMEASSISTANT_URL = " + toml_string(ha_url_or_placeholder(target)) +
               ", HOMEASSISTANT_TOKEN = " + toml_string(ha_token_or(target, kHaTokenPlaceholder)) + " }\n";
    }
  }
  out.text = table;
  out.notes.emplace_back("Codex reads ~/.codex/config.toml (or .codex/config.toml in a trusted project).");
  return out;
}

struct Client {
  std::string_view name;
  ClientConfig (*render)(const Target&);
};

constexpr Client kClients[] = {
    {"claude-desktop", claude_desktop},
    {"claude-code", claude_code},
    {"cursor", cursor},
    {"vscode", vscode},
    {"codex", codex},
    {"generic", generic},
};

}  // namespace

const std::vector<std::string_view>& client_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const Client& client : kClients) out.push_back(client.name);
    return out;
  }();
  return names;
}

ClientConfig render(std::string_view client, const Target& target) {
  for (const Client& known : kClients) {
    if (known.name != client) continue;
    ClientConfig out = known.render(target);
    if (!target.http) add_stdio_notes(target, out);
    return out;
  }
  std::string names;
  for (std::string_view name : client_names()) names += (names.empty() ? "" : ", ") + std::string(name);
  throw std::invalid_argument("unknown client '" + std::string(client) + "': choose one of " + names);
}

}  // namespace hamcp::app::setup
