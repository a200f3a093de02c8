#pragma once
// `hamcp doctor`: checks the way to Home Assistant one step at a time (URL,
// token, DNS, TCP, TLS-or-plain, REST auth, core state, WebSocket auth,
// version, entity count, latency) and explains every failure with its fix.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ha/connection_config.hpp"
#include "ha/errors.hpp"

namespace hamcp::ha {

enum class StepStatus { ok, warning, failed, skipped };
std::string_view to_string(StepStatus s) noexcept;

struct DoctorStep {
  std::string id;     // "url", "dns", "tcp", "tls", "rest", "core_state", "websocket", ...
  std::string title;  // "TCP connect"
  StepStatus status = StepStatus::skipped;
  std::string summary;  // what was found
  std::optional<HaError> error;
  double millis = 0;
};

struct DoctorReport {
  std::string target;
  std::vector<DoctorStep> steps;
  bool ok() const;  // no failed step
  boost::json::object to_json() const;
  std::string to_text() const;
};

struct DoctorOptions {
  std::chrono::milliseconds step_timeout{10000};
  int latency_samples = 5;
};

boost::asio::awaitable<DoctorReport> run_doctor_checks(ConnectionInput input, DoctorOptions options = {});

}  // namespace hamcp::ha
