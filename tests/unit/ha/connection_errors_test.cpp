// One test per connection failure: each asserts the cause, the explanation and
// the fix a user sees. All servers are on 127.0.0.1; LAN failures are simulated
// through the connect hook, never by touching a LAN address.
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/json.hpp>

#include "ha/classify.hpp"
#include "ha/platform.hpp"
#include "ha/rest_client.hpp"
#include "loopback_servers.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace asio = boost::asio;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// GET /api/ through the REST client; the failure it throws (or nullopt).
std::optional<HaError> get_error(const ConnectionSettings& s, std::string path = "/api/") {
  asio::io_context ioc;
  RestClient client(ioc.get_executor(), s);
  RetryPolicy fast;
  fast.initial_backoff = std::chrono::milliseconds(10);
  client.set_retry_policy(fast);
  try {
    run_bounded(ioc, client.get_json(path), std::chrono::seconds(20));
    return std::nullopt;
  } catch (const HaException& e) {
    return e.error();
  }
}

StubHandler status_handler(int status, std::string body) {
  return [status, body](const StubRequest&) {
    StubResponse r;
    r.status = status;
    r.body = body;
    r.content_type = "text/plain";
    return r;
  };
}

struct PlatformReset {
  ~PlatformReset() {
    set_platform_is_macos_for_testing(std::nullopt);
    set_connect_hook_for_testing(nullptr);
  }
};

}  // namespace

TEST(ConnectionErrors, DnsFailureForInvalidName) {
  auto e = get_error(settings_for("http://no-such-home.invalid:8123"));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::dns_failure) << e->message();
  EXPECT_TRUE(contains(e->explanation(), "could not be resolved"));
  EXPECT_TRUE(contains(e->fix(), "IP address"));
  EXPECT_FALSE(e->retryable());
}

TEST(ConnectionErrors, ConnectionRefusedOnClosedPort) {
  const auto port = closed_port();
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(port)));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::connection_refused) << e->message();
  EXPECT_TRUE(contains(e->explanation(), "nothing listens"));
  EXPECT_TRUE(contains(e->fix(), "8123"));
  EXPECT_TRUE(e->retryable());
}

TEST(ConnectionErrors, TimeoutWhenServerNeverAnswers) {
  SilentServer silent;
  auto s = settings_for("http://127.0.0.1:" + std::to_string(silent.port()));
  s.request_timeout = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  auto e = get_error(s);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::timeout) << e->message();
  EXPECT_TRUE(contains(e->explanation(), "did not answer in time"));
  EXPECT_TRUE(contains(e->fix(), "HA_TIMEOUT"));
  EXPECT_TRUE(e->retryable());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(ConnectionErrors, HttpsAgainstPlainHttpPort) {
  StubHttpServer plain(status_handler(200, "{}"));
  auto e = get_error(settings_for("https://127.0.0.1:" + std::to_string(plain.port())));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::tls_to_plain_port) << e->message();
  EXPECT_TRUE(contains(e->fix(), "this port speaks plain HTTP: use http://"));
  EXPECT_FALSE(e->retryable());
}

TEST(ConnectionErrors, HttpAgainstTlsPort) {
  auto cert = make_self_signed({"localhost"}, {"127.0.0.1"});
  StubHttpServer tls(status_handler(200, "{}"), &cert);
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(tls.port())));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::plain_to_tls_port) << e->message();
  EXPECT_TRUE(contains(e->fix(), "use https://"));
}

TEST(ConnectionErrors, UntrustedSelfSignedCertificate) {
  auto cert = make_self_signed({"localhost"}, {"127.0.0.1"});
  StubHttpServer tls(status_handler(200, R"({"message":"API running."})"), &cert);
  auto e = get_error(settings_for("https://127.0.0.1:" + std::to_string(tls.port())));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::certificate_untrusted) << e->message();
  EXPECT_TRUE(contains(e->fix(), "HOMEASSISTANT_CA_FILE"));
  EXPECT_TRUE(contains(e->fix(), "HOMEASSISTANT_INSECURE_TLS"));
}

