// Issue 14 items 4 and 7: secrets are masked in every tool result (and a
// write carrying the mask is refused), and every call of a tool that can
// write leaves one audit line, readable through ha_get_audit_log.
#include <filesystem>
#include <fstream>

#include "tools/gate/audit_line.hpp"
#include "tools/gate/redactor.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

TEST(SecretKeys, NamesThatHoldSecretsAndNamesThatDoNot) {
  for (const char* k : {"password",
                        "mqtt_password",
                        "Wifi-Password",
                        "api_key",
                        "apiKey",
                        "access_token",
                        "refresh_token",
                        "client_secret",
                        "webhook_id",
                        "s2_access_control_key",
                        "network_key",
                        "psk",
                        "pin",
                        "passphrase",
                        "Authorization",
                        "db_passwd",
                        "private_key_pem",
                        "aws_access_key_id",
                        "zwave_network_key",
                        "my-apikey",
                        "app_secret_value",
                        "lr_s2_authenticated_key",
                        "s0_legacy_key",
                        "Encryption-Key",
                        "wpa_psk",
                        "cloudhook_url",
                        "otp",
                        "cookie"})
    EXPECT_TRUE(is_secret_key(k)) << k;
  // Names holding the words the check looks for ("pass", "key", "token") without meaning a secret.
  for (const char* k : {"entity_id",     "key",        "config_hash",     "edit_id",
                        "confirm_token", "token_type", "tokens",          "friendly_name",
                        "state",         "keyboard",   "passive",         "username",
                        "progressToken", "bypass",     "compass_heading", "passenger_count",
                        "key_id",        "monkey",     "hotkeys",         "s3_key",
                        "pins",          "page_token"})
    EXPECT_FALSE(is_secret_key(k)) << k;
}

// Verdicts are remembered per name (a per-thread cache): the same verdict every
// time, for names that share a cache slot, names up to and past the longest
// cached one, and names that differ only in case or in one byte.
TEST(RedactorTest, RememberedVerdictsStayExact) {
  std::vector<std::pair<std::string, bool>> names;
  for (int i = 0; i < 600; ++i) {  // more names than slots: slots are shared and replaced
    names.emplace_back("field_" + std::to_string(i), false);
    names.emplace_back("api_key_" + std::to_string(i), true);
    names.emplace_back(std::to_string(i) + "_token", true);
  }
  for (const auto& [k, secret] : std::vector<std::pair<std::string, bool>>{{"Password", true},
                                                                           {"passwork", false},
                                                                           {"password", true},
                                                                           {"paSSword", true},
                                                                           {std::string(29, 'a') + "_token", true},
                                                                           {std::string(30, 'a') + "_token", true},
                                                                           {std::string(31, 'a') + "token", true},
                                                                           {std::string(30, 'a'), false},
                                                                           {"token", true},
                                                                           {"tokem", false}})
    names.emplace_back(k, secret);
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto& [k, secret] = names[(i * 7 + static_cast<std::size_t>(round) * 13) % names.size()];
      ASSERT_EQ(is_secret_key(k), secret) << k << " in round " << round;
    }
  }
}

TEST(RedactorTest, MasksSecretMembersAndTheirValuesWhereverElseTheyAppear) {
  Redactor r;
  json::value v = json::parse(R"({"addon":{"options":{"user":"mqtt","password":"hunter2-long-secret","pin":1234}},
    "log":["login with hunter2-long-secret failed"],"camera":{"access_token":"abcdef0123456789",
    "entity_picture":"/api/camera_proxy/camera.x?token=abcdef0123456789"},"note":"nothing here"})");
  EXPECT_TRUE(r.redact(v));
  EXPECT_EQ(v.at_pointer("/addon/options/password"), json::value(kRedacted));
  EXPECT_EQ(v.at_pointer("/addon/options/pin"), json::value(kRedacted));
  EXPECT_EQ(v.at_pointer("/addon/options/user"), "mqtt");
  EXPECT_EQ(v.at_pointer("/log/0"), "login with **REDACTED** failed");
  EXPECT_EQ(v.at_pointer("/camera/entity_picture"), "/api/camera_proxy/camera.x?token=**REDACTED**");
  EXPECT_EQ(v.at_pointer("/note"), "nothing here");
  // Remembered: a later answer quoting the password is masked too; the short PIN is not remembered.
  json::value later = json::parse(R"({"line":"hunter2-long-secret again","code":"1234"})");
  EXPECT_TRUE(r.redact(later));
  EXPECT_EQ(later.at_pointer("/line"), "**REDACTED** again");
  EXPECT_EQ(later.at_pointer("/code"), "1234");
  json::value clean = json::parse(R"({"state":"on","attributes":{"brightness":200}})");
  EXPECT_FALSE(r.redact(clean));
}

TEST(RedactorTest, FindsThePlaceholderInArguments) {
  EXPECT_EQ(find_placeholder(json::parse(R"({"a":1,"b":{"c":["x","**REDACTED**"]}})")), "b.c[1]");
  EXPECT_FALSE(find_placeholder(json::parse(R"({"a":"REDACTED","b":[1,2]})")));
}

