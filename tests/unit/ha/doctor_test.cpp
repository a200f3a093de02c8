#include "ha/doctor.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "fake_ha.hpp"
#include "loopback_servers.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
using namespace std::chrono_literals;

namespace {

DoctorReport doctor(const std::string& url, const std::string& token) {
  ConnectionInput in;
  in.url = url;
  in.token = token;
  DoctorOptions o;
  o.step_timeout = 3s;
  o.latency_samples = 3;
  boost::asio::io_context ioc;
  return run_bounded(ioc, run_doctor_checks(in, o), 30s);
}

const DoctorStep& step(const DoctorReport& r, const std::string& id) {
  for (const auto& s : r.steps) {
    if (s.id == id) return s;
  }
  throw std::runtime_error("no step " + id);
}

}  // namespace

TEST(Doctor, HealthyHomeAssistantPassesEveryStep) {
  FakeHa ha;
  auto r = doctor(ha.url(), ha.token());
  EXPECT_TRUE(r.ok()) << r.to_text();
  for (const char* id :
       {"url", "token", "dns", "tcp", "tls", "rest", "core_state", "websocket", "version", "entities", "latency"}) {
    EXPECT_EQ(step(r, id).status, StepStatus::ok) << id << "\n" << r.to_text();
  }
  EXPECT_NE(step(r, "version").summary.find("2026.1.0"), std::string::npos);
  EXPECT_NE(step(r, "entities").summary.find("4 entities"), std::string::npos);
  const std::string text = r.to_text();
  EXPECT_NE(text.find("Result: OK"), std::string::npos);
  EXPECT_EQ(text.find(ha.token()), std::string::npos);
  const auto j = r.to_json();
  EXPECT_TRUE(j.at("ok").as_bool());
  EXPECT_EQ(boost::json::serialize(j).find(ha.token()), std::string::npos);
}

TEST(Doctor, HttpsToPlainPortFailsAtTlsStepWithFix) {
  FakeHa ha;
  auto url = ha.url();
  url.replace(0, 4, "https");
  auto r = doctor(url, ha.token());
  EXPECT_FALSE(r.ok());
  const auto& tls = step(r, "tls");
  EXPECT_EQ(tls.status, StepStatus::failed);
  ASSERT_TRUE(tls.error);
  EXPECT_EQ(tls.error->cause, ErrorCause::tls_to_plain_port);
  EXPECT_NE(r.to_text().find("use http://"), std::string::npos);
  EXPECT_EQ(step(r, "rest").status, StepStatus::skipped);
}

TEST(Doctor, HttpToTlsPortFailsAtSniff) {
  auto cert = make_self_signed({"localhost"}, {"127.0.0.1"});
  StubHttpServer tls([](const StubRequest&) { return StubResponse{}; }, &cert);
  auto r = doctor("http://127.0.0.1:" + std::to_string(tls.port()), "tok-abcdef");
  const auto& s = step(r, "tls");
  EXPECT_EQ(s.status, StepStatus::failed);
  EXPECT_EQ(s.error->cause, ErrorCause::plain_to_tls_port);
}

TEST(Doctor, ClosedPortFailsAtTcp) {
  auto r = doctor("http://127.0.0.1:" + std::to_string(closed_port()), "tok-abcdef");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(step(r, "tcp").error->cause, ErrorCause::connection_refused);
  EXPECT_NE(r.to_text().find("Fix:"), std::string::npos);
}

TEST(Doctor, WrongTokenFailsAtRest) {
  FakeHa ha;
  auto r = doctor(ha.url(), "wrong-token-abcdef");
  EXPECT_EQ(step(r, "rest").error->cause, ErrorCause::unauthorized);
  EXPECT_NE(r.to_text().find("Long-lived access tokens"), std::string::npos);
}

TEST(Doctor, InvalidUrlAndMissingToken) {
  auto r = doctor("homeassistant.local:8123", "");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(step(r, "url").error->cause, ErrorCause::invalid_url);
  EXPECT_EQ(step(r, "tcp").status, StepStatus::skipped);
  FakeHa ha;
  auto r2 = doctor(ha.url(), "");
  EXPECT_EQ(step(r2, "token").error->cause, ErrorCause::missing_token);
}

TEST(Doctor, DnsFailure) {
  auto r = doctor("http://no-such-home.invalid:8123", "tok-abcdef");
  EXPECT_EQ(step(r, "dns").status, StepStatus::failed);
  EXPECT_EQ(step(r, "dns").error->cause, ErrorCause::dns_failure);
}

// A Home Assistant (or a proxy in front of it) that echoes the Authorization
// header into its answers: before the fix the REST step printed
// `GET /api/ -> 200 "Bearer <token>"` and the core-state failure its body.
TEST(Doctor, TokenEchoedByHomeAssistantIsNeverPrinted) {
  const std::string token = "echo-me-token-0123456789abcdef";
  StubHttpServer echo([](const StubRequest& req) {
    StubResponse r;
    if (req.target == "/api/core/state") {
      r.status = 500;
      r.content_type = "text/plain";
      r.body = "broken; you sent " + req.authorization;
    } else {
      r.body = R"({"message":"you sent )" + req.authorization + R"("})";
    }
    return r;
  });
  auto r = doctor("http://127.0.0.1:" + std::to_string(echo.port()), token);
  const std::string text = r.to_text();
  const std::string json_text = boost::json::serialize(r.to_json());
  EXPECT_EQ(text.find(token), std::string::npos) << text;
  EXPECT_EQ(json_text.find(token), std::string::npos) << json_text;
  // The echo itself still shows (redacted), so the report stays useful.
  EXPECT_NE(step(r, "rest").summary.find("you sent Bearer <redacted>"), std::string::npos) << text;
  ASSERT_TRUE(step(r, "core_state").error.has_value()) << text;
  EXPECT_NE(step(r, "core_state").error->detail.find("<redacted>"), std::string::npos) << text;
}
