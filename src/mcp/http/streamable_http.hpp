#pragma once
// Internal to src/mcp/http: Streamable HTTP (MCP 2025-11-25) on the MCP
// endpoint, one part of HttpServer: POST (a message or batch; the answer as a
// JSON body or an SSE stream), GET (the standalone SSE stream, resumable with
// Last-Event-ID) and DELETE (end a session). streamable_http.cpp takes POSTs
// and DELETEs; streamable_http_answers.cpp writes answers and GET streams.
//
// Threading: no mutable state of its own; each handler runs as a coroutine on
// the calling connection's executor and reaches sessions only through
// SessionHost (thread-safe).

#include <memory>
#include <variant>

#include "mcp/http/session_host.hpp"

namespace hamcp::mcp::http {

class StreamableHttp {
 public:
  StreamableHttp(std::shared_ptr<SessionHost> host, const HttpServerOptions& opts);

  // `read_only`: the POST came to the read-only endpoint (<path>/readonly).
  asio::awaitable<void> handle_post(HttpRequest& req, ResponseWriter& w, bool read_only = false);
  asio::awaitable<void> handle_get(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_delete(HttpRequest& req, ResponseWriter& w);

 private:
  // A POST whose headers and body check out.
  struct Post {
    json::value message;
    Accepts accepts;
    bool initialize = false;
    bool has_requests = false;  // something that needs an answer
    bool read_only = false;     // to the read-only endpoint
    bool modern = false;        // a 2026-07-28 request (streamable_http_modern.cpp)
  };
  // The POST parsed, or the 4xx to answer with.
  static std::variant<Post, HttpResponse> check_post(const HttpRequest& req);
  asio::awaitable<void> post_initialize(HttpRequest& req, ResponseWriter& w, Post post);
  asio::awaitable<void> post_to_session(HttpRequest& req, ResponseWriter& w, Post post);
  asio::awaitable<void> post_stateless(HttpRequest& req, ResponseWriter& w, Post post);
  // 2026-07-28: header/body validation, then a session of its own per request.
  asio::awaitable<void> post_modern(HttpRequest& req, ResponseWriter& w, Post post);
  asio::awaitable<std::optional<std::string>> param_header_mismatch(const modern::HeaderLookup& lookup,
                                                                    const json::object& message);
  static bool is_modern_post(const HttpRequest& req, const json::value& message);
  // Writes one POST's answer: JSON for a lone response, SSE otherwise.
  // `modern`: the JSON answer's status follows its error (404 -32601, 400 for
  // the era's own errors), SSE streams carry no ids, and the stream ends when
  // the client leaves (a subscriptions/listen stream has no other end).
  asio::awaitable<void> respond(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                const std::shared_ptr<EventStream>& stream, Accepts accepts, bool modern = false);
  asio::awaitable<void> respond_initialize(ResponseWriter& w, std::shared_ptr<HttpSession> hs,
                                           const std::shared_ptr<EventStream>& stream, Accepts accepts,
                                           const json::object& params, SessionTokenPayload payload);
  // SSE polling: `retry`, then the end of this connection (not of the stream).
  asio::awaitable<void> release_sse(ResponseWriter& w, EventStream& stream);
  // Streams `stream` from `cursor` as SSE until it finishes, the peer leaves or
  // the server stops. `gone` set by the peer watch (GET streams only).
  // `event_ids` false: no `id:` lines (2026-07-28 has no resumption).
  asio::awaitable<void> pump_sse(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                 const std::shared_ptr<EventStream>& stream, std::uint64_t cursor,
                                 std::shared_ptr<Waiter> waiter, std::shared_ptr<std::atomic<bool>> gone,
                                 bool mark_delivered, bool event_ids = true);
  static bool wants_priming(const HttpSession& hs);
  static HttpResponse session_not_found();
  // GET and DELETE need a live session: 400 without the header, 404 for an id
  // that does not check out; otherwise the lookup.
  static std::variant<SessionRegistry::Lookup, HttpResponse> require_live_session(HttpRequest& req,
                                                                                  SessionRegistry& registry);
  // nullopt when acceptable; else the 400 to send.
  static std::optional<HttpResponse> check_protocol_version_header(const HttpRequest& req);

  const std::shared_ptr<SessionHost> host_;
  const HttpServerOptions& opts_;
};

}  // namespace hamcp::mcp::http
