// Weakness 11 of issue 8, one test per item: Host checked on wildcard binds,
// strict Host parsing, the generated token never printed to a non-terminal,
// /healthz quiet before auth, an unsafe data dir refused, secret files never
// read through symlinks, only chunked Transfer-Encoding.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "http_fixture.hpp"
#include "mcp/http/access_policy.hpp"
#include "mcp/http/data_dir.hpp"
#include "mcp/http/generated_token.hpp"

namespace hamcp::test {
namespace {

using namespace std::chrono_literals;
namespace http = mcp::http;

TEST(Hardening, WildcardBindStillChecksHost) {
  http::OriginPolicy p("0.0.0.0", {"hamcp.lan"}, {}, std::vector<std::string>{"192.168.1.10", "fe80::1", "myhost"});
  EXPECT_TRUE(p.host_allowed("192.168.1.10:8086"));
  EXPECT_TRUE(p.host_allowed("[fe80::1]:8086"));
  EXPECT_TRUE(p.host_allowed("myhost:8086"));
  EXPECT_TRUE(p.host_allowed("localhost:8086"));
  EXPECT_TRUE(p.host_allowed("127.0.0.1:8086"));
  EXPECT_TRUE(p.host_allowed("hamcp.lan"));
  EXPECT_FALSE(p.host_allowed("evil.example.com:8086")) << "DNS rebinding onto a wildcard bind";
  EXPECT_FALSE(p.host_allowed("10.9.9.9:8086"));
  http::OriginPolicy any("::", {"*"}, {});
  EXPECT_TRUE(any.host_allowed("evil.example.com")) << "'*' is the explicit opt-out";
  // Discovery finds at least the loopback interface.
  const auto names = http::local_host_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "127.0.0.1"), names.end());
}

TEST(Hardening, HostHeaderIsParsedStrictly) {
  EXPECT_EQ(http::parse_host_header("[::1]:8086"), "::1");
  EXPECT_EQ(http::parse_host_header("LocalHost:8086"), "localhost");
  EXPECT_EQ(http::parse_host_header("127.0.0.1"), "127.0.0.1");
  EXPECT_FALSE(http::parse_host_header("[::1]evil.example.com"));
  EXPECT_FALSE(http::parse_host_header("[::1]:80x"));
  EXPECT_FALSE(http::parse_host_header("[::1"));
  EXPECT_FALSE(http::parse_host_header("[not-v6]:80"));
  EXPECT_FALSE(http::parse_host_header("localhost:8086:1"));
  EXPECT_FALSE(http::parse_host_header("evil.example.com@127.0.0.1"));
  EXPECT_FALSE(http::parse_host_header("127.0.0.1:123456"));
  EXPECT_FALSE(http::parse_host_header(""));
  http::OriginPolicy p("127.0.0.1", {}, {});
  EXPECT_FALSE(p.host_allowed("[::1]evil.example.com"));
  EXPECT_FALSE(p.origin_allowed("http://[::1]evil.example.com"));
  EXPECT_TRUE(p.origin_allowed("http://[::1]:6274"));
}

std::string read_file(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[512];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  return out;
}

TEST(Hardening, GeneratedTokenIsPrintedOnlyToATerminal) {
  TempDir dir;
  std::ostringstream logged;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(logged);
  spdlog::default_logger()->sinks().push_back(sink);
  auto token = http::load_or_generate_token(dir.path());
  ASSERT_TRUE(token.created);
  ASSERT_GE(token.token.size(), 32u);
  struct stat st {};
  ASSERT_EQ(::stat(token.path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  std::FILE* log_file = std::tmpfile();
  http::announce_token(token, "0.0.0.0", log_file, /*terminal_is_tty=*/false);
  const std::string not_terminal = read_file(log_file);
  std::fclose(log_file);
  std::FILE* terminal = std::tmpfile();
  http::announce_token(token, "0.0.0.0", terminal, /*terminal_is_tty=*/true);
  const std::string on_terminal = read_file(terminal);
  std::fclose(terminal);
  sink->flush();
  auto& sinks = spdlog::default_logger()->sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), sink), sinks.end());

  EXPECT_EQ(not_terminal.find(token.token), std::string::npos) << "a log file must never hold the token";
  EXPECT_EQ(logged.str().find(token.token), std::string::npos);
  EXPECT_NE(logged.str().find(token.path.string()), std::string::npos) << "the log says where to read it";
  EXPECT_NE(on_terminal.find(token.token), std::string::npos);
}

