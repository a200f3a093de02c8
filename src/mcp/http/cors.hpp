#pragma once
// CORS for browser-based MCP clients (an inspector or a web app on an origin
// the OriginPolicy allows). The Origin check itself stays in access_policy:
// an unlisted origin is refused with 403 before anything here runs, so CORS
// only opens the responses of origins hamcp already serves.
//
// The allowed origin is echoed (never "*"), with Vary: Origin; credentials
// (cookies) are not used by MCP, so Access-Control-Allow-Credentials is not
// sent: a bearer token travels in Authorization, which the preflight allows.

#include <memory>
#include <string>
#include <string_view>

#include "mcp/http/http_types.hpp"

namespace hamcp::mcp::http {

// OPTIONS with Origin and Access-Control-Request-Method.
bool is_cors_preflight(const HttpRequest& req);
// 204 with the allowed methods and request headers (Mcp-Session-Id,
// MCP-Protocol-Version, Last-Event-ID, Authorization, Content-Type,
// Mcp-Method, Mcp-Name, and any Mcp-Param-* the browser asks for).
HttpResponse cors_preflight_answer(const HttpRequest& req, std::string_view origin);
// Access-Control-Allow-Origin (echoed), Vary and the exposed response headers.
void add_cors_headers(HttpResponse& response, std::string_view origin);

// A ResponseWriter that adds the CORS headers to whatever the handler sends.
class CorsWriter final : public ResponseWriter {
 public:
  CorsWriter(ResponseWriter& inner, std::string origin) : inner_(inner), origin_(std::move(origin)) {}
  asio::awaitable<void> send(HttpResponse response) override;
  asio::awaitable<bool> begin_stream(HttpResponse head) override;
  asio::awaitable<bool> write(std::string_view chunk) override { return inner_.write(chunk); }
  asio::awaitable<void> end_stream() override { return inner_.end_stream(); }
  void watch_peer(std::function<void()> on_gone) override { inner_.watch_peer(std::move(on_gone)); }
  bool stopping() const override { return inner_.stopping(); }
  asio::any_io_executor executor() const override { return inner_.executor(); }

 private:
  ResponseWriter& inner_;
  std::string origin_;
};

}  // namespace hamcp::mcp::http
