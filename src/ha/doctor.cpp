// `hamcp doctor`: the connection to Home Assistant checked step by step (URL,
// token, DNS, TCP, TLS or plain HTTP, REST, core state, WebSocket, version,
// entities, latency). A failed essential step skips the ones that depend on it.
#include "ha/doctor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <memory>

#include "ha/detail/transport.hpp"
#include "ha/rest_client.hpp"
#include "ha/scrub.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

using namespace detail;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kNeedsEarlierStep = "skipped: an earlier step failed";

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

asio::awaitable<void> sleep_for(std::chrono::milliseconds d) {
  asio::steady_timer t(co_await asio::this_coro::executor, d);
  boost::system::error_code ec;
  co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

// One run of the checks: the report being written, the settings under test,
// and what the steps hand on to later ones (REST client, WebSocket, version).
class Checkup {
 public:
  Checkup(DoctorReport& report, ConnectionSettings settings, DoctorOptions options, asio::any_io_executor executor)
      : report_(report), s_(std::move(settings)), options_(options), executor_(executor), rest_(executor, s_) {
    RetryPolicy once;
    once.max_attempts = 1;
    rest_.set_retry_policy(once);
  }

  asio::awaitable<void> run_all() {
    token();
    co_await dns();
    co_await tcp();
    co_await tls();
    co_await rest_api();
    co_await core_state();
    co_await websocket();
    co_await version();
    co_await entities();
    co_await latency();
    finish();
  }

 private:
  DoctorStep& add(std::string id, std::string title) {
    DoctorStep step;
    step.id = std::move(id);
    step.title = std::move(title);
    report_.steps.push_back(std::move(step));
    return report_.steps.back();
  }
  // True (after recording the step as skipped) when an earlier essential step failed.
  bool skipped(std::string id, std::string title) {
    if (!blocked_) return false;
    auto& step = add(std::move(id), std::move(title));
    step.status = StepStatus::skipped;
    step.summary = kNeedsEarlierStep;
    return true;
  }
  void fail(DoctorStep& step, std::string summary, HaError error, bool essential = true) {
    step.status = StepStatus::failed;
    step.summary = std::move(summary);
    step.error = std::move(error);
    if (essential) blocked_ = true;
  }

  void token() {
    auto& step = add("token", "Token");
    if (s_.token.empty()) {
      fail(step, "missing", make_error(ErrorCause::missing_token, {}), false);
      return;
    }
    step.status = StepStatus::ok;
    step.summary = fmt::format("present ({} characters, not shown)", s_.token.reveal().size());
  }

  asio::awaitable<void> dns() {
    auto& step = add("dns", "DNS lookup");
    const auto start = Clock::now();
    tcp::resolver resolver(executor_);
    boost::system::error_code ec;
    const std::string port = std::to_string(s_.port);
    auto results = co_await resolver.async_resolve(s_.host, port, asio::redirect_error(asio::use_awaitable, ec));
    step.millis = ms_since(start);
    if (ec || results.empty()) {
      const auto cause = ec ? ec : make_error_code(asio::error::host_not_found);
      fail(step, s_.host + " does not resolve", classify_network_error(cause, NetPhase::resolve, net_context(s_)));
      co_return;
    }
    std::string addresses;
    for (const auto& r : results) {
      const std::string a = r.endpoint().address().to_string();
      if (addresses.find(a) == std::string::npos) addresses += (addresses.empty() ? "" : ", ") + a;
    }
    step.status = StepStatus::ok;
    step.summary = s_.host + " -> " + addresses;
  }

  asio::awaitable<void> tcp() {
    if (skipped("tcp", "TCP connect")) co_return;
    auto& step = add("tcp", "TCP connect");
    const auto start = Clock::now();
    try {
      beast::tcp_stream stream(executor_);
      auto ep = co_await connect_tcp(stream, s_);
      step.millis = ms_since(start);
      step.status = StepStatus::ok;
      step.summary = fmt::format("connected to {}:{}", ep.address().to_string(), ep.port());
    } catch (const HaException& e) {
      step.millis = ms_since(start);
      fail(step, "cannot connect", e.error());
    }
  }

  asio::awaitable<void> tls() {
    if (skipped("tls", "TLS / plain HTTP")) co_return;
    auto& step = add("tls", "TLS / plain HTTP");
    const auto start = Clock::now();
    if (s_.tls) {
      co_await tls_handshake_step(step);
    } else {
      co_await plain_http_step(step);
    }
    step.millis = ms_since(start);
  }

  asio::awaitable<void> tls_handshake_step(DoctorStep& step) {
    std::optional<HaError> tls_error;
    try {
      auto ctx = make_ssl_context(s_);
      TlsStream stream(executor_, *ctx);
      co_await connect_tcp(beast::get_lowest_layer(stream), s_);
      co_await tls_handshake(stream, s_);
      step.status = s_.insecure_tls ? StepStatus::warning : StepStatus::ok;
      step.summary =
          fmt::format("TLS handshake ok ({}{})", SSL_get_version(stream.native_handle()),
                      s_.insecure_tls ? ", certificate NOT verified: insecure mode" : ", certificate verified");
    } catch (const HaException& e) {
      tls_error = e.error();
    }
    if (!tls_error) co_return;
    HaError err = *tls_error;
    if (err.cause == ErrorCause::tls_failure) {
      const bool plain = co_await port_speaks_plain_http(s_);
      if (plain) err.cause = ErrorCause::tls_to_plain_port;
    }
    fail(step, "TLS handshake failed", err);
  }

  asio::awaitable<void> plain_http_step(DoctorStep& step) {
    const bool speaks_tls = co_await port_speaks_tls(s_);
    if (speaks_tls) {
      fail(step, "the port answers with TLS",
           make_error(ErrorCause::plain_to_tls_port, s_.display_url, "TLS handshake succeeded on this port"));
      co_return;
    }
    step.status = StepStatus::ok;
    step.summary = "plain HTTP (no TLS on this port)";
  }

  asio::awaitable<void> rest_api() {
    if (skipped("rest", "REST API + token")) co_return;
    auto& step = add("rest", "REST API + token");
    const auto start = Clock::now();
    try {
      const std::string api_path = "/api/";
      json::value v = co_await rest_.get_json(api_path);
      step.millis = ms_since(start);
      step.status = StepStatus::ok;
      std::string msg = "API running";
      if (const auto* o = v.if_object()) {
        if (const auto* m = o->if_contains("message"); m && m->is_string()) msg = std::string(m->as_string());
      }
      step.summary = fmt::format("GET {} -> 200 \"{}\"", s_.http_target("/api/"), msg);
    } catch (const HaException& e) {
      step.millis = ms_since(start);
      fail(step, "request failed", e.error());
    }
  }

  asio::awaitable<void> core_state() {
    if (skipped("core_state", "Core state")) co_return;
    auto& step = add("core_state", "Core state");
    try {
      const std::string core_path = "/api/core/state";
      Response r = co_await rest_.get(core_path);
      if (r.status == 404) {
        step.status = StepStatus::skipped;
        step.summary = "not reported by this Home Assistant version";
      } else if (!r.ok()) {
        fail(step, fmt::format("HTTP {}", r.status), classify_http_status(r.status, r.body, s_.display_url), false);
      } else {
        std::string state = "?";
        if (auto v = r.json(); v.is_object()) {
          if (const auto* st = v.as_object().if_contains("state"); st && st->is_string())
            state = std::string(st->as_string());
        }
        step.summary = state;
        step.status = state == "RUNNING" ? StepStatus::ok : StepStatus::warning;
        if (state != "RUNNING") step.error = make_error(ErrorCause::ha_starting, s_.display_url, "core state " + state);
      }
    } catch (const HaException& e) {
      fail(step, "request failed", e.error(), false);
    }
  }

  asio::awaitable<void> websocket() {
    if (skipped("websocket", "WebSocket auth")) co_return;
    auto& step = add("websocket", "WebSocket auth");
    const auto start = Clock::now();
    WsOptions wo;
    wo.reconnect_initial = std::chrono::milliseconds(60000);  // one attempt is enough here
    ws_ = std::make_unique<WsClient>(executor_, s_, wo);
    ws_->start();
    const auto deadline = Clock::now() + options_.step_timeout + std::chrono::seconds(1);
    while (Clock::now() < deadline && ws_->state() != WsState::connected && !ws_->last_error()) {
      co_await sleep_for(std::chrono::milliseconds(10));
    }
    step.millis = ms_since(start);
    if (ws_->state() != WsState::connected) {
      fail(step, "cannot authenticate",
           ws_->last_error().value_or(make_error(ErrorCause::timeout, s_.ws_url(), "no auth_ok in time")), false);
      co_return;
    }
    ha_version_ = ws_->ha_version();
    step.status = StepStatus::ok;
    step.summary = fmt::format("authenticated at {}", s_.ws_url());
  }

  asio::awaitable<void> version() {
    auto& step = add("version", "Home Assistant");
    if (!ha_version_.empty()) {
      step.status = StepStatus::ok;
      step.summary = "version " + ha_version_;
      co_return;
    }
    if (blocked_) {
      step.summary = kNeedsEarlierStep;
      co_return;
    }
    try {
      const std::string config_path = "/api/config";
      json::value cfg = co_await rest_.get_json(config_path);
      if (const auto* v = cfg.as_object().if_contains("version"); v && v->is_string()) {
        step.status = StepStatus::ok;
        step.summary = "version " + std::string(v->as_string());
      }
    } catch (const std::exception&) {
      step.summary = "unknown";
    }
  }

  asio::awaitable<void> entities() {
    if (skipped("entities", "Entities")) co_return;
    auto& step = add("entities", "Entities");
    const auto start = Clock::now();
    try {
      const std::string states_path = "/api/states";
      json::value states = co_await rest_.get_json(states_path);
      step.millis = ms_since(start);
      const std::size_t n = states.is_array() ? states.as_array().size() : 0;
      step.status = n > 0 ? StepStatus::ok : StepStatus::warning;
      step.summary = fmt::format("{} entities visible to this token", n);
      if (n == 0)
        step.error = make_error(ErrorCause::forbidden, s_.display_url, "GET /api/states returned no entities");
    } catch (const HaException& e) {
      fail(step, "cannot list states", e.error(), false);
    }
  }

  // Median of `samples` timed calls of `once`.
  template <class Once>
  asio::awaitable<double> median_ms(int samples, Once once) {
    std::vector<double> ms;
    for (int i = 0; i < samples; ++i) {
      const auto start = Clock::now();
      co_await once();
      ms.push_back(ms_since(start));
    }
    std::sort(ms.begin(), ms.end());
    co_return ms[ms.size() / 2];
  }

  asio::awaitable<void> latency() {
    if (skipped("latency", "Latency")) co_return;
    auto& step = add("latency", "Latency");
    try {
      // Named lambdas: GCC 12 miscompiles temporaries inside a co_await expression.
      auto rest_probe = [this]() -> asio::awaitable<void> {
        const std::string api_path = "/api/";
        co_await rest_.get(api_path);
      };
      const double rest_ms = co_await median_ms(options_.latency_samples, rest_probe);
      std::string summary = fmt::format("REST median {:.1f} ms", rest_ms);
      if (ws_ && ws_->state() == WsState::connected) {
        auto ws_probe = [this]() -> asio::awaitable<void> {
          json::object ping;
          ping["type"] = "ping";
          co_await ws_->command(std::move(ping));
        };
        const double ws_ms = co_await median_ms(options_.latency_samples, ws_probe);
        summary += fmt::format(", WebSocket ping median {:.1f} ms", ws_ms);
      }
      step.status = StepStatus::ok;
      step.summary = summary;
    } catch (const HaException& e) {
      step.status = StepStatus::warning;
      step.summary = "latency probe failed";
      step.error = e.error();
    }
  }

  void finish() {
    if (ws_) ws_->stop();
    // Egress scrub: whatever HA echoed (a header, the auth message) into a
    // summary or an error detail, the report never shows the token.
    for (auto& step : report_.steps) {
      step.summary = s_.token.scrub(std::move(step.summary));
      if (step.error) scrub_error(*step.error, s_.token);
    }
  }

  DoctorReport& report_;
  ConnectionSettings s_;
  DoctorOptions options_;
  asio::any_io_executor executor_;
  RestClient rest_;
  std::unique_ptr<WsClient> ws_;
  std::string ha_version_;
  bool blocked_ = false;  // an essential step failed: the later ones are skipped
};

// The URL step: a report for an invalid URL (every later step skipped), or the settings.
std::optional<ConnectionSettings> check_url(const ConnectionInput& input, const DoctorOptions& options,
                                            DoctorReport& report) {
  DoctorStep step;
  step.id = "url";
  step.title = "URL";
  auto parsed = make_connection_settings(input);
  if (auto* err = std::get_if<HaError>(&parsed)) {
    step.status = StepStatus::failed;
    step.summary = "invalid";
    step.error = *err;
    report.target = "(invalid URL)";
    report.steps.push_back(std::move(step));
    for (auto [id, title] : {std::pair{"token", "Token"},
                             {"dns", "DNS lookup"},
                             {"tcp", "TCP connect"},
                             {"tls", "TLS / plain HTTP"},
                             {"rest", "REST API + token"},
                             {"core_state", "Core state"},
                             {"websocket", "WebSocket auth"},
                             {"entities", "Entities"},
                             {"latency", "Latency"}}) {
      DoctorStep skipped;
      skipped.id = id;
      skipped.title = title;
      skipped.status = StepStatus::skipped;
      skipped.summary = kNeedsEarlierStep;
      report.steps.push_back(std::move(skipped));
    }
    return std::nullopt;
  }
  ConnectionSettings s = std::get<ConnectionSettings>(parsed);
  s.request_timeout = options.step_timeout;
  s.connect_timeout = std::min(s.connect_timeout, options.step_timeout);
  report.target = s.display_url;
  step.status = StepStatus::ok;
  step.summary = fmt::format("{} ({}{})", s.display_url, s.tls ? "TLS" : "plain HTTP",
                             s.supervisor ? ", Home Assistant add-on via Supervisor" : "");
  report.steps.push_back(std::move(step));
  return s;
}

}  // namespace

asio::awaitable<DoctorReport> run_doctor_checks(ConnectionInput input, DoctorOptions options) {
  DoctorReport report;
  auto settings = check_url(input, options, report);
  if (!settings) co_return report;
  auto executor = co_await asio::this_coro::executor;
  Checkup checkup(report, std::move(*settings), options, executor);
  co_await checkup.run_all();
  co_return report;
}

}  // namespace hamcp::ha
