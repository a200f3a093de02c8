// `hamcp setup <client>`: each client's configuration is valid in its own format, starts or
// reaches hamcp as asked, puts the token where that client expects it, and --write keeps
// everything else in the user's file. (tests/e2e/py/test_setup.py starts the printed configs.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/setup/client_configs.hpp"
#include "app/setup/config_text.hpp"
#include "app/setup/json_config_file.hpp"

namespace hamcp::app::setup {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

Target stdio_target() {
  Target target;
  target.name = "home-assistant";
  target.command = "/usr/bin/hamcp";
  target.ha_url = "http://ha.local:8123";
  target.ha_token = "tok";
  return target;
}

Target http_target(std::string bearer) {
  Target target;
  target.name = "home-assistant";
  target.http = true;
  target.url = "http://10.0.0.5:8086/mcp";
  target.bearer = std::move(bearer);
  return target;
}

json::object server_of(const ClientConfig& config, std::string_view key) {
  return json::parse(config.text).at(key).at("home-assistant").as_object();
}

TEST(Setup, StdioJsonClientsStartHamcpWithTheHaVariables) {
  for (std::string_view client : {"claude-desktop", "cursor", "generic"}) {
    const json::object server = server_of(render(client, stdio_target()), "mcpServers");
    EXPECT_EQ(server.at("command"), "/usr/bin/hamcp") << client;
    EXPECT_EQ(server.at("env").at("HOMEASSISTANT_URL"), "http://ha.local:8123") << client;
    EXPECT_EQ(server.at("env").at("HOMEASSISTANT_TOKEN"), "tok") << client;
  }
}

TEST(Setup, VsCodeAsksForAMissingTokenInsteadOfStoringIt) {
  Target target = stdio_target();
  target.ha_token.clear();
  const ClientConfig config = render("vscode", target);
  const json::value root = json::parse(config.text);
  EXPECT_EQ(root.at("servers").at("home-assistant").at("type"), "stdio");
  EXPECT_EQ(root.at("servers").at("home-assistant").at("env").at("HOMEASSISTANT_TOKEN"), "${input:ha-token}");
  EXPECT_EQ(root.at("inputs").at(0).at("id"), "ha-token");
  EXPECT_EQ(root.at("inputs").at(0).at("password"), true);
}

TEST(Setup, DemoNeedsNoHomeAssistantVariables) {
  Target target = stdio_target();
  target.args = {"--demo"};
  const json::object server = server_of(render("cursor", target), "mcpServers");
  EXPECT_EQ(server.at("args"), json::array{"--demo"});
  EXPECT_FALSE(server.contains("env"));
}

TEST(Setup, MissingValuesArePlaceholdersWithANote) {
  Target target = stdio_target();
  target.ha_token.clear();
  const ClientConfig config = render("cursor", target);
  EXPECT_NE(config.text.find(kHaTokenPlaceholder), std::string::npos);
  bool noted = false;
  for (const std::string& note : config.notes) noted = noted || note.find("--ha-token") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(Setup, HttpClientsSendTheBearerToken) {
  const json::object cursor = server_of(render("cursor", http_target("s3cret")), "mcpServers");
  EXPECT_EQ(cursor.at("url"), "http://10.0.0.5:8086/mcp");
  EXPECT_EQ(cursor.at("headers").at("Authorization"), "Bearer s3cret");
  const json::object vscode = server_of(render("vscode", http_target("s3cret")), "servers");
  EXPECT_EQ(vscode.at("type"), "http");
  EXPECT_EQ(vscode.at("headers").at("Authorization"), "Bearer s3cret");
  EXPECT_FALSE(server_of(render("cursor", http_target("")), "mcpServers").contains("headers"));
}

TEST(Setup, ClaudeDesktopReachesHttpThroughTheBridgeWithTheTokenInItsEnvironment) {
  const json::object server = server_of(render("claude-desktop", http_target("s3cret")), "mcpServers");
  EXPECT_EQ(server.at("command"), "npx");
  const json::array& args = server.at("args").as_array();
  EXPECT_EQ(args.at(1), "mcp-remote");
  EXPECT_EQ(args.at(2), "http://10.0.0.5:8086/mcp");
  EXPECT_NE(std::find(args.begin(), args.end(), json::value("--allow-http")), args.end());  // not loopback
  EXPECT_EQ(server.at("env").at("HAMCP_AUTH_HEADER"), "Bearer s3cret");
  EXPECT_EQ(json::serialize(args).find("s3cret"), std::string::npos);  // not in the process list
}

TEST(Setup, ClaudeCodeIsOneShellCommandWithQuotedWords) {
  Target target = stdio_target();
  target.ha_token = "it's";
  const ClientConfig config = render("claude-code", target);
  EXPECT_EQ(config.format, Format::shell);
  EXPECT_EQ(config.text,
            "claude mcp add --scope user --transport stdio home-assistant --env HOMEASSISTANT_URL=http://ha.local:8123 "
            "--env 'HOMEASSISTANT_TOKEN=it'\\''s' -- /usr/bin/hamcp\n");
  EXPECT_EQ(render("claude-code", http_target("t")).text,
            "claude mcp add --scope user --transport http home-assistant http://10.0.0.5:8086/mcp "
            "--header 'Authorization: Bearer t'\n");
}

TEST(Setup, CodexIsTomlAndTakesTheBearerFromTheEnvironment) {
  const ClientConfig stdio = render("codex", stdio_target());
  EXPECT_EQ(stdio.format, Format::toml);
  EXPECT_EQ(stdio.text,
            "[mcp_servers.home-assistant]\ncommand = \"/usr/bin/hamcp\"\nargs = []\n"
            "env = { HOMEASSISTANT_URL = \"http://ha.local:8123\", HOMEASSISTANT_TOKEN = \"tok\" }\n");
  const ClientConfig http = render("codex", http_target("s3cret"));
  EXPECT_EQ(http.text.find("s3cret"), std::string::npos);  // Codex refuses inline tokens
  EXPECT_NE(http.text.find("bearer_token_env_var = \"HAMCP_AUTH_TOKEN\""), std::string::npos);
}

TEST(Setup, TextEncodersEscapeWhatTheirFormatNeeds) {
  EXPECT_EQ(toml_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000A\"");
  EXPECT_EQ(toml_key("home assistant"), "\"home assistant\"");
  EXPECT_EQ(toml_key("home-assistant"), "home-assistant");
  EXPECT_EQ(shell_command({"a b", "$HOME", "x"}), "'a b' '$HOME' x");
  EXPECT_EQ(pretty_json(json::parse(R"({"a":[1,{}],"b":"\""})")),
            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"\\\"\"\n}\n");
}

TEST(Setup, UnknownClientNamesTheKnownOnes) {
  try {
    render("zed", stdio_target());
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("claude-desktop, claude-code, cursor, vscode, codex, generic"),
              std::string::npos);
  }
}

class SetupWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hamcp-setup-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string read(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  static void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }
  fs::path dir_;
};