TEST(Hardening, HealthzRevealsNothingBeforeAuth) {
  TempDir dir;
  TestHttpServer open_server(dir.path());
  auto plain = parse_object(http_request(open_server.port(), "GET", "/healthz", {}).body);
  EXPECT_EQ(plain.size(), 1u) << json::serialize(plain);
  EXPECT_EQ(plain.at("status"), "ok");

  TempDir dir2;
  TestHttpServer guarded(dir2.path(), [](http::HttpServerOptions& o) { o.auth_token = "t0ken"; });
  auto anonymous = parse_object(http_request(guarded.port(), "GET", "/healthz", {}).body);
  EXPECT_FALSE(anonymous.contains("version"));
  EXPECT_FALSE(anonymous.contains("sessions_in_memory"));
  auto authed = parse_object(http_request(guarded.port(), "GET", "/healthz", {{"Authorization", "Bearer t0ken"}}).body);
  EXPECT_EQ(authed.at("version"), "test");
  EXPECT_TRUE(authed.contains("sessions_in_memory"));
}

TEST(Hardening, UnsafeDataDirIsRefused) {
  TempDir dir;
  EXPECT_NO_THROW(http::check_data_dir(dir.path()));
  ::chmod(dir.path().c_str(), 0777);
  try {
    http::check_data_dir(dir.path());
    ADD_FAILURE() << "a world-writable data dir was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("chmod 700 " + dir.path().string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(TestHttpServer server(dir.path()), std::runtime_error);
  EXPECT_THROW(http::resolve_data_dir(dir.path().string()), std::runtime_error);
  ::chmod(dir.path().c_str(), 0700);
  if (::geteuid() != 0) GTEST_SKIP() << "giving a directory to another user needs root";
  ASSERT_EQ(::chown(dir.path().c_str(), 65534, 65534), 0);
  try {
    http::check_data_dir(dir.path());
    ADD_FAILURE() << "a data dir of another user was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to uid 65534"), std::string::npos) << e.what();
  }
  ASSERT_EQ(::chown(dir.path().c_str(), 0, 0), 0);
}

TEST(Hardening, SecretFilesAreNeverReadThroughSymlinks) {
  TempDir dir;
  const auto target = dir.path() / "elsewhere";
  {
    std::ofstream out(target);
    out << std::string(32, 'k');
  }
  ::chmod(target.c_str(), 0600);
  std::filesystem::create_symlink(target, dir.path() / "session.key");
  try {
    http::load_or_create_secret(dir.path() / "session.key", [] { return std::string(32, 'n'); });
    ADD_FAILURE() << "the secret was read through a symlink";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  // A dangling symlink is not followed to create a file elsewhere either.
  std::filesystem::remove(target);
  EXPECT_THROW(http::load_or_create_secret(dir.path() / "session.key", [] { return std::string(32, 'n'); }),
               std::runtime_error);
  EXPECT_FALSE(std::filesystem::exists(target));
}

TEST(Hardening, OnlyChunkedTransferEncodingIsAccepted) {
  TempDir dir;
  TestHttpServer server(dir.path());
  const std::string sid = open_session(server.port());
  const std::string body = list_body(9);
  const std::string head =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Accept: application/json, text/event-stream\r\nConnection: close\r\nMcp-Session-Id: " +
      sid + "\r\n";
  auto send = [&](const std::string& framing, const std::string& payload) {
    HttpConnection c(server.port());
    return c.raw_exchange(head + framing + "\r\n" + payload, 2000ms);
  };
  const std::string cl = "Content-Length: " + std::to_string(body.size()) + "\r\n";
  EXPECT_EQ(send("Transfer-Encoding: identity\r\n" + cl, body).rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(send("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  std::ostringstream chunk;
  chunk << std::hex << body.size() << "\r\n" << body << "\r\n0\r\n\r\n";
  EXPECT_EQ(send("Transfer-Encoding: chunked\r\n" + cl, chunk.str()).rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(send("Transfer-Encoding: chunked\r\n", chunk.str()).rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(send(cl, body).rfind("HTTP/1.1 200", 0), 0u);
}

}  // namespace
}  // namespace hamcp::test
