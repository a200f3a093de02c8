// Weakness 9 of issue 8: client-supplied values logged before authentication.
// A refused Origin (60 KB each, hundreds of times) must produce a few short
// lines, not megabytes of log, and a well-behaved client keeps its answers.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <thread>

#include "http_fixture.hpp"
#include "latency_probe.hpp"
#include "mcp/http/guarded_log.hpp"

namespace hamcp::test {
namespace {

using namespace std::chrono_literals;
using mcp::http::GuardedLog;
using mcp::http::printable;

// Captures what the default logger writes while it lives.
class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(out_)) {
    spdlog::default_logger()->sinks().push_back(sink_);
  }
  ~LogCapture() {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  std::string text() {
    sink_->flush();
    return out_.str();
  }

 private:
  std::ostringstream out_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

TEST(LogExhaustion, RefusedOriginsAreLoggedTruncatedAndRateLimited) {
  TempDir dir;
  TestHttpServer server(dir.path());
  const auto port = server.port();
  const std::string good = open_session(port);
  LogCapture capture;
  LatencyProbe probe(
      [&] { return http_request(port, "POST", "/mcp", post_headers(good), list_body(1), 2000ms).status == 200u; });
  // 400 requests x a 60 KB Origin = 24 MB of log before the fix.
  std::vector<std::thread> attackers;
  std::atomic<int> refused{0};
  for (int t = 0; t < 4; ++t) {
    attackers.emplace_back([&] {
      HttpConnection c(port);
      HeaderList h = post_headers(good);
      h.emplace_back("Origin", "http://" + std::string(60000, 'e') + ".example");
      for (int i = 0; i < 100; ++i) {
        if (c.request("POST", "/mcp", h, list_body(2), 2000ms).status == 403u) ++refused;
      }
    });
  }
  for (auto& t : attackers) t.join();
  probe.stop();
  const std::string log = capture.text();

  EXPECT_EQ(refused.load(), 400);
  EXPECT_LT(log.size(), 32u * 1024) << "log grew by " << log.size() << " bytes";
  EXPECT_NE(log.find("refused request from Origin"), std::string::npos);
  EXPECT_NE(log.find("(+"), std::string::npos) << "the value is cut, its size noted";
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) EXPECT_LT(line.size(), 400u);
  EXPECT_EQ(probe.failures(), 0u);
  EXPECT_LT(probe.p99_ms(), 100.0);
}

TEST(LogExhaustion, PrintableEscapesAndTruncates) {
  EXPECT_EQ(printable("http://a.example"), "http://a.example");
  EXPECT_EQ(printable("a\r\nb\"c\\"), "a\\x0d\\x0ab\\\"c\\\\");
  EXPECT_EQ(printable("\xff"), "\\xff");
  EXPECT_EQ(printable(std::string(200, 'x'), 10), std::string(10, 'x') + "…(+190 bytes)");
}

TEST(LogExhaustion, GuardedLogAllowsABurstThenTheRate) {
  GuardedLog log(10.0, 20.0);
  const auto t0 = GuardedLog::Clock::now();
  std::size_t suppressed = 0;
  int allowed = 0;
  for (int i = 0; i < 100; ++i) allowed += log.allow(suppressed, t0) ? 1 : 0;
  EXPECT_EQ(allowed, 20);
  EXPECT_TRUE(log.allow(suppressed, t0 + 150ms));  // one more token after 100 ms
  EXPECT_EQ(suppressed, 80u) << "the next line reports what was dropped";
  EXPECT_FALSE(log.allow(suppressed, t0 + 150ms));
}

}  // namespace
}  // namespace hamcp::test