TEST_F(SetupWrite, KeepsOtherServersAndKeysAndTheOldFile) {
  const fs::path file = dir_ / "mcp.json";
  const std::string before = R"({"mcpServers": {"other": {"command": "x"}}, "theme": "dark"})";
  write(file, before);
  const ClientConfig config = render("cursor", stdio_target());
  const WriteResult result = merge_into_json_file(file, config.servers_key, "home-assistant", config.entry, {});
  const json::value after = json::parse(read(file));
  EXPECT_EQ(after.at("mcpServers").at("other").at("command"), "x");
  EXPECT_EQ(after.at("theme"), "dark");
  EXPECT_EQ(after.at("mcpServers").at("home-assistant"), config.entry);
  ASSERT_TRUE(result.backup.has_value());
  EXPECT_EQ(read(*result.backup), before);
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_FALSE(result.replaced);
  EXPECT_TRUE(merge_into_json_file(file, config.servers_key, "home-assistant", config.entry, {}).replaced);
}

TEST_F(SetupWrite, CreatesAMissingFileAndItsFolder) {
  const fs::path file = dir_ / "new" / ".vscode" / "mcp.json";
  Target target = stdio_target();
  target.ha_token.clear();
  const ClientConfig config = render("vscode", target);
  EXPECT_TRUE(merge_into_json_file(file, config.servers_key, "home-assistant", config.entry, config.inputs).created);
  EXPECT_EQ(json::parse(read(file)), json::parse(config.text));
  // A second write does not repeat the prompt.
  merge_into_json_file(file, config.servers_key, "home-assistant", config.entry, config.inputs);
  EXPECT_EQ(json::parse(read(file)).at("inputs").as_array().size(), 1U);
}

TEST_F(SetupWrite, RefusesWhatItCannotRewriteFaithfullyAndLeavesItAlone) {
  const ClientConfig config = render("cursor", stdio_target());
  for (const std::string text : {"{\"a\": 1, // mine\n}", "{not json", "[1]", R"({"mcpServers": []})"}) {
    const fs::path file = dir_ / "c.json";
    write(file, text);
    EXPECT_THROW(merge_into_json_file(file, config.servers_key, "home-assistant", config.entry, {}), std::runtime_error)
        << text;
    EXPECT_EQ(read(file), text);
    EXPECT_FALSE(fs::exists(dir_ / "c.json.bak"));
  }
}

}  // namespace
}  // namespace hamcp::app::setup