TEST(ConnectionErrors, TrustedWithCaFileOrInsecure) {
  auto cert = make_self_signed({"localhost"}, {"127.0.0.1"});
  StubHttpServer tls(status_handler(200, R"({"message":"API running."})"), &cert);
  auto s = settings_for("https://127.0.0.1:" + std::to_string(tls.port()));
  s.ca_file = cert.cert_file;
  EXPECT_FALSE(get_error(s));
  auto by_name = settings_for("https://localhost:" + std::to_string(tls.port()));
  by_name.ca_file = cert.cert_file;
  EXPECT_FALSE(get_error(by_name));
  auto insecure = settings_for("https://127.0.0.1:" + std::to_string(tls.port()));
  insecure.insecure_tls = true;
  EXPECT_FALSE(get_error(insecure));
}

TEST(ConnectionErrors, HostnameMismatch) {
  auto cert = make_self_signed({"other.example"}, {});
  StubHttpServer tls(status_handler(200, "{}"), &cert);
  for (const std::string host : {"127.0.0.1", "localhost"}) {
    auto s = settings_for("https://" + host + ":" + std::to_string(tls.port()));
    s.ca_file = cert.cert_file;
    auto e = get_error(s);
    ASSERT_TRUE(e) << host;
    EXPECT_EQ(e->cause, ErrorCause::hostname_mismatch) << e->message();
    EXPECT_TRUE(contains(e->explanation(), "different host name"));
    EXPECT_TRUE(contains(e->fix(), "host name the certificate was issued for"));
  }
}

TEST(ConnectionErrors, BadCaFile) {
  auto s = settings_for("https://127.0.0.1:1");
  s.ca_file = "/nonexistent/ca.pem";
  auto e = get_error(s);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::invalid_ca_file) << e->message();
}

TEST(ConnectionErrors, Unauthorized401) {
  StubHttpServer server(status_handler(401, "401: Unauthorized"));
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port())));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::unauthorized);
  EXPECT_EQ(e->http_status, 401);
  EXPECT_TRUE(contains(e->explanation(), "wrong, expired or was revoked"));
  EXPECT_TRUE(contains(e->fix(), "Profile -> Security -> Long-lived access tokens"));
  EXPECT_FALSE(e->retryable());
}

TEST(ConnectionErrors, Forbidden403) {
  StubHttpServer server(status_handler(403, "403: Forbidden"));
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port())));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::forbidden);
  EXPECT_TRUE(contains(e->fix(), "administrator"));
  EXPECT_TRUE(contains(e->fix(), "ip_bans.yaml"));
}

TEST(ConnectionErrors, NotFound404ExplainsBaseUrl) {
  StubHttpServer server(status_handler(404, "404: Not Found"));
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port()) + "/api"));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::not_found);
  EXPECT_TRUE(contains(e->target, "/api/api/")) << e->target;  // shows the doubled path
  EXPECT_TRUE(contains(e->fix(), "not http://host:8123/api"));
}

TEST(ConnectionErrors, Starting503IsRetriedForGetsAndExplained) {
  StubHttpServer server(status_handler(503, "503: Service Unavailable"));
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port())));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::ha_starting);
  EXPECT_TRUE(e->retryable());
  EXPECT_TRUE(contains(e->fix(), "finished starting"));
  EXPECT_EQ(server.requests(), 3u);  // bounded retries
}

TEST(ConnectionErrors, ServerError500) {
  StubHttpServer server(status_handler(500, "500 Internal Server Error"));
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port())));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::server_error);
  EXPECT_TRUE(contains(e->fix(), "Home Assistant log"));
  EXPECT_EQ(server.requests(), 1u);  // 500 is not a gateway error: no retry
}

TEST(ConnectionErrors, PostIsNeverReplayed) {
  StubHttpServer server(status_handler(503, "busy"));
  asio::io_context ioc;
  RestClient client(ioc.get_executor(), settings_for("http://127.0.0.1:" + std::to_string(server.port())));
  auto r = run_bounded(ioc, client.post("/api/services/light/turn_on", boost::json::object{}));
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(server.requests(), 1u);
}

