// Streamable HTTP answers: one POST's answer (a JSON body for a lone
// response, SSE otherwise; initialize's answer carries the new session id) and
// the standalone GET stream, resumable with Last-Event-ID.
#include <spdlog/spdlog.h>

#include <variant>

#include "common/json_fields.hpp"
#include "mcp/http/streamable_http.hpp"
#include "mcp/modern_era.hpp"

namespace hamcp::mcp::http {
namespace {

// A 2026-07-28 answer's HTTP status follows its JSON-RPC error (modern_era.hpp).
unsigned modern_status(const std::string& data) {
  boost::system::error_code ec;
  json::value parsed = json::parse(data, ec);
  if (ec || !parsed.is_object()) return 200;
  const auto* error = parsed.as_object().if_contains("error");
  if (!error || !error->is_object()) return 200;
  const auto* code = error->as_object().if_contains("code");
  if (!code || !code->is_int64()) return 200;
  return static_cast<unsigned>(modern::http_status_for(static_cast<int>(code->as_int64())));
}

// A JSON-RPC response as the body of a 200 (the POST's answer without SSE).
asio::awaitable<void> send_json(ResponseWriter& w, std::string data, bool modern = false) {
  HttpResponse body;
  if (modern) body.status = modern_status(data);
  body.set("Content-Type", "application/json");
  body.body = std::move(data);
  co_await w.send(std::move(body));
}

}  // namespace

asio::awaitable<void> StreamableHttp::respond_initialize(ResponseWriter& w, std::shared_ptr<HttpSession> hs,
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
    host_->shutdown_session(hs);
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
    std::string version = string_or_empty(*result, "protocolVersion");
    if (version.empty()) version = std::string(kLatestProtocolVersion);
    json::object caps, client;
    if (const auto* c = params.if_contains("capabilities"); c && c->is_object()) caps = c->as_object();
    if (const auto* c = params.if_contains("clientInfo"); c && c->is_object()) client = c->as_object();
    const SessionTokenPayload filled = make_session_payload(
        version, capability_bits(caps), string_or_empty(client, "name"), string_or_empty(client, "version"));
    payload.protocol_version = filled.protocol_version;
    payload.capabilities = filled.capabilities | (payload.capabilities & kSessionReadOnly);
    payload.client_name = filled.client_name;
    payload.client_version = filled.client_version;
    hs->protocol_version = version;
    std::vector<std::shared_ptr<HttpSession>> evicted;
    host_->registry()->insert(hs, evicted);
    head.set("Mcp-Session-Id", host_->registry()->issue(payload));
  } else {
    host_->shutdown_session(hs);
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

namespace {
// 202 without a body: nothing to answer (a cancelled request).
HttpResponse accepted_response() {
  HttpResponse r;
  r.status = 202;
  return r;
}

// Made on the first wait only: a call that never suspends has answered inside
// deliver(), before StreamableHttp::respond runs (Session::spawn_request).
std::shared_ptr<Waiter> attach_waiter(ResponseWriter& w, EventStream& stream) {
  auto waiter = std::make_shared<Waiter>(w.executor());
  stream.set_waiter(waiter);
  return waiter;
}

// JSON only: the final response is the body; anything before it (only
// possible when the client refused SSE) cannot be delivered.
asio::awaitable<void> respond_json_only(ResponseWriter& w, EventStream& stream, Waiter& waiter, bool modern) {
  std::uint64_t cursor = 0;
  for (;;) {
    auto batch = stream.read_after(cursor);
    for (auto& ev : batch.events) {
      cursor = ev.seq;
      if (ev.is_response) {
        stream.set_waiter(nullptr);
        co_await send_json(w, std::move(ev.data), modern);
        co_return;
      }
    }
    if (batch.finished) {
      stream.set_waiter(nullptr);
      co_await w.send(accepted_response());
      co_return;
    }
    co_await waiter.wait(std::chrono::seconds(60));
  }
}
}  // namespace

asio::awaitable<void> StreamableHttp::respond(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                              const std::shared_ptr<EventStream>& stream, Accepts accepts,
                                              bool modern) {
  std::shared_ptr<Waiter> waiter;  // attach_waiter()
  const auto switch_at = std::chrono::steady_clock::now() + opts_.sse_switch_after;
  bool use_sse = false;
  // Phase 1: JSON for a lone response; SSE as soon as anything else must go
  // first (or the request stays silent long enough to need keep-alives).
  for (;;) {
    auto batch = stream->read_after(0);
    if (!batch.events.empty()) {
      use_sse = accepts.sse && !(batch.events.front().is_response && accepts.json);
      if (!use_sse && batch.events.front().is_response) {
        // The usual case: the answer is here already; send this copy rather than reading it again.
        stream->set_waiter(nullptr);
        co_await send_json(w, std::move(batch.events.front().data), modern);
        co_return;
      }
      break;
    }
    if (batch.finished) {  // cancelled: nothing to answer
      stream->set_waiter(nullptr);
      co_await w.send(accepted_response());
      co_return;
    }
    const auto now = std::chrono::steady_clock::now();
    // A release (SSE polling) needs an event id at the client first: go SSE now.
    if (accepts.sse && (now >= switch_at || stream->release_requested())) {
      use_sse = true;
      break;
    }
    if (!waiter) {  // attached, then read again: an event pushed in between is not missed
      waiter = attach_waiter(w, *stream);
      continue;
    }
    const auto wait_for =
        accepts.sse ? (switch_at - now) : std::chrono::steady_clock::duration(std::chrono::seconds(60));
    co_await waiter->wait(wait_for);
  }
  if (!waiter) waiter = attach_waiter(w, *stream);  // every read below comes before its wait
  if (!use_sse) {
    auto answering = respond_json_only(w, *stream, *waiter, modern);  // named before co_await (GCC 12)
    co_await std::move(answering);
    co_return;
  }
  if (!co_await w.begin_stream(sse_head())) {
    stream->set_waiter(nullptr);
    co_return;
  }
  if (modern) {
    auto gone = std::make_shared<std::atomic<bool>>(false);
    w.watch_peer([waiter, gone] {
      gone->store(true);
      waiter->notify();
    });
    // 2026-07-28 has no Last-Event-ID resumption: its streams carry no ids.
    co_await pump_sse(w, hs, stream, 0, waiter, gone, false, false);
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

asio::awaitable<void> StreamableHttp::pump_sse(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                               const std::shared_ptr<EventStream>& stream, std::uint64_t cursor,
                                               std::shared_ptr<Waiter> waiter, std::shared_ptr<std::atomic<bool>> gone,
                                               bool mark_delivered, bool event_ids) {
  stream->set_waiter(waiter);
  // SSE polling: a resumable stream (the client holds its event ids) ends its
  // connection on a release request or after sse_poll_after.
  const bool resumable = stream->resumable();
  const auto poll_at = std::chrono::steady_clock::now() + opts_.sse_poll_after;
  const bool poll_by_time = resumable && opts_.sse_poll_after.count() > 0;
  for (;;) {
    auto batch = stream->read_after(cursor);
    for (auto& ev : batch.events) {
      const std::string id = event_ids ? make_event_id(hs->instance, stream->number(), ev.seq) : std::string();
      const std::string frame = sse_event(id, "", ev.data);
      if (!co_await w.write(frame)) {
        // The peer left: the stream keeps collecting (a dropped connection is
        // not a cancel) so the client can resume with Last-Event-ID.
        stream->set_waiter(nullptr);
        co_return;
      }
      cursor = ev.seq;
      stream->note_written(cursor);
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
    const auto now = std::chrono::steady_clock::now();
    if (resumable && (stream->release_requested() || (poll_by_time && now >= poll_at))) {
      co_await release_sse(w, *stream);
      co_return;
    }
    auto wait_for = std::chrono::duration_cast<std::chrono::milliseconds>(opts_.sse_keepalive);
    if (poll_by_time)
      wait_for = std::min(wait_for, std::chrono::duration_cast<std::chrono::milliseconds>(poll_at - now) +
                                        std::chrono::milliseconds(1));
    co_await waiter->wait(wait_for);
    if (stream->last_seq() == cursor && !stream->finished() && !(gone && gone->load()) && !w.stopping()) {
      if (!co_await w.write(": keepalive\n\n")) {
        stream->set_waiter(nullptr);
        co_return;
      }
    }
  }
}

asio::awaitable<void> StreamableHttp::release_sse(ResponseWriter& w, EventStream& stream) {
  // The stream goes on collecting; the client reconnects (GET with
  // Last-Event-ID) after `retry` and gets what came since.
  stream.clear_release();
  stream.set_waiter(nullptr);
  const std::string retry = sse_retry(opts_.sse_retry);  // named: GCC 12 coroutine temporaries
  if (co_await w.write(retry)) co_await w.end_stream();
}

asio::awaitable<void> StreamableHttp::handle_get(HttpRequest& req, ResponseWriter& w) {
  if (opts_.stateless || !opts_.get_stream) {
    auto r = HttpResponse::rpc_error(405, -32000, "Method not allowed: this server offers no GET stream");
    r.set("Allow", opts_.stateless ? "POST" : "POST, DELETE");
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
  auto checked = require_live_session(req, *host_->registry());
  if (auto* reject = std::get_if<HttpResponse>(&checked)) {
    co_await w.send(std::move(*reject));
    co_return;
  }
  auto& found = std::get<SessionRegistry::Lookup>(checked);
  auto hs = co_await host_->materialize(*found.payload, found.live);
  if (!hs) {
    co_await w.send(host_->sessions_full());
    co_return;
  }
  if (!hs->bind_principal(req.principal)) {  // another user's notifications are not yours
    co_await w.send(SessionHost::other_users_session());
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

}  // namespace hamcp::mcp::http