TEST(AuditLineTest, TargetKeepsIdsNotBodies) {
  const json::object t = audit_target(json::parse(R"({"entity_id":"light.x","config":{"alias":"A"},
    "service":"turn_on","data":{"brightness":3},"entity_ids":["a","b","c","d","e","f","g","h","i","j","k","l"]})")
                                          .as_object());
  EXPECT_EQ(t.at("entity_id"), json::value("light.x"));
  EXPECT_EQ(t.at("service"), "turn_on");
  EXPECT_FALSE(t.contains("config"));
  EXPECT_FALSE(t.contains("data"));
  EXPECT_EQ(t.at("entity_ids").as_array().size(), 11u);  // ten and "(+2 more)"
}

TEST(AuditLogFile, AppendsReloadsAndRotates) {
  const auto dir = std::filesystem::temp_directory_path() / ("hamcp-audit-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  home::AuditLogOptions options;
  options.file = dir / "audit" / "home.jsonl";
  options.max_bytes = 400;
  options.rotated_files = 2;
  {
    home::AuditLog log(options);
    for (int i = 0; i < 12; ++i) log.record(json::object{{"tool", "t" + std::to_string(i)}, {"outcome", "ok"}});
    EXPECT_EQ(log.recent({.limit = 1}).front().at("tool"), "t11");
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "audit" / "home.jsonl.1"));
  EXPECT_TRUE(std::filesystem::exists(dir / "audit" / "home.jsonl.2"));
  EXPECT_FALSE(std::filesystem::exists(dir / "audit" / "home.jsonl.3"));
  EXPECT_LE(std::filesystem::file_size(options.file), 400u);
  const auto perms = std::filesystem::status(options.file).permissions();
  EXPECT_EQ(perms & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  home::AuditLog reloaded(options);  // the current file's lines come back
  ASSERT_GT(reloaded.size(), 0u);
  EXPECT_EQ(reloaded.recent({.limit = 1}).front().at("tool"), "t11");
  EXPECT_EQ(reloaded.recent({.limit = 5, .tool = "t10"}).size(), 1u);
  std::filesystem::remove_all(dir);
}

class SafetyToolsTest : public ToolsTest {};

TEST_F(SafetyToolsTest, CameraAccessTokenIsMaskedInStateAndPicture) {
  start();
  CallResult r = call("ha_get_state", R"({"entity_id":"camera.doorbell_camera"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("\"access_token\":\"**REDACTED**\""), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("?token=**REDACTED**"), std::string::npos) << r.text;
}

TEST_F(SafetyToolsTest, RedactionCanBeSwitchedOff) {
  EntityToolsOptions options;
  options.redact_secrets = false;
  start(options);
  CallResult r = call("ha_get_state", R"({"entity_id":"camera.doorbell_camera"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.text.find("**REDACTED**"), std::string::npos);
}

TEST_F(SafetyToolsTest, AWriteCarryingTheMaskIsRefusedWithItsPath) {
  start();
  CallResult r = call("ha_call_service",
                      R"({"domain":"light","service":"turn_on","entity_id":"light.kitchen_ceiling_light",
                          "data":{"password":"**REDACTED**"}})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
  EXPECT_NE(r.text.find("data.password"), std::string::npos) << r.text;
}

TEST_F(SafetyToolsTest, WritesAreAuditedReadsAreNot) {
  start();
  call("ha_get_state", R"({"entity_id":"light.kitchen_ceiling_light"})");
  CallResult w =
      call("ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_FALSE(w.is_error) << w.text;
  call("ha_call_service",
       R"({"domain":"light","service":"no_such_service","entity_id":"light.kitchen_ceiling_light"})");
  CallResult log = call("ha_get_audit_log", R"({"limit":10})");
  ASSERT_FALSE(log.is_error) << log.text;
  const json::array& entries = log.structured.at("entries").as_array();
  ASSERT_EQ(entries.size(), 2u) << log.text;  // the read left no line
  EXPECT_EQ(entries[0].at("outcome"), "error");
  EXPECT_EQ(entries[1].at("tool"), "ha_call_service");
  EXPECT_EQ(entries[1].at("outcome"), "ok");
  EXPECT_EQ(entries[1].at_pointer("/target/entity_id"), "light.kitchen_ceiling_light");
  EXPECT_TRUE(entries[1].as_object().contains("time"));
  CallResult errors = call("ha_get_audit_log", R"({"outcome":"error"})");
  EXPECT_EQ(errors.structured.at("count"), 1);
  EXPECT_EQ(call("ha_get_audit_log", R"({"outcome":"maybe"})").code(), "invalid_argument");
}

TEST_F(SafetyToolsTest, AReadOnlyRefusalIsAuditedAsRefused) {
  EntityToolsOptions options;
  options.read_only = true;
  start(options);
  CallResult w =
      call("ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":"light.kitchen_ceiling_light"})");
  EXPECT_EQ(w.code(), "read_only") << w.text;
  CallResult log = call("ha_get_audit_log");
  ASSERT_EQ(log.structured.at("entries").as_array().size(), 1u) << log.text;
  EXPECT_EQ(json::value(log.structured).at_pointer("/entries/0/outcome"), "refused");
  EXPECT_EQ(json::value(log.structured).at_pointer("/entries/0/read_only"), true);
}

}  // namespace
}  // namespace hamcp::tools::testing
