#include "ha/doctor.hpp"

#include <algorithm>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <fmt/format.h>
#include <memory>

#include "ha/detail/transport.hpp"
#include "ha/rest_client.hpp"
#include "ha/scrub.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

using namespace detail;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

std::string_view to_string(StepStatus s) noexcept {
  switch (s) {
    case StepStatus::ok: return "ok";
    case StepStatus::warning: return "warning";
    case StepStatus::failed: return "failed";
    case StepStatus::skipped: return "skipped";
  }
  return "unknown";
}

bool DoctorReport::ok() const {
  return std::none_of(steps.begin(), steps.end(), [](const DoctorStep& s) { return s.status == StepStatus::failed; });
}

json::object DoctorReport::to_json() const {
  json::object o;
  o["target"] = target;
  o["ok"] = ok();
  json::array arr;
  for (const auto& s : steps) {
    json::object j;
    j["id"] = s.id;
    j["title"] = s.title;
    j["status"] = to_string(s.status);
    j["summary"] = s.summary;
    j["millis"] = std::round(s.millis * 10) / 10;
    if (s.error) j["error"] = s.error->to_json();
    arr.push_back(std::move(j));
  }
  o["steps"] = std::move(arr);
  return o;
}

std::string DoctorReport::to_text() const {
  std::string out = fmt::format("hamcp doctor: checking the connection to {}\n\n", target.empty() ? "?" : target);
  for (const auto& s : steps) {
    const char* mark = s.status == StepStatus::ok        ? "[ ok ]"
                       : s.status == StepStatus::warning ? "[warn]"
                       : s.status == StepStatus::failed  ? "[FAIL]"
                                                         : "[skip]";
    out += fmt::format("{} {:<18} {}", mark, s.title, s.summary);
    if (s.status == StepStatus::ok && s.millis >= 0.05) out += fmt::format(" ({:.1f} ms)", s.millis);
    out += "\n";
    if (s.error && (s.status == StepStatus::failed || s.status == StepStatus::warning)) {
      out += fmt::format("       Why: {}\n", s.error->explanation());
      if (!s.error->detail.empty()) out += fmt::format("       Detail: {}\n", s.error->detail);
      out += fmt::format("       Fix: {}\n", s.error->fix());
    }
  }
  const auto failed = std::count_if(steps.begin(), steps.end(), [](const DoctorStep& s) { return s.status == StepStatus::failed; });
  out += failed == 0 ? "\nResult: OK, hamcp can reach Home Assistant.\n"
                     : fmt::format("\nResult: FAILED ({} problem{}). Fix the first one listed; the later steps depend on it.\n",
                                   failed, failed == 1 ? "" : "s");
  return out;
}