TEST(ConnectionErrors, KeepAliveReusesOneConnection) {
  StubHttpServer server(status_handler(200, "{}"));
  asio::io_context ioc;
  RestClient client(ioc.get_executor(), settings_for("http://127.0.0.1:" + std::to_string(server.port())));
  for (int i = 0; i < 5; ++i) run_bounded(ioc, client.get("/api/"));
  EXPECT_EQ(server.requests(), 5u);
  EXPECT_EQ(server.connections(), 1u);
  EXPECT_EQ(client.connections_opened(), 1u);
}

TEST(ConnectionErrors, SendsBearerTokenAndNeverLeaksItInErrors) {
  const std::string token = "SuperSecretToken_0123456789";
  // A hostile/buggy server that echoes the Authorization header into its error.
  StubHttpServer server([](const StubRequest& req) {
    StubResponse r;
    r.status = 401;
    r.body = "bad credentials: " + req.authorization;
    return r;
  });
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port()), token));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::unauthorized);
  EXPECT_TRUE(contains(e->detail, "Bearer <redacted>")) << e->detail;
  HaException ex(*e);
  EXPECT_FALSE(contains(ex.what(), token));
  EXPECT_FALSE(contains(boost::json::serialize(e->to_json()), token));
}

// Any 12 characters of the token: an excerpt cut in the middle of an echoed token leaks its start.
bool has_token_part(const std::string& text, const std::string& token) {
  for (std::size_t at = 0; at + 12 <= token.size(); ++at) {
    if (contains(text, token.substr(at, 12))) return true;
  }
  return false;
}

// Found by fuzz_ha_rest: the body was cut to a 300-character excerpt before the scrub, so a token
// straddling the cut no longer matched and its first 20 characters reached the error.
TEST(ConnectionErrors, EchoedTokenCutByTheExcerptLeaksNoPartOfIt) {
  const std::string token = "SuperSecretToken_0123456789";
  StubHttpServer server([](const StubRequest& req) {
    StubResponse r;
    r.status = 500;
    r.body = std::string(273, 'x') + req.authorization;  // the token starts at character 280
    return r;
  });
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port()), token));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::server_error);
  EXPECT_FALSE(has_token_part(e->message(), token)) << e->message();
}

// Found by fuzz_ha_rest: a 2xx answer that claims JSON but is not went into the error unscrubbed.
TEST(ConnectionErrors, EchoedTokenInABodyThatIsNotJsonIsScrubbed) {
  const std::string token = "SuperSecretToken_0123456789";
  StubHttpServer server([](const StubRequest& req) {
    StubResponse r;
    r.status = 200;
    r.content_type = "application/json";
    r.body = "{not json " + req.authorization;
    return r;
  });
  auto e = get_error(settings_for("http://127.0.0.1:" + std::to_string(server.port()), token));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::protocol_error);
  EXPECT_FALSE(has_token_part(e->message(), token)) << e->message();
  EXPECT_TRUE(contains(e->message(), "<redacted>")) << e->message();
}

TEST(ConnectionErrors, MacosLocalNetworkPermissionThroughHook) {
  PlatformReset reset;
  set_platform_is_macos_for_testing(true);
  std::vector<std::string> attempted;
  set_connect_hook_for_testing([&](const asio::ip::tcp::endpoint& ep) {
    attempted.push_back(ep.address().to_string());
    return boost::system::error_code(asio::error::host_unreachable);
  });
  auto e = get_error(settings_for("http://192.168.1.50:8123"));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cause, ErrorCause::macos_local_network) << e->message();
  EXPECT_TRUE(contains(e->explanation(), "Local Network"));
  EXPECT_TRUE(contains(e->fix(), "ssh -N -L 8123:localhost:8123"));
  EXPECT_TRUE(contains(e->fix(), "HOMEASSISTANT_URL=http://localhost:8123"));
  ASSERT_FALSE(attempted.empty());
  EXPECT_EQ(attempted.front(), "192.168.1.50");
}

