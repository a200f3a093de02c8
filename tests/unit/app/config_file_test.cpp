// The config file (<data dir>/hamcp.toml, --config, HAMCP_CONFIG) through the
// real command line: precedence flag > env > file > default, unknown keys and
// readable tokens refused with the file named, and each setting's source.
#include "app/config_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <variant>
#include <vector>

#include "app/main.hpp"

namespace hamcp::app {
namespace {

namespace fs = std::filesystem;

class ConfigFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hamcp-config-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ::setenv("HAMCP_DATA_DIR", dir_.c_str(), 1);
    for (const char* name : {"HOMEASSISTANT_URL", "HOMEASSISTANT_TOKEN", "LOG_LEVEL", "HAMCP_CONFIG", "READ_ONLY_MODE"})
      ::unsetenv(name);
  }
  void TearDown() override {
    ::unsetenv("HAMCP_DATA_DIR");
    ::unsetenv("HOMEASSISTANT_URL");
    ::unsetenv("HAMCP_CONFIG");
    fs::remove_all(dir_);
  }

  fs::path write(const std::string& name, const std::string& text,
                 fs::perms mode = fs::perms::owner_read | fs::perms::owner_write) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    fs::permissions(path, mode);
    return path;
  }

  // Parses `args`; returns the exit code when parsing ended hamcp (stderr in `error`).
  std::variant<Command, int> parse(std::vector<std::string> args, Config& config, std::string* error = nullptr) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    ::testing::internal::CaptureStderr();
    auto outcome = parse_command_line(static_cast<int>(argv.size()), argv.data(), config);
    const std::string err = ::testing::internal::GetCapturedStderr();
    if (error) *error = err;
    return outcome;
  }

  static const tools::SettingRow& row(const Config& config, const std::string& name) {
    for (const auto& r : config.settings->rows)
      if (r.name == name) return r;
    throw std::runtime_error("no setting " + name);
  }

  fs::path dir_;
};

TEST_F(ConfigFileTest, DefaultFileInTheDataDirIsReadAndAttributed) {
  write("hamcp.toml", "ha-url = \"http://file:8123\"\nread-only = true\nentities-deny = [\"lock.*\", \"alarm\"]\n");
  Config config;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp"}, config)));
  EXPECT_EQ(config.ha.url, "http://file:8123");
  EXPECT_TRUE(config.gov.read_only);
  EXPECT_EQ(config.gov.entities_deny, (std::vector<std::string>{"lock.*", "alarm"}));
  ASSERT_TRUE(config.settings);
  EXPECT_TRUE(config.settings->config_file_read);
  EXPECT_EQ(config.settings->config_file, (dir_ / "hamcp.toml").string());
  EXPECT_EQ(row(config, "ha-url").source, "file");
  EXPECT_EQ(row(config, "read-only").value, "true");
  EXPECT_EQ(row(config, "port").source, "default");
  EXPECT_EQ(row(config, "port").value, "8086");
  EXPECT_EQ(row(config, "data-dir").source, "env");
}

TEST_F(ConfigFileTest, FlagBeatsEnvBeatsFileBeatsDefault) {
  write("hamcp.toml", "ha-url = \"http://file:8123\"\nlog-level = \"debug\"\nhost = \"127.0.0.2\"\n");
  ::setenv("HOMEASSISTANT_URL", "http://env:8123", 1);
  ::setenv("LOG_LEVEL", "warn", 1);
  Config config;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp", "--log-level", "error"}, config)));
  ::unsetenv("LOG_LEVEL");
  EXPECT_EQ(config.mcp.log_level, "error");  // flag > env > file
  EXPECT_EQ(row(config, "log-level").source, "flag");
  EXPECT_EQ(config.ha.url, "http://env:8123");  // env > file
  EXPECT_EQ(row(config, "ha-url").source, "env");
  EXPECT_EQ(config.mcp.host, "127.0.0.2");  // file > default
  EXPECT_EQ(row(config, "host").source, "file");
  EXPECT_EQ(config.mcp.path, "/mcp");
  EXPECT_EQ(row(config, "path").source, "default");
}

TEST_F(ConfigFileTest, NoFileMeansDefaultsAndTheLookedForPath) {
  Config config;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp"}, config)));
  EXPECT_FALSE(config.settings->config_file_read);
  EXPECT_EQ(config.settings->config_file, (dir_ / "hamcp.toml").string());
  EXPECT_EQ(row(config, "ha-url").source, "default");
}

TEST_F(ConfigFileTest, UnknownKeyIsAnErrorNamingKeyAndFile) {
  const fs::path file = write("typo.toml", "ha-urll = \"http://x\"\n");
  Config config;
  std::string error;
  const auto outcome = parse({"hamcp", "--config", file.string()}, config, &error);
  ASSERT_TRUE(std::holds_alternative<int>(outcome));
  EXPECT_NE(std::get<int>(outcome), 0);
  EXPECT_NE(error.find("ha-urll"), std::string::npos) << error;
  EXPECT_NE(error.find(file.string()), std::string::npos) << error;
}