namespace {

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Runner {
  DoctorReport& report;
  bool blocked = false;  // an earlier essential step failed

  DoctorStep& add(std::string id, std::string title) {
    DoctorStep step;
    step.id = std::move(id);
    step.title = std::move(title);
    report.steps.push_back(std::move(step));
    return report.steps.back();
  }
  DoctorStep& skip(std::string id, std::string title, std::string why) {
    auto& s = add(std::move(id), std::move(title));
    s.status = StepStatus::skipped;
    s.summary = std::move(why);
    return s;
  }
};

asio::awaitable<void> sleep_for(std::chrono::milliseconds d) {
  asio::steady_timer t(co_await asio::this_coro::executor, d);
  boost::system::error_code ec;
  co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

}  // namespace

asio::awaitable<DoctorReport> run_doctor_checks(ConnectionInput input, DoctorOptions options) {
  DoctorReport report;
  Runner run{report};
  auto executor = co_await asio::this_coro::executor;
  const char* needs = "skipped: an earlier step failed";

  // 1. URL
  auto parsed = make_connection_settings(input);
  {
    auto& step = run.add("url", "URL");
    if (auto* err = std::get_if<HaError>(&parsed)) {
      step.status = StepStatus::failed;
      step.summary = "invalid";
      step.error = *err;
      report.target = "(invalid URL)";
      for (auto [id, title] : {std::pair{"token", "Token"}, {"dns", "DNS lookup"}, {"tcp", "TCP connect"},
                               {"tls", "TLS / plain HTTP"}, {"rest", "REST API + token"},
                               {"core_state", "Core state"}, {"websocket", "WebSocket auth"},
                               {"entities", "Entities"}, {"latency", "Latency"}}) {
        run.skip(id, title, needs);
      }
      co_return report;
    }
  }
  ConnectionSettings s = std::get<ConnectionSettings>(parsed);
  s.request_timeout = options.step_timeout;
  s.connect_timeout = std::min(s.connect_timeout, options.step_timeout);
  report.target = s.display_url;
  report.steps.back().status = StepStatus::ok;
  report.steps.back().summary = fmt::format("{} ({}{})", s.display_url, s.tls ? "TLS" : "plain HTTP",
                                            s.supervisor ? ", Home Assistant add-on via Supervisor" : "");

  // 2. Token
  {
    auto& step = run.add("token", "Token");
    if (s.token.empty()) {
      step.status = StepStatus::failed;
      step.summary = "missing";
      step.error = make_error(ErrorCause::missing_token, {});
    } else {
      step.status = StepStatus::ok;
      step.summary = fmt::format("present ({} characters, not shown)", s.token.reveal().size());
    }
  }

  // 3. DNS
  std::string addresses;
  {
    auto& step = run.add("dns", "DNS lookup");
    const auto start = Clock::now();
    tcp::resolver resolver(executor);
    boost::system::error_code ec;
    const std::string port = std::to_string(s.port);
    auto results = co_await resolver.async_resolve(s.host, port, asio::redirect_error(asio::use_awaitable, ec));
    step.millis = ms_since(start);
    if (ec || results.empty()) {
      step.status = StepStatus::failed;
      step.summary = s.host + " does not resolve";
      step.error = classify_network_error(ec ? ec : asio::error::host_not_found, NetPhase::resolve, net_context(s));
      run.blocked = true;
    } else {
      for (const auto& r : results) {
        const std::string a = r.endpoint().address().to_string();
        if (addresses.find(a) == std::string::npos) addresses += (addresses.empty() ? "" : ", ") + a;
      }
      step.status = StepStatus::ok;
      step.summary = s.host + " -> " + addresses;
    }
  }

  // 4. TCP
  if (run.blocked) {
    run.skip("tcp", "TCP connect", needs);
  } else {
    auto& step = run.add("tcp", "TCP connect");
    const auto start = Clock::now();
    try {
      beast::tcp_stream stream(executor);
      auto ep = co_await connect_tcp(stream, s);
      step.millis = ms_since(start);
      step.status = StepStatus::ok;
      step.summary = fmt::format("connected to {}:{}", ep.address().to_string(), ep.port());
    } catch (const HaException& e) {
      step.millis = ms_since(start);
      step.status = StepStatus::failed;
      step.summary = "cannot connect";
      step.error = e.error();
      run.blocked = true;
    }
  }

  // 5. TLS or plain sniff
  if (run.blocked) {
    run.skip("tls", "TLS / plain HTTP", needs);
  } else {
    auto& step = run.add("tls", "TLS / plain HTTP");
    const auto start = Clock::now();
    if (s.tls) {
      std::optional<HaError> tls_error;
      try {
        auto ctx = make_ssl_context(s);
        TlsStream stream(executor, *ctx);
        co_await connect_tcp(beast::get_lowest_layer(stream), s);
        co_await tls_handshake(stream, s);
        step.status = StepStatus::ok;
        step.summary = fmt::format("TLS handshake ok ({}{})", SSL_get_version(stream.native_handle()),
                                   s.insecure_tls ? ", certificate NOT verified: insecure mode" : ", certificate verified");
        if (s.insecure_tls) step.status = StepStatus::warning;
      } catch (const HaException& e) {
        tls_error = e.error();
      }
      if (tls_error) {
        HaError err = *tls_error;
        step.status = StepStatus::failed;
        step.summary = "TLS handshake failed";
        if (err.cause == ErrorCause::tls_failure) {
          const bool plain = co_await port_speaks_plain_http(s);
          if (plain) err.cause = ErrorCause::tls_to_plain_port;
        }
        step.error = err;
        run.blocked = true;
      }
    } else {
      const bool speaks_tls = co_await port_speaks_tls(s);
      if (speaks_tls) {
        step.status = StepStatus::failed;
        step.summary = "the port answers with TLS";
        step.error = make_error(ErrorCause::plain_to_tls_port, s.display_url, "TLS handshake succeeded on this port");
        run.blocked = true;
      } else {
        step.status = StepStatus::ok;
        step.summary = "plain HTTP (no TLS on this port)";
      }
    }
    step.millis = ms_since(start);
  }

  // 6. REST /api/ with token
  RestClient rest(executor, s);
  RetryPolicy once;
  once.max_attempts = 1;
  rest.set_retry_policy(once);
  if (run.blocked) {
    run.skip("rest", "REST API + token", needs);
  } else {
    auto& step = run.add("rest", "REST API + token");
    const auto start = Clock::now();
    try {
      const std::string api_path = "/api/";
      json::value v = co_await rest.get_json(api_path);
      step.millis = ms_since(start);
      step.status = StepStatus::ok;
      std::string msg = "API running";
      if (const auto* o = v.if_object()) {
        if (const auto* m = o->if_contains("message"); m && m->is_string()) msg = std::string(m->as_string());
      }
      step.summary = fmt::format("GET {} -> 200 \"{}\"", s.http_target("/api/"), msg);
    } catch (const HaException& e) {
      step.millis = ms_since(start);
      step.status = StepStatus::failed;
      step.summary = "request failed";
      step.error = e.error();
      run.blocked = true;
    }
  }

  // 7. Core state (readiness)
  if (run.blocked) {
    run.skip("core_state", "Core state", needs);
  } else {
    auto& step = run.add("core_state", "Core state");
    try {
      const std::string core_path = "/api/core/state";
      Response r = co_await rest.get(core_path);
      if (r.status == 404) {
        step.status = StepStatus::skipped;
        step.summary = "not reported by this Home Assistant version";
      } else if (!r.ok()) {
        step.status = StepStatus::failed;
        step.error = classify_http_status(r.status, r.body, s.display_url);
        step.summary = fmt::format("HTTP {}", r.status);
      } else {
        std::string state = "?";
        if (auto v = r.json(); v.is_object()) {
          if (const auto* st = v.as_object().if_contains("state"); st && st->is_string()) state = std::string(st->as_string());
        }
        step.summary = state;
        if (state == "RUNNING") {
          step.status = StepStatus::ok;
        } else {
          step.status = StepStatus::warning;
          step.error = make_error(ErrorCause::ha_starting, s.display_url, "core state " + state);
        }
      }
    } catch (const HaException& e) {
      step.status = StepStatus::failed;
      step.summary = "request failed";
      step.error = e.error();
    }
  }

  // 8. WebSocket auth
  std::string ha_version;
  std::unique_ptr<WsClient> ws;
  if (run.blocked) {
    run.skip("websocket", "WebSocket auth", needs);
  } else {
    auto& step = run.add("websocket", "WebSocket auth");
    const auto start = Clock::now();
    WsOptions wo;
    wo.reconnect_initial = std::chrono::milliseconds(60000);  // one attempt is enough here
    ws = std::make_unique<WsClient>(executor, s, wo);
    ws->start();
    const auto deadline = Clock::now() + options.step_timeout + std::chrono::seconds(1);
    while (Clock::now() < deadline && ws->state() != WsState::connected && !ws->last_error()) {
      co_await sleep_for(std::chrono::milliseconds(10));
    }
    step.millis = ms_since(start);
    if (ws->state() == WsState::connected) {
      ha_version = ws->ha_version();
      step.status = StepStatus::ok;
      step.summary = fmt::format("authenticated at {}", s.ws_url());
    } else {
      step.status = StepStatus::failed;
      step.summary = "cannot authenticate";
      step.error = ws->last_error().value_or(make_error(ErrorCause::timeout, s.ws_url(), "no auth_ok in time"));
    }
  }

  // 9. Version
  {
    auto& step = run.add("version", "Home Assistant");
    if (!ha_version.empty()) {
      step.status = StepStatus::ok;
      step.summary = "version " + ha_version;
    } else if (!run.blocked) {
      try {
        const std::string config_path = "/api/config";
        json::value cfg = co_await rest.get_json(config_path);
        if (const auto* v = cfg.as_object().if_contains("version"); v && v->is_string()) {
          step.status = StepStatus::ok;
          step.summary = "version " + std::string(v->as_string());
        }
      } catch (const std::exception&) {
        step.summary = "unknown";
      }
    } else {
      step.summary = needs;
    }
  }

  // 10. Entities
  if (run.blocked) {
    run.skip("entities", "Entities", needs);
  } else {
    auto& step = run.add("entities", "Entities");
    const auto start = Clock::now();
    try {
      const std::string states_path = "/api/states";
      json::value states = co_await rest.get_json(states_path);
      step.millis = ms_since(start);
      const std::size_t n = states.is_array() ? states.as_array().size() : 0;
      step.status = n > 0 ? StepStatus::ok : StepStatus::warning;
      step.summary = fmt::format("{} entities visible to this token", n);
      if (n == 0) step.error = make_error(ErrorCause::forbidden, s.display_url, "GET /api/states returned no entities");
    } catch (const HaException& e) {
      step.status = StepStatus::failed;
      step.summary = "cannot list states";
      step.error = e.error();
    }
  }

  // 11. Latency
  if (run.blocked) {
    run.skip("latency", "Latency", needs);
  } else {
    auto& step = run.add("latency", "Latency");
    std::vector<double> rest_ms;
    try {
      for (int i = 0; i < options.latency_samples; ++i) {
        const auto start = Clock::now();
        const std::string api_path = "/api/";
        co_await rest.get(api_path);
        rest_ms.push_back(ms_since(start));
      }
      std::sort(rest_ms.begin(), rest_ms.end());
      std::string summary = fmt::format("REST median {:.1f} ms", rest_ms[rest_ms.size() / 2]);
      if (ws && ws->state() == WsState::connected) {
        std::vector<double> ws_ms;
        for (int i = 0; i < options.latency_samples; ++i) {
          const auto start = Clock::now();
          json::object ping;
          ping["type"] = "ping";
          co_await ws->command(std::move(ping));
          ws_ms.push_back(ms_since(start));
        }
        std::sort(ws_ms.begin(), ws_ms.end());
        summary += fmt::format(", WebSocket ping median {:.1f} ms", ws_ms[ws_ms.size() / 2]);
      }
      step.status = StepStatus::ok;
      step.summary = summary;
    } catch (const HaException& e) {
      step.status = StepStatus::warning;
      step.summary = "latency probe failed";
      step.error = e.error();
    }
  }
  if (ws) ws->stop();
  // Egress scrub: whatever HA echoed (a header, the auth message) into a
  // summary or an error detail, the report never shows the token.
  for (auto& step : report.steps) {
    step.summary = s.token.scrub(std::move(step.summary));
    if (step.error) scrub_error(*step.error, s.token);
  }
  co_return report;
}

}  // namespace hamcp::ha
