// How a doctor report reads: JSON for scripts, text for people.
#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>

#include "ha/doctor.hpp"

namespace hamcp::ha {

namespace json = boost::json;

std::string_view to_string(StepStatus s) noexcept {
  switch (s) {
    case StepStatus::ok:
      return "ok";
    case StepStatus::warning:
      return "warning";
    case StepStatus::failed:
      return "failed";
    case StepStatus::skipped:
      return "skipped";
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
  const auto failed =
      std::count_if(steps.begin(), steps.end(), [](const DoctorStep& s) { return s.status == StepStatus::failed; });
  out += failed == 0
             ? "\nResult: OK, hamcp can reach Home Assistant.\n"
             : fmt::format("\nResult: FAILED ({} problem{}). Fix the first one listed; the later steps depend on it.\n",
                           failed, failed == 1 ? "" : "s");
  return out;
}

}  // namespace hamcp::ha
