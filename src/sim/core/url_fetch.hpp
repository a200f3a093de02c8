#pragma once
// A blocking HTTP GET for the simulator's blueprint/import, which fetches the
// URL itself as Home Assistant does (so a test can serve a blueprint from a
// loopback HTTP server). http:// only; one request, no redirects, bounded in
// time and size. Runs its own io_context: call it off the simulator's thread.

#include <chrono>
#include <string>

namespace hamcp::sim {

struct FetchResult {
  int status = 0;  // HTTP status; 0 when no answer
  bool timed_out = false;
  std::string body;
  std::string error;  // why there is no answer (connection refused, bad URL, ...)
};

FetchResult fetch_url(const std::string& url, std::chrono::milliseconds timeout, std::size_t max_body = 1u << 20);

}  // namespace hamcp::sim
