// Streamable HTTP (MCP 2025-11-25) on the MCP endpoint: POST (checks, session
// lookup, call admission, hand-over to the session) and DELETE. The answers
// (JSON body or SSE) and GET streams are in streamable_http_answers.cpp.
#include "mcp/http/streamable_http.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <variant>

namespace hamcp::mcp::http {
namespace {

constexpr std::string_view kAssumedProtocolVersion = "2025-03-26";  // header absent (spec)

bool is_request(const json::value& v) {
  if (!v.is_object()) return false;
  const auto& o = v.as_object();
  return o.contains("method") && o.contains("id");
}

// A POST body as JSON. The parser is kept per thread so that its working
// stack is not grown afresh (a handful of allocations) for every request. The
// message itself is in the default storage: its parts outlive the request
// (sessions and tasks keep them), and an arena per message measured no faster
// (bench/http/THROUGHPUT.md, session 9).
json::value parse_body(std::string_view body, boost::system::error_code& ec) {
  thread_local json::parser parser;
  parser.reset();
  parser.write(body.data(), body.size(), ec);
  if (ec) return nullptr;
  return parser.release();
}

bool is_initialize(const json::value& v) {
  if (!v.is_object()) return false;
  const auto* m = v.as_object().if_contains("method");
  return m && m->is_string() && m->as_string() == "initialize";
}
}  // namespace

HttpResponse StreamableHttp::session_not_found() { return HttpResponse::rpc_error(404, -32001, "Session not found"); }

// GET and DELETE need a live session: 400 without the header, 404 for an id that does not check
// out; otherwise the lookup.
std::variant<SessionRegistry::Lookup, HttpResponse> StreamableHttp::require_live_session(HttpRequest& req,
                                                                                         SessionRegistry& registry) {
  const auto sid = req.header("mcp-session-id");
  if (!sid) return HttpResponse::rpc_error(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  auto found = registry.lookup(*sid);
  if (found.status != SessionRegistry::Status::ok) return session_not_found();
  return found;
}

// nullopt when acceptable; else the 400 to send.
std::optional<HttpResponse> StreamableHttp::check_protocol_version_header(const HttpRequest& req) {
  const auto v = req.header("mcp-protocol-version");
  if (!v || is_supported_protocol_version(*v)) return std::nullopt;
  std::string supported;
  for (auto s : kSupportedProtocolVersions) {
    if (!supported.empty()) supported += ", ";
    supported += s;
  }
  return HttpResponse::rpc_error(
      400, -32000,
      "Bad Request: unsupported MCP-Protocol-Version '" + std::string(*v) + "' (supported: " + supported + ")");
}
StreamableHttp::StreamableHttp(std::shared_ptr<SessionHost> host, const HttpServerOptions& opts)
    : host_(std::move(host)), opts_(opts) {}

bool StreamableHttp::wants_priming(const HttpSession& hs) {
  // Older clients choke on an event with empty data; 2025-11-25 defined it.
  return hs.protocol_version >= "2025-11-25";
}

std::variant<StreamableHttp::Post, HttpResponse> StreamableHttp::check_post(const HttpRequest& req) {
  const auto content_type = req.header("content-type");
  if (!content_type || !is_media_type(*content_type, "application/json"))
    return HttpResponse::rpc_error(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  Post post;
  post.accepts = parse_accept(req.header("accept"));
  if (!post.accepts.json && !post.accepts.sse)
    return HttpResponse::rpc_error(406, -32000,
                                   "Not Acceptable: Accept must include application/json and text/event-stream");
  boost::system::error_code ec;
  post.message = parse_body(req.body, ec);
  if (ec) return HttpResponse::rpc_error(400, -32700, "Parse error: body is not valid JSON (" + ec.message() + ")");
  const json::value& message = post.message;
  if (!(message.is_object() || (message.is_array() && !message.as_array().empty())))
    return HttpResponse::rpc_error(400, -32600, "Invalid Request: expected a JSON-RPC message or batch");
  post.modern = is_modern_post(req, message);
  post.initialize = is_initialize(message) && !post.modern;
  post.has_requests = is_request(message);
  if (message.is_array()) {
    for (const auto& m : message.as_array()) {
      post.has_requests = post.has_requests || is_request(m);
      if (is_initialize(m))
        return HttpResponse::rpc_error(
            400, -32600,
            "Invalid Request: initialize must not be part of a JSON-RPC batch; send it as a message of its own");
    }
  }
  if (!post.initialize && !post.modern) {
    if (auto bad = check_protocol_version_header(req)) return std::move(*bad);
  }
  return post;
}

asio::awaitable<void> StreamableHttp::handle_post(HttpRequest& req, ResponseWriter& w, bool read_only) {
  auto checked = check_post(req);
  if (auto* reject = std::get_if<HttpResponse>(&checked)) {
    co_await w.send(std::move(*reject));
    co_return;
  }
  Post& post = std::get<Post>(checked);
  post.read_only = read_only;
  if (post.modern)
    co_await post_modern(req, w, std::move(post));
  else if (opts_.stateless)
    co_await post_stateless(req, w, std::move(post));
  else if (post.initialize)
    co_await post_initialize(req, w, std::move(post));
  else
    co_await post_to_session(req, w, std::move(post));
}

asio::awaitable<void> StreamableHttp::post_initialize(HttpRequest& req, ResponseWriter& w, Post post) {
  if (const auto sid = req.header("mcp-session-id")) {
    // A live id: the client is confused (second initialize). A stale,
    // revoked, expired or foreign id: start afresh — never strand a client.
    auto found = host_->registry()->lookup(*sid);
    if (found.status == SessionRegistry::Status::ok) {
      co_await w.send(HttpResponse::rpc_error(
          400, -32600,
          "Invalid Request: session already initialized; send initialize without Mcp-Session-Id to start a new one"));
      co_return;
    }
  }
  // The nonce is chosen now: it names the mcp::Session; the rest of the
  // payload is filled in once initialize has negotiated.
  if (!host_->session_room()) {
    co_await w.send(host_->sessions_full());
    co_return;
  }
  const std::uint8_t flags = post.read_only ? kSessionReadOnly : 0;
  SessionTokenPayload payload = make_session_payload(std::string(kLatestProtocolVersion), flags);
  auto hs = co_await host_->create_session(payload.nonce_hex(), kLatestProtocolVersion, post.read_only, req.principal);
  if (auto refused = host_->take_calls(*hs, 1)) {
    host_->shutdown_session(hs);
    co_await w.send(std::move(*refused));
    co_return;
  }
  auto stream = hs->new_stream();
  json::object params;
  if (const auto* p = post.message.as_object().if_contains("params"); p && p->is_object()) params = p->as_object();
  host_->deliver(hs, std::move(post.message), host_->reply_channel(hs, stream, 1));
  co_await respond_initialize(w, hs, stream, post.accepts, params, payload);
}

asio::awaitable<void> StreamableHttp::post_to_session(HttpRequest& req, ResponseWriter& w, Post post) {
  const auto sid = req.header("mcp-session-id");
  if (!sid) {
    co_await w.send(HttpResponse::rpc_error(400, -32000, "Bad Request: Mcp-Session-Id header is required"));
    co_return;
  }
  auto found = host_->registry()->lookup(*sid);
  if (found.status != SessionRegistry::Status::ok) {
    co_await w.send(session_not_found());
    co_return;
  }
  if (post.read_only && !(found.payload->capabilities & kSessionReadOnly)) {
    // A session may allow writes only where it was made; never mix the two.
    co_await w.send(HttpResponse::rpc_error(
        400, -32000,
        "Bad Request: this session was started on the read-write endpoint; send initialize to this read-only "
        "endpoint without Mcp-Session-Id to start a read-only session"));
    co_return;
  }
  std::shared_ptr<HttpSession> hs = found.live;  // the usual case: no coroutine to rebuild it
  if (!hs) hs = co_await host_->materialize(*found.payload, nullptr);
  if (!hs) {
    co_await w.send(host_->sessions_full());
    co_return;
  }
  if (!hs->bind_principal(req.principal)) {
    co_await w.send(SessionHost::other_users_session());
    co_return;
  }
  if (!post.has_requests) {
    host_->deliver(hs, std::move(post.message), std::make_shared<NullChannel>(), req.principal);
    HttpResponse accepted;
    accepted.status = 202;
    co_await w.send(std::move(accepted));
    co_return;
  }
  // Every call of a batch is work in flight: count them all.
  const std::size_t calls_here = count_calls(post.message);
  if (auto refused = host_->take_calls(*hs, calls_here)) {
    co_await w.send(std::move(*refused));
    co_return;
  }
  auto stream = hs->new_stream();
  // A session's POST stream can be resumed with Last-Event-ID (GET) when the
  // client knows SSE polling: it may then end on a release (SSE polling).
  if (wants_priming(*hs)) stream->set_resumable();
  host_->deliver(hs, std::move(post.message), host_->reply_channel(hs, stream, calls_here), req.principal);
  co_await respond(w, hs, stream, post.accepts);
}

asio::awaitable<void> StreamableHttp::handle_delete(HttpRequest& req, ResponseWriter& w) {
  if (opts_.stateless) {
    auto r = HttpResponse::rpc_error(405, -32000, "Method not allowed: stateless server has no sessions");
    r.set("Allow", "POST");
    co_await w.send(std::move(r));
    co_return;
  }
  auto checked = require_live_session(req, *host_->registry());
  if (auto* reject = std::get_if<HttpResponse>(&checked)) {
    co_await w.send(std::move(*reject));
    co_return;
  }
  auto& found = std::get<SessionRegistry::Lookup>(checked);
  bool recorded = true;
  try {
    host_->end_session(host_->registry()->revoke(*found.payload), found.payload->nonce_hex());
  } catch (const std::exception& e) {
    spdlog::error("http: {}", e.what());
    recorded = false;
  }
  if (!recorded) {
    co_await w.send(HttpResponse::rpc_error(500, -32603, "Internal error: could not record the session's end"));
    co_return;
  }
  spdlog::info("http: session {}… ended by the client", found.payload->nonce_hex().substr(0, 8));
  HttpResponse ok;
  ok.status = 200;
  co_await w.send(std::move(ok));
}

asio::awaitable<void> StreamableHttp::post_stateless(HttpRequest& req, ResponseWriter& w, Post post) {
  // No session ids: every POST gets a session of its own, initialized from what
  // the request says (protocol version header), and dropped afterwards.
  std::string version(req.header("mcp-protocol-version").value_or(kAssumedProtocolVersion));
  auto hs = co_await host_->stateless_session(std::move(version), post.initialize, post.read_only, req.principal);
  if (!post.has_requests) {
    host_->deliver(hs, std::move(post.message), std::make_shared<NullChannel>());
    HttpResponse accepted;
    accepted.status = 202;
    co_await w.send(std::move(accepted));
    co_return;
  }
  const std::size_t calls_here = count_calls(post.message);
  if (auto refused = host_->take_calls(*hs, calls_here)) {
    host_->shutdown_session(hs);
    co_await w.send(std::move(*refused));
    co_return;
  }
  auto stream = hs->new_stream();
  host_->deliver(hs, std::move(post.message), host_->reply_channel(hs, stream, calls_here));
  co_await respond(w, hs, stream, post.accepts);
  host_->shutdown_session(hs);
}

}  // namespace hamcp::mcp::http
