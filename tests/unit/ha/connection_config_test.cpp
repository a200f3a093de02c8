#include "ha/connection_config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace hamcp::ha;

namespace {
std::variant<ConnectionSettings, HaError> parse(const std::string& url, const std::string& token = "tok-abcdef") {
  ConnectionInput in;
  in.url = url;
  in.token = token;
  return make_connection_settings(in);
}
}  // namespace

TEST(ConnectionConfig, PlainUrlGetsApiAndWebsocketPaths) {
  auto r = parse("http://homeassistant.local:8123/");
  ASSERT_TRUE(std::holds_alternative<ConnectionSettings>(r));
  const auto& s = std::get<ConnectionSettings>(r);
  EXPECT_FALSE(s.tls);
  EXPECT_EQ(s.host, "homeassistant.local");
  EXPECT_EQ(s.port, 8123);
  EXPECT_EQ(s.host_header, "homeassistant.local:8123");
  EXPECT_EQ(s.http_target("/api/states"), "/api/states");
  EXPECT_EQ(s.http_target("/api/"), "/api/");
  EXPECT_EQ(s.ws_url(), "ws://homeassistant.local:8123/api/websocket");
}

TEST(ConnectionConfig, HttpsDefaultPortAndProxyPrefix) {
  auto r = parse("https://example.org/ha");
  const auto& s = std::get<ConnectionSettings>(r);
  EXPECT_TRUE(s.tls);
  EXPECT_EQ(s.port, 443);
  EXPECT_EQ(s.host_header, "example.org");
  EXPECT_EQ(s.http_target("/api/config"), "/ha/api/config");
  EXPECT_EQ(s.ws_url(), "wss://example.org/ha/api/websocket");
}

TEST(ConnectionConfig, Ipv6Literal) {
  const auto s = std::get<ConnectionSettings>(parse("http://[::1]:8123"));
  EXPECT_EQ(s.host, "::1");
  EXPECT_EQ(s.host_header, "[::1]:8123");
}

TEST(ConnectionConfig, InvalidUrlsNameTheVariableAndTheFix) {
  for (const char* bad : {"192.168.1.10:8123", "homeassistant.local", "ftp://x", "http://", "ws://h:8123",
                          "http://h:8123/?x=1", "not a url"}) {
    auto r = parse(bad);
    ASSERT_TRUE(std::holds_alternative<HaError>(r)) << bad;
    const auto& e = std::get<HaError>(r);
    EXPECT_EQ(e.cause, ErrorCause::invalid_url) << bad;
    EXPECT_NE(e.message().find("HOMEASSISTANT_URL"), std::string::npos) << e.message();
    EXPECT_NE(e.fix().find("http://"), std::string::npos);
    EXPECT_FALSE(e.retryable());
  }
  auto missing = parse("");
  EXPECT_EQ(std::get<HaError>(missing).cause, ErrorCause::invalid_url);
  EXPECT_NE(std::get<HaError>(missing).message().find("HOMEASSISTANT_URL is not set"), std::string::npos);
}

TEST(ConnectionConfig, SupervisorAddOnMode) {
  ConnectionInput in;
  in.supervisor_token = "supervisor-secret-999";
  auto r = make_connection_settings(in);
  const auto& s = std::get<ConnectionSettings>(r);
  EXPECT_TRUE(s.supervisor);
  EXPECT_EQ(s.host, "supervisor");
  EXPECT_EQ(s.http_target("/api/states"), "/core/api/states");
  EXPECT_EQ(s.ws_url(), "ws://supervisor/core/websocket");
  EXPECT_EQ(s.token.reveal(), "supervisor-secret-999");
}

TEST(ConnectionConfig, SupervisorEndpointCanBeMovedForTests) {
  ConnectionInput in;
  in.supervisor_token = "sv";
  in.supervisor_endpoint = "127.0.0.1:18080";
  const auto s = std::get<ConnectionSettings>(make_connection_settings(in));
  EXPECT_EQ(s.host, "127.0.0.1");
  EXPECT_EQ(s.port, 18080);
  EXPECT_EQ(s.ws_url(), "ws://127.0.0.1:18080/core/websocket");
  in.supervisor_endpoint = "127.0.0.1:0";
  const auto bad = make_connection_settings(in);
  ASSERT_TRUE(std::holds_alternative<HaError>(bad));
  EXPECT_NE(std::get<HaError>(bad).detail.find("HAMCP_SUPERVISOR_ENDPOINT"), std::string::npos);
}

TEST(ConnectionConfig, ExplicitUrlWinsOverSupervisor) {
  ConnectionInput in;
  in.url = "http://127.0.0.1:8123";
  in.supervisor_token = "sv";
  const auto s = std::get<ConnectionSettings>(make_connection_settings(in));
  EXPECT_FALSE(s.supervisor);
  EXPECT_EQ(s.host, "127.0.0.1");
}

TEST(ConnectionConfig, EnvironmentFillsOnlyMissingFields) {
  setenv("HOMEASSISTANT_URL", "http://env-host:8123", 1);
  setenv("HOMEASSISTANT_TOKEN", "env-token", 1);
  setenv("HOMEASSISTANT_INSECURE_TLS", "1", 1);
  ConnectionInput in;
  in.token = "flag-token";
  fill_from_environment(in);
  EXPECT_EQ(in.url, "http://env-host:8123");
  EXPECT_EQ(in.token, "flag-token");
  EXPECT_TRUE(in.insecure_tls);
  unsetenv("HOMEASSISTANT_URL");
  unsetenv("HOMEASSISTANT_TOKEN");
  unsetenv("HOMEASSISTANT_INSECURE_TLS");
}

TEST(Secrets, TokenNeverInUrlErrors) {
  const std::string token = "SuperSecretToken_0123456789";
  // A user pasted the token into the URL by mistake.
  auto r = parse("http://" + token + "@host:8123", token);
  ASSERT_TRUE(std::holds_alternative<HaError>(r));
  const auto& e = std::get<HaError>(r);
  EXPECT_EQ(e.message().find(token), std::string::npos) << e.message();
  HaException ex(e);
  EXPECT_EQ(std::string(ex.what()).find(token), std::string::npos);
  auto r2 = parse("bad url " + token, token);
  EXPECT_EQ(std::get<HaError>(r2).message().find(token), std::string::npos);
}

TEST(Secrets, SecretRedactsAndScrubs) {
  Secret s("abcdef123456");
  EXPECT_EQ(s.redacted(), "<redacted>");
  EXPECT_EQ(s.scrub("x abcdef123456 y abcdef123456"), "x <redacted> y <redacted>");
}