TEST_F(ConfigFileTest, SectionsAreRefused) {
  write("hamcp.toml", "[doctor]\njson = true\n");
  Config config;
  std::string error;
  ASSERT_TRUE(std::holds_alternative<int>(parse({"hamcp"}, config, &error)));
  EXPECT_NE(error.find("doctor"), std::string::npos) << error;
}

TEST_F(ConfigFileTest, TokenInAReadableFileIsRefusedWithTheFix) {
  const fs::path file = write("hamcp.toml", "ha-token = \"s3cret-value\"\n",
                              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  Config config;
  std::string error;
  ASSERT_TRUE(std::holds_alternative<int>(parse({"hamcp"}, config, &error)));
  EXPECT_NE(error.find("chmod 600 " + file.string()), std::string::npos) << error;
  EXPECT_EQ(error.find("s3cret-value"), std::string::npos) << "the secret must not be printed";
}

TEST_F(ConfigFileTest, TokenInAPrivateFileIsReadAndMarkedSecret) {
  write("hamcp.toml", "ha-token = \"s3cret-value\"\n");
  Config config;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp"}, config)));
  EXPECT_EQ(config.ha.token, "s3cret-value");
  EXPECT_TRUE(row(config, "ha-token").secret);
  EXPECT_EQ(row(config, "ha-token").source, "file");
}

TEST_F(ConfigFileTest, ReadableFileWithoutTokensIsFine) {
  write("hamcp.toml", "read-only = true\n", fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
  Config config;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp"}, config)));
  EXPECT_TRUE(config.gov.read_only);
}

TEST_F(ConfigFileTest, NamedFileMustExist) {
  Config config;
  EXPECT_TRUE(std::holds_alternative<int>(parse({"hamcp", "--config", (dir_ / "missing.toml").string()}, config)));
  ::setenv("HAMCP_CONFIG", (dir_ / "missing.toml").c_str(), 1);
  Config from_env;
  EXPECT_TRUE(std::holds_alternative<int>(parse({"hamcp"}, from_env)));
}

TEST_F(ConfigFileTest, EnvNamedFileIsRead) {
  const fs::path file = write("other.toml", "stateless = true\n");
  ::setenv("HAMCP_CONFIG", file.c_str(), 1);
  Config config;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp"}, config)));
  EXPECT_TRUE(config.mcp.stateless);
  EXPECT_EQ(config.settings->config_file, file.string());
  EXPECT_EQ(row(config, "stateless").source, "file");
}

TEST_F(ConfigFileTest, DataDirFlagPicksTheDefaultFile) {
  const fs::path other = dir_ / "other";
  fs::create_directories(other);
  std::ofstream(other / "hamcp.toml") << "path = \"/elsewhere\"\n";
  Config config;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp", "--data-dir", other.string()}, config)));
  EXPECT_EQ(config.mcp.path, "/elsewhere");
}

TEST_F(ConfigFileTest, ExampleListsEverySettingButNeverATokenAndReadsBack) {
  ::setenv("HOMEASSISTANT_TOKEN", "s3cret-value", 1);
  Config config;
  std::vector<std::string> args = {"hamcp", "--host", "127.0.0.5", "config"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  ::testing::internal::CaptureStdout();
  const auto outcome = parse_command_line(static_cast<int>(argv.size()), argv.data(), config);
  const std::string example = ::testing::internal::GetCapturedStdout();
  ::unsetenv("HOMEASSISTANT_TOKEN");
  ASSERT_TRUE(std::holds_alternative<int>(outcome));
  EXPECT_EQ(std::get<int>(outcome), 0);
  EXPECT_EQ(example.find("s3cret-value"), std::string::npos) << "a token in the example";
  EXPECT_NE(example.find("# ha-token = \"\""), std::string::npos) << example;
  EXPECT_NE(example.find("# host = \"127.0.0.5\""), std::string::npos) << example;
  EXPECT_NE(example.find("# read-only = false"), std::string::npos) << example;
  // Uncommented, a line is a valid setting.
  write("hamcp.toml", "host = \"127.0.0.5\"\nha-timeout = 30\nread-only = false\n");
  Config back;
  ASSERT_TRUE(std::holds_alternative<Command>(parse({"hamcp"}, back)));
  EXPECT_EQ(back.mcp.host, "127.0.0.5");
}

TEST_F(ConfigFileTest, EmptyTokenInAReadableFileIsFine) {
  write("hamcp.toml", "ha-token = \"\"\n", fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
  Config config;
  EXPECT_TRUE(std::holds_alternative<Command>(parse({"hamcp"}, config)));
}

}  // namespace
}  // namespace hamcp::app
