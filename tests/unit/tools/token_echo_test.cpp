// A Home Assistant (or proxy) that echoes the Authorization header: the access
// token must not reach a tool result. Before the fix ha_eval_template returned
// the echo verbatim and ha_get_logs (error_log) printed it as a log line.
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <thread>

#include "ha/scrub.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// 127.0.0.1, port 0: answers every request with its Authorization header,
// one request per connection. Stops when destroyed.
class EchoingHa {
 public:
  EchoingHa() : acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] { serve(); });
  }
  ~EchoingHa() {
    stop_ = true;
    // A connection hamcp opened but has not written to yet (its io_context is
    // not running now) would block read() forever: shut it down under it.
    if (const int fd = serving_fd_.load(); fd >= 0) ::shutdown(fd, SHUT_RDWR);
    boost::system::error_code ec;
    tcp::socket poke(io_);
    poke.connect(acceptor_.local_endpoint(), ec);  // wakes accept()
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()); }

 private:
  void serve() {
    for (int served = 0; served < 1000 && !stop_; ++served) {
      tcp::socket socket(io_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stop_) return;
      serving_fd_ = socket.native_handle();
      if (stop_) return;  // the destructor may have looked before the store
      beast::flat_buffer buffer;
      http::request<http::string_body> req;
      http::read(socket, buffer, req, ec);
      if (ec) {
        serving_fd_ = -1;
        continue;
      }
      const std::string auth(req[http::field::authorization]);
      http::response<http::string_body> res{http::status::ok, 11};
      res.set(http::field::content_type, "text/plain");
      res.body() = "2026-01-01 ERROR (MainThread) [aiohttp] request had Authorization: " + auth + "\n";
      res.keep_alive(false);
      res.prepare_payload();
      http::write(socket, res, ec);
      socket.shutdown(tcp::socket::shutdown_both, ec);
      serving_fd_ = -1;
    }
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::atomic<bool> stop_{false};
  std::atomic<int> serving_fd_{-1};
  std::thread thread_;
};

const std::string kToken = "secret-token-that-must-not-leak-0123456789";

TEST_F(ToolsTest, TokenEchoedByHomeAssistantNeverReachesAToolResult) {
  EchoingHa echo;
  start({}, echo.url(), kToken);
  CallResult rendered = call("ha_eval_template", R"({"template":"{{ 1 }}"})");
  EXPECT_EQ(rendered.text.find(kToken), std::string::npos) << rendered.text;
  EXPECT_EQ(json::serialize(rendered.response).find(kToken), std::string::npos);
  EXPECT_NE(rendered.text.find("Bearer <redacted>"), std::string::npos)
      << "the echo itself, redacted: " << rendered.text;

  CallResult logs = call("ha_get_logs", R"({"source":"error_log"})");
  EXPECT_EQ(json::serialize(logs.response).find(kToken), std::string::npos) << logs.text;
  EXPECT_NE(logs.text.find("<redacted>"), std::string::npos) << logs.text;
}

// The token in an entity's attributes (the WebSocket path is not scrubbed on
// the way in): gone from the text and from structuredContent alike.
TEST_F(ToolsTest, TokenInAnEntitysAttributesIsScrubbedFromTheTextAndTheStructuredContent) {
  start({}, {}, kToken);
  sim->store().set_state("sensor.echo", "ok", json::object{{"note", "Authorization: Bearer " + kToken}},
                         sim->store().new_context());
  ASSERT_TRUE(eventually([&] { return ha->snapshot()->states.find("sensor.echo") != nullptr; }));
  CallResult got = call("ha_get_state", R"({"entity_id":"sensor.echo"})");
  ASSERT_FALSE(got.is_error) << got.text;
  EXPECT_EQ(json::serialize(got.response).find(kToken), std::string::npos) << got.text;
  EXPECT_NE(got.text.find("Bearer <redacted>"), std::string::npos) << got.text;
  const json::value* structured = got.result.if_contains("structuredContent");
  ASSERT_NE(structured, nullptr);
  EXPECT_NE(json::serialize(*structured).find("Bearer <redacted>"), std::string::npos);
}

TEST(TokenInJsonText, OneSearchOfTheTextAnswersOnlyForATokenJsonDoesNotEscape) {
  const ha::Secret plain("abc.DEF-123_xyz");
  EXPECT_TRUE(ha::absent_from_json_text(R"({"a":"nothing here"})", plain));
  EXPECT_FALSE(ha::absent_from_json_text(R"({"a":"x abc.DEF-123_xyz y"})", plain));
  EXPECT_FALSE(ha::absent_from_json_text(R"({"abc.DEF-123_xyz":1})", plain)) << "keys count";
  // Spelt escaped in the text, so the text cannot say: the value must be walked.
  EXPECT_FALSE(ha::absent_from_json_text(R"({"a":"nothing"})", ha::Secret("quo\"te-token")));
  EXPECT_FALSE(ha::absent_from_json_text(R"({"a":"nothing"})", ha::Secret("line\nbreak")));
  EXPECT_FALSE(ha::absent_from_json_text(R"({"a":"nothing"})", ha::Secret("caf\xc3\xa9-token")));
  EXPECT_TRUE(ha::absent_from_json_text(R"({"a":"abc"})", ha::Secret("abc"))) << "too short to scrub";
}

}  // namespace
}  // namespace hamcp::tools::testing
