// Legacy HTTP+SSE transport (MCP 2024-11-05), for clients that predate
// Streamable HTTP: GET <sse path> opens the stream and announces where to POST
// (event "endpoint"); every answer then arrives on that stream as event
// "message". The session lives exactly as long as the stream.
#include "mcp/http/legacy_sse.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <functional>
#include <utility>

namespace hamcp::mcp::http {
namespace {

// Replies to POSTed messages go to the session's one stream; close() (the
// exchange is complete) gives the calls back to the in-flight budget.
class LegacyReplyChannel final : public Channel {
 public:
  LegacyReplyChannel(std::shared_ptr<EventStream> stream, std::function<void()> on_close)
      : stream_(std::move(stream)), on_close_(std::move(on_close)) {}
  ~LegacyReplyChannel() override { close(); }
  void send(json::value message) override { stream_->push(message); }
  void send_text(std::string text, const json::value& shape) override { stream_->push_text(std::move(text), shape); }
  void close() override {
    if (auto f = std::exchange(on_close_, nullptr)) f();
  }

 private:
  std::shared_ptr<EventStream> stream_;
  std::function<void()> on_close_;
};

std::string random_session_key() {
  unsigned char raw[16];
  random_bytes(raw, sizeof raw);
  SessionTokenPayload p;
  std::copy(std::begin(raw), std::end(raw), p.nonce.begin());
  return p.nonce_hex();
}

}  // namespace

asio::awaitable<void> LegacySse::handle_get(HttpRequest& req, ResponseWriter& w) {
  if (!host_->session_room()) {
    co_await w.send(host_->sessions_full());
    co_return;
  }
  const std::string key = random_session_key();
  auto hs = co_await host_->create_session(key, "2024-11-05", false, req.principal);
  host_->add_legacy(key, hs);
  co_await pump(w, hs, key);
  host_->remove_legacy(key);
  host_->end_session(hs, key);
}

asio::awaitable<void> LegacySse::pump(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                      const std::string& key) {
  auto waiter = std::make_shared<Waiter>(w.executor());
  auto gone = std::make_shared<std::atomic<bool>>(false);
  w.watch_peer([waiter, gone] {
    gone->store(true);
    waiter->notify();
  });
  auto stream = hs->standalone;
  stream->set_waiter(waiter);
  if (co_await w.begin_stream(sse_head())) {
    const std::string endpoint = opts_.legacy_messages_path + "?sessionId=" + key;
    const std::string first = sse_event("", "endpoint", endpoint);
    bool ok = co_await w.write(first);
    std::uint64_t cursor = 0;
    while (ok && !gone->load() && !w.stopping()) {
      auto batch = stream->read_after(cursor);
      for (auto& ev : batch.events) {
        const std::string frame = sse_event("", "message", ev.data);
        ok = co_await w.write(frame);
        if (!ok) break;
        cursor = ev.seq;
        stream->note_written(cursor);
      }
      if (!ok || batch.finished) break;
      co_await waiter->wait(opts_.sse_keepalive);
      if (stream->last_seq() == cursor && !gone->load() && !w.stopping()) ok = co_await w.write(": keepalive\n\n");
    }
    if (ok && !gone->load()) co_await w.end_stream();
  }
  stream->set_waiter(nullptr);
}

asio::awaitable<void> LegacySse::handle_post(HttpRequest& req, ResponseWriter& w) {
  const auto key = req.query_param("sessionId");
  if (!key || key->empty()) {
    co_await w.send(HttpResponse::text(400, "Missing sessionId query parameter\n"));
    co_return;
  }
  std::shared_ptr<HttpSession> hs = host_->find_legacy(*key);
  if (!hs) {
    co_await w.send(
        HttpResponse::text(404, "Session not found: open a new stream with GET " + opts_.legacy_sse_path + "\n"));
    co_return;
  }
  if (!hs->bind_principal(req.principal)) {
    co_await w.send(SessionHost::other_users_session());
    co_return;
  }
  const auto content_type = req.header("content-type");
  if (!content_type || !is_media_type(*content_type, "application/json")) {
    co_await w.send(HttpResponse::text(415, "Unsupported Media Type: Content-Type must be application/json\n"));
    co_return;
  }
  boost::system::error_code ec;
  json::value message = json::parse(req.body, ec);
  if (ec || !(message.is_object() || message.is_array())) {
    co_await w.send(HttpResponse::text(400, "Invalid message: body must be a JSON-RPC message\n"));
    co_return;
  }
  // The same call budget as Streamable HTTP: every batch item counts.
  const std::size_t calls_here = count_calls(message);
  if (auto refused = host_->take_calls(*hs, calls_here)) {
    co_await w.send(std::move(*refused));  // a JSON-RPC error object naming the limit
    co_return;
  }
  hs->touch();
  auto reply = std::make_shared<LegacyReplyChannel>(hs->standalone, host_->give_back(hs, calls_here));
  host_->deliver(hs, std::move(message), std::move(reply), req.principal);
  co_await w.send(HttpResponse::text(202, "Accepted"));
}

}  // namespace hamcp::mcp::http
