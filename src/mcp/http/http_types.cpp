#include "mcp/http/http_types.hpp"

#include <boost/beast/core/string.hpp>

#include "common/ascii.hpp"

namespace hamcp::mcp::http {

std::optional<std::string_view> HttpRequest::header(std::string_view lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return std::string_view(value);
  }
  return std::nullopt;
}

std::optional<std::string> HttpRequest::query_param(std::string_view name) const {
  std::string_view rest = query;
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      return eq == std::string_view::npos ? std::string() : std::string(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

HttpResponse HttpResponse::json(unsigned status, const json::value& body) {
  HttpResponse r;
  r.status = status;
  r.set("Content-Type", "application/json");
  r.body = to_wire(body);
  return r;
}

HttpResponse HttpResponse::text(unsigned status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.set("Content-Type", "text/plain; charset=utf-8");
  r.body = std::move(body);
  return r;
}

HttpResponse HttpResponse::rpc_error(unsigned status, int code, std::string_view message) {
  json::object error;
  error["code"] = code;
  error["message"] = message;
  json::object body;
  body["jsonrpc"] = "2.0";
  body["error"] = std::move(error);
  body["id"] = nullptr;
  return json(status, body);
}

Accepts parse_accept(std::optional<std::string_view> accept) {
  if (!accept || ascii_trim(*accept).empty()) return Accepts{true, true};
  // A client sends the same Accept with every POST: the last answer is kept
  // per thread (parsing it compares up to six media types per item).
  struct Memo {
    std::string accept;
    Accepts parsed;
    bool set = false;
  };
  thread_local Memo memo;
  if (memo.set && memo.accept == *accept) return memo.parsed;
  Accepts a;
  std::string_view rest = *accept;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (is_media_type(item, "*/*"))
      a.json = a.sse = true;
    else if (is_media_type(item, "application/json") || is_media_type(item, "application/*"))
      a.json = true;
    else if (is_media_type(item, "text/event-stream") || is_media_type(item, "text/*"))
      a.sse = true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  memo.accept.assign(*accept);
  memo.parsed = a;
  memo.set = true;
  return a;
}

// Compared in place, not through a lower-cased copy: this runs for every POST.
bool is_media_type(std::string_view content_type, std::string_view type) {
  return boost::beast::iequals(ascii_trim(content_type.substr(0, content_type.find(';'))), type);
}

HttpResponse sse_head() {
  HttpResponse r;
  r.status = 200;
  r.set("Content-Type", "text/event-stream");
  r.set("Cache-Control", "no-cache, no-transform");
  r.set("X-Accel-Buffering", "no");  // reverse proxies (HA ingress nginx) must not buffer events
  return r;
}

}  // namespace hamcp::mcp::http
