// Streamable HTTP for MCP 2026-07-28 beside the 2025 handshake era: which POSTs
// are modern, the request-metadata header checks (HeaderMismatch -32020), the
// per-request _meta checks (400), and a session of its own for each request
// (no Mcp-Session-Id: one is ignored, none is minted).
#include "mcp/errors.hpp"
#include "mcp/http/streamable_http.hpp"
#include "mcp/modern_era.hpp"

namespace hamcp::mcp::http {
namespace {

const json::object& params_of(const json::object& message) {
  static const json::object kEmpty;
  const json::value* p = message.if_contains("params");
  return (p && p->is_object()) ? p->as_object() : kEmpty;
}

// An error answer that keeps the request's id (the 2026 era requires it).
HttpResponse modern_error(unsigned status, const json::object& message, int code, std::string_view text,
                          json::value data = nullptr) {
  const json::value* id = message.if_contains("id");
  json::value reply_id = id ? *id : json::value(nullptr);
  return HttpResponse::json(status, make_error_response(std::move(reply_id), code, text, std::move(data)));
}

}  // namespace

bool StreamableHttp::is_modern_post(const HttpRequest& req, const json::value& message) {
  if (const auto version = req.header("mcp-protocol-version"); version && modern::is_modern_version(*version))
    return true;
  if (!message.is_object()) return false;
  const json::object& obj = message.as_object();
  const json::value* method = obj.if_contains("method");
  if (!method || !method->is_string() || !obj.contains("id")) return false;
  return modern::is_modern_request(method->as_string(), params_of(obj));
}

// A tools/call's Mcp-Param-* headers against its arguments (SEP-2243): only
// the tools that annotate parameters with x-mcp-header cost a look-up.
asio::awaitable<std::optional<std::string>> StreamableHttp::param_header_mismatch(const modern::HeaderLookup& lookup,
                                                                                  const json::object& message) {
  const json::value* method = message.if_contains("method");
  if (!method || !method->is_string() || method->get_string() != "tools/call") co_return std::nullopt;
  const json::object& params = params_of(message);
  const json::value* name = params.if_contains("name");
  if (!name || !name->is_string()) co_return std::nullopt;
  std::string tool_name(name->get_string());
  auto declared = co_await host_->param_headers(std::move(tool_name));
  if (declared.empty()) co_return std::nullopt;
  static const json::object kNoArguments;
  const json::value* arguments = params.if_contains("arguments");
  const json::object& args = (arguments && arguments->is_object()) ? arguments->get_object() : kNoArguments;
  co_return modern::param_header_mismatch(lookup, declared, args);
}

asio::awaitable<void> StreamableHttp::post_modern(HttpRequest& req, ResponseWriter& w, Post post) {
  if (!post.message.is_object()) {
    co_await w.send(HttpResponse::rpc_error(400, error_code::invalid_request,
                                            "Invalid Request: MCP 2026-07-28 sends one message per POST, no batches"));
    co_return;
  }
  const json::object& message = post.message.as_object();
  const modern::HeaderLookup lookup = [&req](std::string_view name) -> std::optional<std::string> {
    auto value = req.header(name);
    if (!value) return std::nullopt;
    return std::string(*value);
  };
  std::optional<std::string> mismatch = modern::header_mismatch(lookup, message);
  if (!mismatch) mismatch = co_await param_header_mismatch(lookup, message);
  if (mismatch) {
    co_await w.send(modern_error(400, message, error_code::header_mismatch, *mismatch));
    co_return;
  }
  if (!post.has_requests) {  // 2026-07-28 defines no client notifications over HTTP
    HttpResponse accepted;
    accepted.status = 202;
    co_await w.send(std::move(accepted));
    co_return;
  }
  std::optional<HttpResponse> malformed;
  try {
    modern::check_request_meta(params_of(message));
  } catch (const McpError& e) {
    malformed = modern_error(400, message, e.code(), e.what(), e.data());
  }
  if (malformed) {
    co_await w.send(std::move(*malformed));
    co_return;
  }
  auto hs = co_await host_->stateless_session(std::string(modern::kVersion), false, post.read_only, req.principal);
  if (auto refused = host_->take_calls(*hs, 1)) {
    host_->shutdown_session(hs);
    co_await w.send(std::move(*refused));
    co_return;
  }
  auto stream = hs->new_stream();
  host_->deliver(hs, std::move(post.message), host_->reply_channel(hs, stream, 1));
  co_await respond(w, hs, stream, post.accepts, true);
  host_->shutdown_session(hs);
}

}  // namespace hamcp::mcp::http