TEST(ConnectionErrors, MacosDiagnosisCoversEpermTimeoutAndAllPrivateRanges) {
  PlatformReset reset;
  set_platform_is_macos_for_testing(true);
  for (const auto& code : {boost::system::error_code(EPERM, boost::system::system_category()),
                           boost::system::error_code(asio::error::timed_out)}) {
    set_connect_hook_for_testing([code](const asio::ip::tcp::endpoint&) { return code; });
    for (const char* url :
         {"http://10.0.0.5:8123", "http://172.20.1.1:8123", "http://169.254.3.4:8123", "http://[fd00::5]:8123"}) {
      auto e = get_error(settings_for(url));
      ASSERT_TRUE(e) << url;
      EXPECT_EQ(e->cause, ErrorCause::macos_local_network) << url << ": " << e->message();
    }
  }
}

TEST(ConnectionErrors, NoMacosDiagnosisOnLinuxOrPublicAddress) {
  PlatformReset reset;
  set_connect_hook_for_testing(
      [](const asio::ip::tcp::endpoint&) { return boost::system::error_code(asio::error::host_unreachable); });
  set_platform_is_macos_for_testing(false);
  auto linux_err = get_error(settings_for("http://192.168.1.50:8123"));
  ASSERT_TRUE(linux_err);
  EXPECT_EQ(linux_err->cause, ErrorCause::network_unreachable);
  set_platform_is_macos_for_testing(true);
  auto public_err = get_error(settings_for("http://203.0.113.7:8123"));  // TEST-NET-3, never contacted
  ASSERT_TRUE(public_err);
  EXPECT_EQ(public_err->cause, ErrorCause::network_unreachable);
}

TEST(Classify, OpenSslReasonsForHttpsOnPlainPort) {
  for (int reason : {SSL_R_WRONG_VERSION_NUMBER, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION, SSL_R_PACKET_LENGTH_TOO_LONG}) {
    boost::system::error_code ec(static_cast<int>(ERR_PACK(ERR_LIB_SSL, 0, reason)), asio::error::get_ssl_category());
    NetContext ctx;
    ctx.tls = true;
    ctx.target = "https://ha:8123";
    HaError e = classify_network_error(ec, NetPhase::tls_handshake, ctx);
    EXPECT_EQ(e.cause, ErrorCause::tls_to_plain_port) << reason << " " << ec.message();
    EXPECT_TRUE(contains(e.fix(), "use http://"));
  }
}

TEST(Classify, TlsRecordAnswerToPlainRequest) {
  NetContext ctx;
  ctx.tls = false;
  const char alert[] = {'\x15', '\x03', '\x03', '\x00', '\x02'};
  ctx.received_prefix = std::string_view(alert, sizeof alert);
  HaError e = classify_network_error(asio::error::eof, NetPhase::receive, ctx);
  EXPECT_EQ(e.cause, ErrorCause::plain_to_tls_port);
}

TEST(Classify, NginxPlainToHttpsPortPage) {
  HaError e = classify_http_status(400, "<h1>400 The plain HTTP request was sent to HTTPS port</h1>", "x");
  EXPECT_EQ(e.cause, ErrorCause::plain_to_tls_port);
}

TEST(Classify, PrivateRanges) {
  auto is = [](const char* a) { return is_private_lan_address(asio::ip::make_address(a)); };
  EXPECT_TRUE(is("10.1.2.3"));
  EXPECT_TRUE(is("172.16.0.1"));
  EXPECT_TRUE(is("172.31.255.255"));
  EXPECT_FALSE(is("172.32.0.1"));
  EXPECT_TRUE(is("192.168.0.10"));
  EXPECT_TRUE(is("169.254.1.1"));
  EXPECT_TRUE(is("fc00::1"));
  EXPECT_TRUE(is("fdab::1"));
  EXPECT_TRUE(is("::ffff:192.168.1.1"));
  EXPECT_FALSE(is("127.0.0.1"));
  EXPECT_FALSE(is("8.8.8.8"));
  EXPECT_FALSE(is("::1"));
}
