#include "mcp/http/admission.hpp"

#include <algorithm>

namespace hamcp::mcp::http {

namespace {
bool is_call(const json::value& v) {
  if (!v.is_object()) return false;
  const auto& o = v.as_object();
  return o.contains("method") && o.contains("id");
}
}  // namespace

std::size_t count_calls(const json::value& message) {
  if (!message.is_array()) return is_call(message) ? 1 : 0;
  std::size_t n = 0;
  for (const auto& item : message.as_array()) n += is_call(item) ? 1 : 0;
  return n;
}

CallBudget::Verdict CallBudget::take(std::atomic<std::size_t>& session_in_flight, std::size_t calls) {
  if (!try_take(session_in_flight, calls, max_per_session_)) return Verdict::session_full;
  const bool light = session_in_flight.load() <= kLightCalls;
  const std::size_t cap = light ? max_global_ : max_global_ - reserved_;
  if (!try_take(global_, calls, cap)) {
    session_in_flight -= calls;
    return Verdict::server_full;
  }
  return Verdict::admitted;
}

void CallBudget::give_back(std::atomic<std::size_t>& session_in_flight, std::size_t calls) {
  session_in_flight -= calls;
  global_ -= calls;
}

}  // namespace hamcp::mcp::http
