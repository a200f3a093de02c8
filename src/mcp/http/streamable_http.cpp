// Streamable HTTP (MCP 2025-11-25): POST / GET / DELETE on the MCP endpoint.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <variant>

#include "mcp/http/server_impl.hpp"

namespace hamcp::mcp::http {
namespace {

constexpr std::string_view kAssumedProtocolVersion = "2025-03-26";  // header absent (spec)

bool is_request(const json::value& v) {
  if (!v.is_object()) return false;
  const auto& o = v.as_object();
  return o.contains("method") && o.contains("id");
}

bool is_initialize(const json::value& v) {
  if (!v.is_object()) return false;
  const auto* m = v.as_object().if_contains("method");
  return m && m->is_string() && m->as_string() == "initialize";
}

HttpResponse session_not_found() { return HttpResponse::rpc_error(404, -32001, "Session not found"); }

// GET and DELETE need a live session: 400 without the header, 404 for an id that does not check
// out; otherwise the lookup.
std::variant<SessionRegistry::Lookup, HttpResponse> require_live_session(HttpRequest& req, SessionRegistry& registry) {
  const auto sid = req.header("mcp-session-id");
  if (!sid) return HttpResponse::rpc_error(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  auto found = registry.lookup(*sid);
  if (found.status != SessionRegistry::Status::ok) return session_not_found();
  return found;
}

// nullopt when acceptable; else the 400 to send.
std::optional<HttpResponse> check_protocol_version_header(const HttpRequest& req) {
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

std::string string_field(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace

bool HttpServer::Impl::wants_priming(const HttpSession& hs) const {
  // Older clients choke on an event with empty data; 2025-11-25 defined it.
  return hs.protocol_version >= "2025-11-25";
}

void HttpServer::Impl::deliver(const std::shared_ptr<HttpSession>& hs, json::value message,
                               std::shared_ptr<Channel> reply) {
  asio::post(server_ex, [session = hs->session, message = std::move(message), reply = std::move(reply)]() mutable {
    session->deliver(std::move(message), std::move(reply));
  });
}

asio::awaitable<std::shared_ptr<HttpSession>> HttpServer::Impl::create_session(std::string key) {
  auto hs = new_http_session(key, std::string(kLatestProtocolVersion));
  Server* srv = &server;
  // GCC 12: a capturing lambda inside a co_await expression is destroyed twice; name it.
  auto on_server = [srv, hs, key] {
    auto s = srv->create_session(key);
    s->set_standalone_channel(std::make_shared<PersistentChannel>(hs->standalone));
    return s;
  };
  hs->session = co_await run_on(server_ex, std::move(on_server));
  co_return hs;
}

asio::awaitable<std::shared_ptr<HttpSession>> HttpServer::Impl::materialize(const SessionTokenPayload& payload,
                                                                            std::shared_ptr<HttpSession> live) {
  if (live) co_return live;
  if (!session_room()) co_return nullptr;
  // A valid id we hold no state for: after a restart, an eviction, or issued by
  // another process sharing the key. Rebuild it; the client never notices.
  const std::string key = payload.nonce_hex();
  auto hs = new_http_session(key, payload.protocol_version);
  Server* srv = &server;
  SessionInfo info = session_info_from(payload);
  // GCC 12: a capturing lambda inside a co_await expression is destroyed twice; name it.
  auto on_server = [srv, hs, key, info = std::move(info)]() mutable {
    auto s = srv->restore_session(key, std::move(info));
    s->set_standalone_channel(std::make_shared<PersistentChannel>(hs->standalone));
    return s;
  };
  hs->session = co_await run_on(server_ex, std::move(on_server));
  std::vector<std::shared_ptr<HttpSession>> evicted;
  auto winner = registry->insert(hs, evicted);
  if (winner != hs)
    shutdown_session(hs);  // another request rebuilt it first
  else
    spdlog::info("http: restored session {}… from its id (protocol {})", key.substr(0, 8), payload.protocol_version);
  co_return winner;
}

asio::awaitable<void> HttpServer::Impl::handle_post(HttpRequest& req, ResponseWriter& w) {
  const auto content_type = req.header("content-type");
  if (!content_type || media_type(*content_type) != "application/json") {
    co_await w.send(
        HttpResponse::rpc_error(415, -32000, "Unsupported Media Type: Content-Type must be application/json"));
    co_return;
  }
  const Accepts accepts = parse_accept(req.header("accept"));
  if (!accepts.json && !accepts.sse) {
    co_await w.send(HttpResponse::rpc_error(
        406, -32000, "Not Acceptable: Accept must include application/json and text/event-stream"));
    co_return;
  }
  boost::system::error_code ec;
  json::value message = json::parse(req.body, ec);
  if (ec) {
    co_await w.send(HttpResponse::rpc_error(400, -32700, "Parse error: body is not valid JSON (" + ec.message() + ")"));
    co_return;
  }
  if (!(message.is_object() || (message.is_array() && !message.as_array().empty()))) {
    co_await w.send(HttpResponse::rpc_error(400, -32600, "Invalid Request: expected a JSON-RPC message or batch"));
    co_return;
  }
  bool init = is_initialize(message);
  bool has_requests = is_request(message);
  if (message.is_array()) {
    for (const auto& m : message.as_array()) {
      has_requests = has_requests || is_request(m);
      if (is_initialize(m)) {
        co_await w.send(HttpResponse::rpc_error(400, -32600, "Invalid Request: initialize must not be batched"));
        co_return;
      }
    }
  }
  if (!init) {
    if (auto bad = check_protocol_version_header(req)) {
      co_await w.send(std::move(*bad));
      co_return;
    }
  }
  if (opts.stateless) {
    co_await handle_stateless_post(req, w, std::move(message), init, has_requests, accepts);
    co_return;
  }

  std::shared_ptr<HttpSession> hs;
  const auto sid = req.header("mcp-session-id");
  if (init) {
    if (sid) {
      // A live id: the client is confused (second initialize). A stale,
      // revoked, expired or foreign id: start afresh — never strand a client.
      auto found = registry->lookup(*sid);
      if (found.status == SessionRegistry::Status::ok) {
        co_await w.send(HttpResponse::rpc_error(
            400, -32600,
            "Invalid Request: session already initialized; send initialize without Mcp-Session-Id to start a new one"));
        co_return;
      }
    }
    // The nonce is chosen now: it names the mcp::Session; the rest of the
    // payload is filled in once initialize has negotiated.
    if (!session_room()) {
      co_await w.send(sessions_full());
      co_return;
    }
    SessionTokenPayload payload = make_session_payload(std::string(kLatestProtocolVersion), 0);
    hs = co_await create_session(payload.nonce_hex());
    if (auto refused = take_calls(*hs, 1)) {
      shutdown_session(hs);
      co_await w.send(std::move(*refused));
      co_return;
    }
    auto stream = hs->new_stream();
    auto self = shared_from_this();
    auto channel = std::make_shared<StreamChannel>(stream, [self, hs] { self->calls.give_back(hs->in_flight, 1); });
    json::object params;
    if (const auto* p = message.as_object().if_contains("params"); p && p->is_object()) params = p->as_object();
    deliver(hs, std::move(message), std::move(channel));
    co_await respond_initialize(w, hs, stream, accepts, params, payload);
    co_return;
  }

  if (!sid) {
    co_await w.send(HttpResponse::rpc_error(400, -32000, "Bad Request: Mcp-Session-Id header is required"));
    co_return;
  }
  auto found = registry->lookup(*sid);
  if (found.status != SessionRegistry::Status::ok) {
    co_await w.send(session_not_found());
    co_return;
  }
  hs = co_await materialize(*found.payload, found.live);
  if (!hs) {
    co_await w.send(sessions_full());
    co_return;
  }

  if (!has_requests) {
    deliver(hs, std::move(message), std::make_shared<NullChannel>());
    HttpResponse accepted;
    accepted.status = 202;
    co_await w.send(std::move(accepted));
    co_return;
  }
  // Every call of a batch is work in flight: count them all.
  const std::size_t calls_here = count_calls(message);
  if (auto refused = take_calls(*hs, calls_here)) {
    co_await w.send(std::move(*refused));
    co_return;
  }
  auto stream = hs->new_stream();
  auto self = shared_from_this();
  auto channel = std::make_shared<StreamChannel>(
      stream, [self, hs, calls_here] { self->calls.give_back(hs->in_flight, calls_here); });
  deliver(hs, std::move(message), std::move(channel));
  co_await respond(w, hs, stream, accepts);
}

asio::awaitable<void> HttpServer::Impl::respond_initialize(ResponseWriter& w, std::shared_ptr<HttpSession> hs,
                                                           const std::shared_ptr<EventStream>& stream, Accepts accepts,
                                                           const json::object& params, SessionTokenPayload payload) {
  auto waiter = std::make_shared<Waiter>(w.executor());
  stream->set_waiter(waiter);
  std::optional<StreamEvent> response;
  std::vector<StreamEvent> before;
  for (;;) {
    auto batch = stream->read_after(0);
    for (auto& ev : batch.events) {
      if (ev.is_response) {
        response = std::move(ev);
        break;
      }
      before.push_back(std::move(ev));
    }
    if (response || batch.finished) break;
    co_await waiter->wait(std::chrono::seconds(30));
  }
  stream->set_waiter(nullptr);
  if (!response) {
    shutdown_session(hs);
    co_await w.send(HttpResponse::rpc_error(500, -32603, "Internal error: initialize produced no response"));
    co_return;
  }
  HttpResponse head = accepts.json ? HttpResponse{} : sse_head();
  // Only a successful initialize creates a session id.
  boost::system::error_code ec;
  json::value parsed = json::parse(response->data, ec);
  const json::object* result = nullptr;
  if (!ec && parsed.is_object()) {
    if (const auto* r = parsed.as_object().if_contains("result"); r && r->is_object()) result = &r->as_object();
  }
  if (result) {
    std::string version = string_field(*result, "protocolVersion");
    if (version.empty()) version = std::string(kLatestProtocolVersion);
    json::object caps, client;
    if (const auto* c = params.if_contains("capabilities"); c && c->is_object()) caps = c->as_object();
    if (const auto* c = params.if_contains("clientInfo"); c && c->is_object()) client = c->as_object();
    const SessionTokenPayload filled = make_session_payload(
        version, capability_bits(caps), string_field(client, "name"), string_field(client, "version"));
    payload.protocol_version = filled.protocol_version;
    payload.capabilities = filled.capabilities;
    payload.client_name = filled.client_name;
    payload.client_version = filled.client_version;
    hs->protocol_version = version;
    std::vector<std::shared_ptr<HttpSession>> evicted;
    registry->insert(hs, evicted);
    head.set("Mcp-Session-Id", registry->issue(payload));
  } else {
    shutdown_session(hs);
  }
  if (accepts.json) {
    head.status = 200;
    head.set("Content-Type", "application/json");
    head.body = std::move(response->data);
    co_await w.send(std::move(head));
    co_return;
  }
  if (!co_await w.begin_stream(std::move(head))) co_return;
  for (auto& ev : before) {
    const std::string id = make_event_id(hs->instance, stream->number(), ev.seq);
    if (!co_await w.write(sse_event(id, "", ev.data))) co_return;
  }
  const std::string id = make_event_id(hs->instance, stream->number(), response->seq);
  if (!co_await w.write(sse_event(id, "", response->data))) co_return;
  co_await w.end_stream();
}

asio::awaitable<void> HttpServer::Impl::respond(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                                const std::shared_ptr<EventStream>& stream, Accepts accepts) {
  auto waiter = std::make_shared<Waiter>(w.executor());
  stream->set_waiter(waiter);
  const auto switch_at = std::chrono::steady_clock::now() + opts.sse_switch_after;
  bool use_sse = false;
  // Phase 1: JSON for a lone response; SSE as soon as anything else must go
  // first (or the request stays silent long enough to need keep-alives).
  for (;;) {
    auto batch = stream->read_after(0);
    if (!batch.events.empty()) {
      use_sse = accepts.sse && !(batch.events.front().is_response && accepts.json);
      break;
    }
    if (batch.finished) {  // cancelled: nothing to answer
      stream->set_waiter(nullptr);
      HttpResponse accepted;
      accepted.status = 202;
      co_await w.send(std::move(accepted));
      co_return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (accepts.sse && now >= switch_at) {
      use_sse = true;
      break;
    }
    const auto wait_for =
        accepts.sse ? (switch_at - now) : std::chrono::steady_clock::duration(std::chrono::seconds(60));
    co_await waiter->wait(wait_for);
  }
  if (!use_sse) {
    // JSON only: the final response is the body; anything before it (only
    // possible when the client refused SSE) cannot be delivered.
    std::uint64_t cursor = 0;
    for (;;) {
      auto batch = stream->read_after(cursor);
      for (auto& ev : batch.events) {
        cursor = ev.seq;
        if (ev.is_response) {
          stream->set_waiter(nullptr);
          HttpResponse body;
          body.set("Content-Type", "application/json");
          body.body = std::move(ev.data);
          co_await w.send(std::move(body));
          co_return;
        }
      }
      if (batch.finished) {
        stream->set_waiter(nullptr);
        HttpResponse accepted;
        accepted.status = 202;
        co_await w.send(std::move(accepted));
        co_return;
      }
      co_await waiter->wait(std::chrono::seconds(60));
    }
  }
  if (!co_await w.begin_stream(sse_head())) {
    stream->set_waiter(nullptr);
    co_return;
  }
  if (wants_priming(*hs)) {
    const std::string id = make_event_id(hs->instance, stream->number(), 0);
    if (!co_await w.write(sse_event(id, "", ""))) {
      stream->set_waiter(nullptr);
      co_return;
    }
  }
  co_await pump_sse(w, hs, stream, 0, waiter, nullptr, false);
}

asio::awaitable<void> HttpServer::Impl::pump_sse(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                                 const std::shared_ptr<EventStream>& stream, std::uint64_t cursor,
                                                 std::shared_ptr<Waiter> waiter,
                                                 std::shared_ptr<std::atomic<bool>> gone, bool mark_delivered) {
  stream->set_waiter(waiter);
  for (;;) {
    auto batch = stream->read_after(cursor);
    for (auto& ev : batch.events) {
      const std::string id = make_event_id(hs->instance, stream->number(), ev.seq);
      const std::string frame = sse_event(id, "", ev.data);
      if (!co_await w.write(frame)) {
        // The peer left: the stream keeps collecting (a dropped connection is
        // not a cancel) so the client can resume with Last-Event-ID.
        stream->set_waiter(nullptr);
        co_return;
      }
      cursor = ev.seq;
      if (mark_delivered) stream->mark_delivered(cursor);
    }
    if (batch.finished) {
      stream->set_waiter(nullptr);
      co_await w.end_stream();
      co_return;
    }
    if ((gone && gone->load()) || w.stopping()) {
      stream->set_waiter(nullptr);
      co_await w.end_stream();
      co_return;
    }
    co_await waiter->wait(opts.sse_keepalive);
    if (stream->last_seq() == cursor && !stream->finished() && !(gone && gone->load()) && !w.stopping()) {
      if (!co_await w.write(": keepalive\n\n")) {
        stream->set_waiter(nullptr);
        co_return;
      }
    }
  }
}

asio::awaitable<void> HttpServer::Impl::handle_get(HttpRequest& req, ResponseWriter& w) {
  if (opts.stateless || !opts.get_stream) {
    auto r = HttpResponse::rpc_error(405, -32000, "Method not allowed: this server offers no GET stream");
    r.set("Allow", opts.stateless ? "POST" : "POST, DELETE");
    co_await w.send(std::move(r));
    co_return;
  }
  if (!parse_accept(req.header("accept")).sse) {
    co_await w.send(HttpResponse::rpc_error(406, -32000, "Not Acceptable: Accept must include text/event-stream"));
    co_return;
  }
  if (auto bad = check_protocol_version_header(req)) {
    co_await w.send(std::move(*bad));
    co_return;
  }
  auto checked = require_live_session(req, *registry);
  if (auto* reject = std::get_if<HttpResponse>(&checked)) {
    co_await w.send(std::move(*reject));
    co_return;
  }
  auto& found = std::get<SessionRegistry::Lookup>(checked);
  auto hs = co_await materialize(*found.payload, found.live);
  if (!hs) {
    co_await w.send(sessions_full());
    co_return;
  }

  // Resumption: Last-Event-ID names the stream and the last event received.
  std::shared_ptr<EventStream> stream = hs->standalone;
  std::uint64_t cursor = stream->delivered();
  if (const auto last = req.header("last-event-id")) {
    if (auto parsed = parse_event_id(*last); parsed && parsed->instance == hs->instance) {
      if (auto s = hs->find_stream(parsed->stream)) {
        stream = s;
        cursor = parsed->seq;
      }
    }
  }
  const bool standalone = stream == hs->standalone;
  if (standalone && !stream->try_attach()) {
    co_await w.send(HttpResponse::rpc_error(409, -32000, "Conflict: only one SSE stream is allowed per session"));
    co_return;
  }
  auto waiter = std::make_shared<Waiter>(w.executor());
  auto gone = std::make_shared<std::atomic<bool>>(false);
  w.watch_peer([waiter, gone] {
    gone->store(true);
    waiter->notify();
  });
  if (co_await w.begin_stream(sse_head())) {
    bool ok = true;
    if (wants_priming(*hs)) {
      const std::string id = make_event_id(hs->instance, stream->number(), cursor);
      ok = co_await w.write(sse_event(id, "", ""));
    }
    if (ok) co_await pump_sse(w, hs, stream, cursor, waiter, gone, standalone);
  }
  stream->set_waiter(nullptr);
  if (standalone) stream->detach();
}

asio::awaitable<void> HttpServer::Impl::handle_delete(HttpRequest& req, ResponseWriter& w) {
  if (opts.stateless) {
    auto r = HttpResponse::rpc_error(405, -32000, "Method not allowed: stateless server has no sessions");
    r.set("Allow", "POST");
    co_await w.send(std::move(r));
    co_return;
  }
  auto checked = require_live_session(req, *registry);
  if (auto* reject = std::get_if<HttpResponse>(&checked)) {
    co_await w.send(std::move(*reject));
    co_return;
  }
  auto& found = std::get<SessionRegistry::Lookup>(checked);
  bool recorded = true;
  try {
    shutdown_session(registry->revoke(*found.payload));
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

asio::awaitable<void> HttpServer::Impl::handle_stateless_post(HttpRequest& req, ResponseWriter& w, json::value message,
                                                              bool is_initialize, bool has_requests, Accepts accepts) {
  // No session ids: every POST gets a session of its own, initialized from what
  // the request says (protocol version header), and dropped afterwards.
  std::string version(req.header("mcp-protocol-version").value_or(kAssumedProtocolVersion));
  auto hs = new_http_session(std::string(), version);
  Server* srv = &server;
  // GCC 12: a capturing lambda inside a co_await expression is destroyed twice; name it.
  auto on_server = [srv, is_initialize, version] {
    if (is_initialize) return srv->create_session();
    SessionInfo info;
    info.protocol_version = version;
    return srv->restore_session({}, std::move(info));
  };
  hs->session = co_await run_on(server_ex, std::move(on_server));
  if (!has_requests) {
    deliver(hs, std::move(message), std::make_shared<NullChannel>());
    HttpResponse accepted;
    accepted.status = 202;
    co_await w.send(std::move(accepted));
    co_return;
  }
  const std::size_t calls_here = count_calls(message);
  if (auto refused = take_calls(*hs, calls_here)) {
    asio::post(server_ex, [hs] { hs->session->shutdown(); });
    co_await w.send(std::move(*refused));
    co_return;
  }
  auto stream = hs->new_stream();
  auto self = shared_from_this();
  auto channel = std::make_shared<StreamChannel>(
      stream, [self, hs, calls_here] { self->calls.give_back(hs->in_flight, calls_here); });
  deliver(hs, std::move(message), std::move(channel));
  co_await respond(w, hs, stream, accepts);
  asio::post(server_ex, [hs] { hs->session->shutdown(); });
}

}  // namespace hamcp::mcp::http
