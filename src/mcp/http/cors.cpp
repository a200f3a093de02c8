// CORS headers and preflight answers (cors.hpp).
#include "mcp/http/cors.hpp"

#include <cctype>

#include "common/ascii.hpp"

namespace hamcp::mcp::http {
namespace {

constexpr std::string_view kAllowedHeaders =
    "Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Authorization, Content-Type, Accept, Mcp-Method, Mcp-Name";
constexpr std::string_view kExposedHeaders = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After";

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

// The Mcp-Param-* names of Access-Control-Request-Headers (2026-07-28 sends
// one per routed parameter, so they cannot be listed in advance). Only
// header-name characters are kept.
std::string requested_param_headers(std::optional<std::string_view> requested) {
  std::string out;
  std::string_view rest = requested.value_or("");
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view name = ascii_trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (!starts_with_nocase(name, "mcp-param-") || name.size() > 128) continue;
    bool token = true;
    for (char c : name) token = token && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
    if (!token) continue;
    out += ", ";
    out += name;
  }
  return out;
}

}  // namespace

bool is_cors_preflight(const HttpRequest& req) {
  return req.method == "OPTIONS" && req.header("origin") && req.header("access-control-request-method");
}

HttpResponse cors_preflight_answer(const HttpRequest& req, std::string_view origin) {
  HttpResponse r;
  r.status = 204;
  r.set("Access-Control-Allow-Origin", std::string(origin));
  r.set("Vary", "Origin");
  r.set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  r.set("Access-Control-Allow-Headers",
        std::string(kAllowedHeaders) + requested_param_headers(req.header("access-control-request-headers")));
  r.set("Access-Control-Max-Age", "600");
  return r;
}

void add_cors_headers(HttpResponse& response, std::string_view origin) {
  response.set("Access-Control-Allow-Origin", std::string(origin));
  response.set("Vary", "Origin");
  response.set("Access-Control-Expose-Headers", std::string(kExposedHeaders));
}

asio::awaitable<void> CorsWriter::send(HttpResponse response) {
  add_cors_headers(response, origin_);
  co_await inner_.send(std::move(response));
}

asio::awaitable<bool> CorsWriter::begin_stream(HttpResponse head) {
  add_cors_headers(head, origin_);
  co_return co_await inner_.begin_stream(std::move(head));
}

}  // namespace hamcp::mcp::http
