#include "ha/ws_client.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <unordered_map>
#include <variant>

#include "common/isolated_await.hpp"
#include "ha/detail/deep_frame.hpp"
#include "ha/detail/ha_json.hpp"
#include "ha/detail/repeat_limiter.hpp"
#include "ha/detail/transport.hpp"

namespace hamcp::ha {

using namespace detail;
namespace websocket = boost::beast::websocket;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

std::string_view to_string(WsState s) noexcept {
  switch (s) {
    case WsState::idle:
      return "idle";
    case WsState::connecting:
      return "connecting";
    case WsState::connected:
      return "connected";
    case WsState::waiting_to_reconnect:
      return "waiting_to_reconnect";
    case WsState::stopped:
      return "stopped";
  }
  return "unknown";
}

namespace {

using PlainWs = websocket::stream<beast::tcp_stream>;
using SecureWs = websocket::stream<TlsStream>;

// One command waiting for its result. The timer doubles as the wake-up signal
// (cancelled on completion) and the deadline.
struct Waiter {
  explicit Waiter(const asio::any_io_executor& ex) : timer(ex) {}
  asio::steady_timer timer;
  std::optional<json::value> result;
  std::optional<HaError> error;
  bool done() const { return result || error; }
};

struct Subscription {
  json::object message;  // without id
  WsClient::EventHandler handler;
  std::uint64_t wire_id = 0;  // id on the current connection, 0 = not sent
  bool first = true;
};

// A received frame waiting to be dispatched in order (big ones parse elsewhere).
struct Slot {
  bool ready = false;
  json::value value;
  std::optional<std::string> parse_error;
  // Messages nesting deeper than kHaJsonMaxDepth, reduced to their top-level
  // scalars (deep_frame.hpp): each fails its command or is skipped as an event.
  std::vector<json::object> too_deep;
};

}  // namespace

struct WsClient::Impl : std::enable_shared_from_this<WsClient::Impl> {
  asio::any_io_executor executor;
  asio::strand<asio::any_io_executor> strand;
  ConnectionSettings settings;
  WsOptions options;
  std::shared_ptr<ssl::context> ssl_ctx;
  asio::thread_pool parse_pool{1};

  // ---- strand-only state ----
  // shared_ptr: the writer keeps the stream of its connection alive until its
  // pending write completes, even after run() has moved on.
  std::variant<std::monostate, std::shared_ptr<PlainWs>, std::shared_ptr<SecureWs>> ws;
  std::uint64_t generation = 0;  // bumps on every connection
  std::uint64_t next_id = 1;
  std::unordered_map<std::uint64_t, std::shared_ptr<Waiter>> pending;
  std::map<std::uint64_t, Subscription> subscriptions;  // by handle
  std::unordered_map<std::uint64_t, std::uint64_t> wire_to_handle;
  std::uint64_t next_handle = 1;
  std::deque<std::string> outbox;
  std::unique_ptr<asio::steady_timer> outbox_signal;
  std::unique_ptr<asio::steady_timer> backoff_timer;
  std::deque<std::shared_ptr<Slot>> dispatch_queue;
  std::vector<StateHandler> state_handlers;
  Clock::time_point last_activity = Clock::now();
  bool stopped = false;
  bool started = false;
  int auth_failures = 0;
  static constexpr int kMaxAuthAttempts = 3;
  std::mt19937 rng{std::random_device{}()};

  // ---- shared with other threads ----
  mutable std::mutex status_mutex;
  WsState state_value = WsState::idle;
  std::optional<HaError> last_error_value;
  std::string ha_version_value;
  std::atomic<std::uint64_t> connect_count{0};
  std::atomic<std::size_t> subscription_count{0};
  std::atomic<std::uint64_t> too_deep_events{0};

  Impl(asio::any_io_executor ex, ConnectionSettings s, WsOptions o)
      : executor(ex), strand(asio::make_strand(ex)), settings(std::move(s)), options(o) {}

  ~Impl() { parse_pool.join(); }

  NetContext ctx() const { return net_context(settings); }

  void set_state(WsState st, std::optional<HaError> err) {
    {
      std::lock_guard lock(status_mutex);
      state_value = st;
      if (err) last_error_value = err;
      if (st == WsState::connected) last_error_value.reset();
    }
    for (auto& h : state_handlers) {
      try {
        h(st, err);
      } catch (const std::exception& e) {
        spdlog::error("ha ws: state handler threw: {}", e.what());
      }
    }
  }

  bool connected() const { return !std::holds_alternative<std::monostate>(ws) && state_value == WsState::connected; }

  // ---------------- connection ----------------

  template <class Ws>
  void configure(Ws& stream) {
    stream.read_message_max(options.max_message_bytes);
    stream.auto_fragment(false);
    websocket::stream_base::timeout t{};
    t.handshake_timeout = settings.connect_timeout;
    t.idle_timeout = settings.connect_timeout;  // auth phase; relaxed after auth_ok
    t.keep_alive_pings = false;
    stream.set_option(t);
    websocket::permessage_deflate pmd;
    pmd.client_enable = true;
    stream.set_option(pmd);
    stream.set_option(websocket::stream_base::decorator(
        [](websocket::request_type& req) { req.set(boost::beast::http::field::user_agent, "hamcp/" HAMCP_VERSION); }));
  }

  template <class Ws>
  asio::awaitable<std::string> read_text(Ws& stream) {
    beast::flat_buffer buffer;
    boost::system::error_code ec;
    co_await stream.async_read(buffer, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) throw HaException(classify_network_error(ec, NetPhase::receive, ctx()));
    co_return beast::buffers_to_string(buffer.data());
  }

  template <class Ws>
  asio::awaitable<void> write_text(Ws& stream, const std::string& text) {
    boost::system::error_code ec;
    stream.text(true);
    co_await stream.async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) throw HaException(classify_network_error(ec, NetPhase::send, ctx()));
  }

  template <class Ws>
  asio::awaitable<void> handshake_and_auth(Ws& stream) {
    boost::system::error_code ec;
    co_await stream.async_handshake(settings.host_header, settings.ws_path,
                                    asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      HaError err = classify_network_error(ec, NetPhase::receive, ctx());
      if (ec == websocket::error::upgrade_declined) {
        err = make_error(ErrorCause::not_found, settings.ws_url(),
                         "the server declined the WebSocket upgrade (is this Home Assistant? is the "
                         "websocket_api integration loaded?)");
      }
      throw HaException(err);
    }
    // HA speaks first (auth_required) but also accepts auth sent at once.
    std::string first = co_await read_text(stream);
    json::value hello = parse_or_throw(first);
    const auto* type = hello.is_object() ? hello.as_object().if_contains("type") : nullptr;
    if (!type || *type != "auth_required") {
      throw HaException(make_error(ErrorCause::protocol_error, settings.ws_url(),
                                   "expected auth_required, got: " + settings.token.scrub(first).substr(0, 100)));
    }
    json::object auth;
    auth["type"] = "auth";
    auth["access_token"] = settings.token.reveal();
    const std::string auth_text = json::serialize(auth);
    co_await write_text(stream, auth_text);
    std::string reply = co_await read_text(stream);
    json::value answer = parse_or_throw(reply);
    const auto* rtype = answer.is_object() ? answer.as_object().if_contains("type") : nullptr;
    if (rtype && *rtype == "auth_ok") {
      std::lock_guard lock(status_mutex);
      if (const auto* v = answer.as_object().if_contains("ha_version"); v && v->is_string()) {
        ha_version_value = settings.token.scrub(std::string(v->as_string()));
      }
    } else if (rtype && *rtype == "auth_invalid") {
      std::string msg = "auth_invalid";
      if (const auto* m = answer.as_object().if_contains("message"); m && m->is_string()) {
        msg += ": " + std::string(m->as_string());
      }
      throw HaException(make_error(ErrorCause::unauthorized, settings.ws_url(), settings.token.scrub(msg)));
    } else {
      throw HaException(make_error(ErrorCause::protocol_error, settings.ws_url(),
                                   "unexpected reply to auth: " + settings.token.scrub(reply).substr(0, 100)));
    }
    websocket::stream_base::timeout t{};
    t.handshake_timeout = settings.connect_timeout;
    t.idle_timeout = websocket::stream_base::none();  // our heartbeat watches liveness
    t.keep_alive_pings = false;
    stream.set_option(t);
  }

  json::value parse_or_throw(const std::string& text) {
    boost::system::error_code ec;
    json::value v = parse_ha_json(text, ec);
    if (ec) {
      throw HaException(
          make_error(ErrorCause::protocol_error, settings.ws_url(), "malformed JSON frame (" + ec.message() + ")"));
    }
    return v;
  }

  asio::awaitable<void> connect_once() {
    if (settings.tls) {
      if (!ssl_ctx) ssl_ctx = make_ssl_context(settings);
      auto stream = std::make_shared<SecureWs>(strand, *ssl_ctx);
      co_await connect_tcp(beast::get_lowest_layer(*stream), settings);
      co_await tls_handshake(stream->next_layer(), settings);
      configure(*stream);
      co_await handshake_and_auth(*stream);
      ws = std::move(stream);
    } else {
      auto stream = std::make_shared<PlainWs>(strand);
      co_await connect_tcp(beast::get_lowest_layer(*stream), settings);
      configure(*stream);
      co_await handshake_and_auth(*stream);
      ws = std::move(stream);
    }
  }

  void close_socket() {
    boost::system::error_code ec;
    if (auto* p = std::get_if<std::shared_ptr<PlainWs>>(&ws)) beast::get_lowest_layer(**p).socket().close(ec);
    if (auto* s = std::get_if<std::shared_ptr<SecureWs>>(&ws)) beast::get_lowest_layer(**s).socket().close(ec);
  }

  void fail_all_pending(const HaError& error) {
    auto waiting = std::move(pending);
    pending.clear();
    for (auto& [id, w] : waiting) {
      if (!w->done()) w->error = error;
      w->timer.cancel();
    }
  }

  std::chrono::milliseconds backoff_delay(int failures) {
    auto base = options.reconnect_initial * (1 << std::min(failures, 8));
    base = std::min(base, options.reconnect_max);
    std::uniform_int_distribution<long> jitter(0, base.count() / 2);
    return base / 2 + std::chrono::milliseconds(jitter(rng)) + base / 4;  // 75%..125% of base
  }

  asio::awaitable<void> run() {
    auto self = shared_from_this();
    int failures = 0;
    while (!stopped) {
      set_state(WsState::connecting, std::nullopt);
      std::optional<HaError> error;
      try {
        co_await connect_once();
      } catch (const HaException& e) {
        error = e.error();
      } catch (const std::exception& e) {
        error = make_error(ErrorCause::internal, settings.ws_url(), e.what());
      }
      if (stopped) break;
      if (error) {
        const std::string why = error->message();
        if (auto suffix = connect_log.admit(why)) spdlog::warn("ha ws: connect failed: {}{}", why, *suffix);
        ws = std::monostate{};
        set_state(WsState::waiting_to_reconnect, error);
        if (error->cause == ErrorCause::unauthorized && ++auth_failures >= kMaxAuthAttempts) {
          // Home Assistant bans an IP after repeated failed logins
          // (ip_ban_enabled): stop trying a rejected token until told to.
          spdlog::error("ha ws: token rejected {} times; not retrying until reconnect_now()", auth_failures);
          co_await sleep(std::chrono::hours(24 * 365));
          auth_failures = 0;
          continue;
        }
        co_await sleep(backoff_delay(failures++));
        continue;
      }
      // The backoff is not reset here: a connection that fails right after it
      // was made (HA sends a frame we cannot take) must not reconnect in a
      // tight loop. It resets once a connection has stayed up healthy_after.
      const auto connected_at = Clock::now();
      auth_failures = 0;
      ++generation;
      next_id = 1;
      connect_count.fetch_add(1);
      last_activity = Clock::now();
      outbox.clear();
      if (options.coalesce_messages) {
        json::object features;
        features["type"] = "supported_features";
        json::object f;
        f["coalesce_messages"] = 1;
        features["features"] = std::move(f);
        send_ignoring_result(std::move(features));
      }
      resubscribe_all();
      set_state(WsState::connected, std::nullopt);
      const std::uint64_t gen = generation;
      asio::co_spawn(strand, writer(gen), asio::detached);
      asio::co_spawn(strand, heartbeat(gen), asio::detached);
      HaError lost = co_await read_loop();
      if (stopped) break;
      const std::string why = lost.message();
      if (auto suffix = lost_log.admit(why)) spdlog::warn("ha ws: connection lost: {}{}", why, *suffix);
      if (Clock::now() - connected_at >= options.healthy_after) failures = 0;
      ++generation;  // stops writer and heartbeat of the old connection
      if (outbox_signal) outbox_signal->cancel();
      close_socket();
      ws = std::monostate{};
      HaError for_pending = make_error(ErrorCause::connection_lost, settings.ws_url(), lost.detail);
      fail_all_pending(for_pending);
      dispatch_queue.clear();
      for (auto& [h, sub] : subscriptions) sub.wire_id = 0;
      wire_to_handle.clear();
      set_state(WsState::waiting_to_reconnect, lost);
      // The first drop after a healthy connection gets a quick retry; repeats
      // back off like failed connects.
      const auto delay = failures == 0 ? backoff_delay(0) / 4 : backoff_delay(failures);
      ++failures;
      co_await sleep(delay);
    }
    close_socket();
    ws = std::monostate{};
    fail_all_pending(make_error(ErrorCause::not_connected, settings.ws_url(), "client stopped"));
    set_state(WsState::stopped, std::nullopt);
  }

  asio::awaitable<void> sleep(std::chrono::milliseconds d) {
    backoff_timer = std::make_unique<asio::steady_timer>(strand, d);
    boost::system::error_code ec;
    co_await backoff_timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }

  // ---------------- writing ----------------

  std::uint64_t enqueue(json::object message) {
    const std::uint64_t id = next_id++;
    message["id"] = id;
    outbox.push_back(json::serialize(message));
    if (outbox_signal) outbox_signal->cancel();
    return id;
  }

  void send_ignoring_result(json::object message) {
    const std::uint64_t id = enqueue(std::move(message));
    auto w = std::make_shared<Waiter>(strand);
    pending[id] = w;  // result dropped on arrival
  }

  asio::awaitable<void> writer(std::uint64_t gen) {
    auto self = shared_from_this();
    auto stream_hold = ws;  // this connection's stream outlives our pending write
    outbox_signal = std::make_unique<asio::steady_timer>(strand);
    while (gen == generation && !stopped) {
      if (outbox.empty()) {
        outbox_signal->expires_at(Clock::time_point::max());
        boost::system::error_code ec;
        co_await outbox_signal->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        continue;
      }
      std::string text = std::move(outbox.front());
      outbox.pop_front();
      boost::system::error_code ec;
      if (auto* p = std::get_if<std::shared_ptr<PlainWs>>(&stream_hold)) {
        (*p)->text(true);
        co_await (*p)->async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
      } else if (auto* s = std::get_if<std::shared_ptr<SecureWs>>(&stream_hold)) {
        (*s)->text(true);
        co_await (*s)->async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
      } else {
        co_return;
      }
      if (ec) {
        if (gen == generation) close_socket();  // read loop reports the loss
        co_return;
      }
    }
  }

  // ---------------- heartbeat ----------------

  asio::awaitable<void> heartbeat(std::uint64_t gen) {
    auto self = shared_from_this();
    asio::steady_timer timer(strand);
    while (gen == generation && !stopped) {
      timer.expires_after(options.heartbeat_interval);
      boost::system::error_code ec;
      co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      if (gen != generation || stopped) co_return;
      json::object ping;
      ping["type"] = "ping";
      const std::uint64_t id = enqueue(std::move(ping));
      auto w = std::make_shared<Waiter>(strand);
      pending[id] = w;
      auto deadline = Clock::now() + options.heartbeat_timeout;
      while (!w->done()) {
        w->timer.expires_at(deadline);
        co_await w->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (gen != generation || stopped) co_return;
        if (w->done()) break;
        if (Clock::now() >= deadline) {
          // Bytes still arriving (a huge frame) count as alive.
          const auto alive_until = last_activity + options.heartbeat_timeout;
          if (alive_until > Clock::now()) {
            deadline = alive_until;
            continue;
          }
          spdlog::warn("ha ws: no pong within {} ms, reconnecting", options.heartbeat_timeout.count());
          pending.erase(id);
          heartbeat_failed = true;
          close_socket();
          co_return;
        }
      }
    }
  }
  bool heartbeat_failed = false;

  // ---------------- reading + dispatch ----------------

  template <class Ws>
  asio::awaitable<boost::system::error_code> read_frames(Ws& stream, std::uint64_t gen) {
    for (;;) {
      beast::flat_buffer buffer;
      boost::system::error_code ec;
      // Read piecewise so progress on a huge frame keeps the heartbeat happy.
      do {
        co_await stream.async_read_some(buffer, 1u << 20, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return ec;
        last_activity = Clock::now();
      } while (!stream.is_message_done());
      if (gen != generation) co_return asio::error::operation_aborted;
      on_frame(std::move(buffer));
      if (protocol_failure) co_return asio::error::invalid_argument;
    }
  }

  std::optional<std::string> protocol_failure;
  // Repeated failures are logged rate-limited (see RepeatLimiter).
  RepeatLimiter connect_log, lost_log, frame_log;

  asio::awaitable<HaError> read_loop() {
    const std::uint64_t gen = generation;
    heartbeat_failed = false;
    protocol_failure.reset();
    boost::system::error_code ec;
    auto stream_hold = ws;
    if (auto* p = std::get_if<std::shared_ptr<PlainWs>>(&stream_hold)) {
      ec = co_await read_frames(**p, gen);
    } else if (auto* s = std::get_if<std::shared_ptr<SecureWs>>(&stream_hold)) {
      ec = co_await read_frames(**s, gen);
    }
    if (protocol_failure) {
      co_return make_error(ErrorCause::protocol_error, settings.ws_url(), *protocol_failure);
    }
    if (heartbeat_failed) {
      co_return make_error(ErrorCause::timeout, settings.ws_url(),
                           "no answer to ping within " + std::to_string(options.heartbeat_timeout.count()) + " ms");
    }
    HaError e = classify_network_error(ec, NetPhase::receive, ctx());
    if (e.cause != ErrorCause::timeout) e.cause = ErrorCause::connection_lost;
    co_return e;
  }

  void on_frame(beast::flat_buffer buffer) {
    auto slot = std::make_shared<Slot>();
    const std::size_t size = buffer.size();
    if (size < options.offload_parse_bytes) {
      std::string_view text(static_cast<const char*>(buffer.data().data()), size);
      parse_into(*slot, text);
      release(buffer);
      slot->ready = true;
      if (!dispatch_queue.empty() && !slot->parse_error) {
        // A big frame is still being parsed: answers to commands must not wait
        // for it; events keep their order behind it.
        dispatch_non_events(*slot);
      }
      dispatch_queue.push_back(slot);
      drain();
      return;
    }
    dispatch_queue.push_back(slot);
    auto self = shared_from_this();
    auto shared_buffer = std::make_shared<beast::flat_buffer>(std::move(buffer));
    const std::uint64_t gen = generation;
    std::weak_ptr<Impl> weak = self;
    auto strand_copy = strand;
    asio::post(parse_pool, [weak, strand_copy, slot, shared_buffer, gen]() mutable {
      std::string_view text(static_cast<const char*>(shared_buffer->data().data()), shared_buffer->size());
      parse_into(*slot, text);
      // The frame text is no longer needed: free it before the DOM is
      // dispatched and converted, so text, DOM and converted copies never
      // all sit in memory at once.
      shared_buffer.reset();
      // Hold no strong reference on this thread: the Impl (which owns this
      // pool) must never be destroyed from inside the pool.
      asio::post(strand_copy, [weak, slot, gen] {
        auto self = weak.lock();
        if (!self || gen != self->generation) return;
        slot->ready = true;
        self->drain();
        if (self->protocol_failure) self->close_socket();
      });
    });
  }

  static void release(beast::flat_buffer& buffer) {
    buffer.clear();
    buffer.shrink_to_fit();
  }

  static void parse_into(Slot& slot, std::string_view text) {
    boost::system::error_code ec;
    slot.value = parse_ha_json(text, ec);
    if (ec == json::error::too_deep) {
      // Only some message of the frame is too deep: reject that one alone and
      // keep the connection (dropping it failed everything in flight and, for
      // a subscription's initial event, reconnected into the same frame).
      if (auto deep = salvage_deep_frame(text)) {
        slot.value = std::move(deep->whole);
        slot.too_deep = std::move(deep->too_deep);
        return;
      }
    }
    if (ec) slot.parse_error = ec.message() + " in a frame of " + std::to_string(text.size()) + " bytes";
  }

  static bool is_event(const json::value& m) {
    const auto* o = m.if_object();
    if (!o) return false;
    const auto* t = o->if_contains("type");
    return t && *t == "event";
  }

  // Pull results/pongs out of a slot and dispatch them now, leaving events.
  void dispatch_non_events(Slot& slot) {
    std::vector<json::object> deep_events;
    for (auto& m : slot.too_deep) {
      if (is_event(m)) {
        deep_events.push_back(std::move(m));
      } else {
        reject_too_deep(m);
      }
    }
    slot.too_deep = std::move(deep_events);
    if (slot.value.is_array()) {
      json::array keep;
      for (auto& m : slot.value.as_array()) {
        if (is_event(m))
          keep.push_back(std::move(m));
        else
          dispatch_message(m);
      }
      slot.value = std::move(keep);
    } else if (!is_event(slot.value)) {
      dispatch_message(slot.value);
      slot.value = json::array();
    }
  }

  void drain() {
    while (!dispatch_queue.empty() && dispatch_queue.front()->ready) {
      auto slot = dispatch_queue.front();
      dispatch_queue.pop_front();
      if (slot->parse_error) {
        // Unknown which command or event it carried: drop the connection, fail
        // what is in flight (retryable) and resync on reconnect.
        protocol_failure = "Home Assistant sent a malformed JSON frame: " + *slot->parse_error;
        if (auto suffix = frame_log.admit(*protocol_failure)) spdlog::error("ha ws: {}{}", *protocol_failure, *suffix);
        dispatch_queue.clear();
        return;
      }
      if (slot->value.is_array()) {
        for (auto& m : slot->value.as_array()) dispatch_message(m);
      } else {
        dispatch_message(slot->value);
      }
      for (auto& m : slot->too_deep) reject_too_deep(m);
    }
  }

  // A message nesting deeper than kHaJsonMaxDepth (only its top-level scalars
  // are left): the command it answers fails on its own, an event is skipped
  // and counted. Either way the connection and everything else in flight stay.
  void reject_too_deep(const json::object& m) {
    const auto* type = m.if_contains("type");
    const auto* idv = m.if_contains("id");
    std::string what;
    if (type && *type == "event") {
      too_deep_events.fetch_add(1);
      what = "skipped an event that nests deeper than " + std::to_string(kHaJsonMaxDepth) + " levels";
    } else if (idv && (idv->is_uint64() || idv->is_int64())) {
      const std::uint64_t id = idv->is_uint64() ? idv->as_uint64() : static_cast<std::uint64_t>(idv->as_int64());
      auto it = pending.find(id);
      if (it == pending.end()) return;
      auto w = it->second;
      pending.erase(it);
      what = "Home Assistant's answer to command " + std::to_string(id) + " nests deeper than " +
             std::to_string(kHaJsonMaxDepth) + " levels, more than hamcp reads; the connection stays up";
      w->error = make_error(ErrorCause::protocol_error, settings.ws_url(), what);
      w->timer.cancel();
    } else {
      return;
    }
    if (auto suffix = frame_log.admit(what)) spdlog::warn("ha ws: {}{}", what, *suffix);
  }

  static bool is_event(const json::object& m) {
    const auto* t = m.if_contains("type");
    return t && *t == "event";
  }

  // Consumes m: command results and events are moved out, not copied (a
  // registry list or the initial states of a big home is tens of MB).
  void dispatch_message(json::value& m) {
    auto* o = m.if_object();
    if (!o) return;
    const auto* type = o->if_contains("type");
    const auto* idv = o->if_contains("id");
    if (!type || !type->is_string() || !idv) return;
    std::uint64_t id = 0;
    if (idv->is_int64())
      id = static_cast<std::uint64_t>(idv->as_int64());
    else if (idv->is_uint64())
      id = idv->as_uint64();
    const std::string_view t = type->as_string();
    if (t == "event") {
      auto it = wire_to_handle.find(id);
      if (it == wire_to_handle.end()) return;
      auto sub = subscriptions.find(it->second);
      if (sub == subscriptions.end()) return;
      const bool first = sub->second.first;
      sub->second.first = false;
      json::value empty;
      auto* ev = o->if_contains("event");
      try {
        sub->second.handler(ev ? *ev : empty, first);
      } catch (const std::exception& e) {
        spdlog::error("ha ws: event handler threw: {}", e.what());
      }
      return;
    }
    if (t != "result" && t != "pong") return;
    auto it = pending.find(id);
    if (it == pending.end()) return;
    auto w = it->second;
    pending.erase(it);
    if (t == "pong") {
      w->result = json::value(nullptr);
    } else {
      const auto* success = o->if_contains("success");
      if (success && success->is_bool() && success->as_bool()) {
        auto* r = o->if_contains("result");
        w->result = r ? std::move(*r) : json::value(nullptr);
      } else {
        HaError err = make_error(ErrorCause::command_failed, settings.display_url);
        if (const auto* e = o->if_contains("error"); e && e->is_object()) {
          // HA's words go into tool output and logs: an HA that echoes the token must not leak it.
          if (const auto* c = e->as_object().if_contains("code"); c && c->is_string()) {
            err.ha_code = settings.token.scrub(std::string(c->as_string()));
          }
          if (const auto* msg = e->as_object().if_contains("message"); msg && msg->is_string()) {
            err.detail = settings.token.scrub(std::string(msg->as_string()));
          }
        }
        w->error = std::move(err);
      }
    }
    w->timer.cancel();
  }

  // ---------------- public operations (on strand) ----------------

  asio::awaitable<void> wait_connected(Clock::time_point deadline) {
    asio::steady_timer poll(strand);
    while (!connected()) {
      if (stopped) {
        throw HaException(make_error(ErrorCause::not_connected, settings.ws_url(), "client stopped"));
      }
      {
        // A permanent failure (bad token, bad certificate...) will not fix
        // itself while we wait: say so at once.
        std::lock_guard lock(status_mutex);
        if (state_value == WsState::waiting_to_reconnect && last_error_value && !last_error_value->retryable()) {
          throw HaException(*last_error_value);
        }
      }
      if (Clock::now() >= deadline) {
        HaError e = make_error(ErrorCause::not_connected, settings.ws_url());
        std::lock_guard lock(status_mutex);
        if (last_error_value) {
          // Say why: the last connection failure is the useful part.
          e = *last_error_value;
        }
        throw HaException(e);
      }
      poll.expires_after(std::chrono::milliseconds(20));
      boost::system::error_code ec;
      co_await poll.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
  }

  asio::awaitable<json::value> do_command(json::object message, std::chrono::milliseconds timeout) {
    auto self = shared_from_this();
    const auto start = Clock::now();
    co_await wait_connected(start + std::min(timeout, options.connect_wait));
    const std::uint64_t id = enqueue(std::move(message));
    auto w = std::make_shared<Waiter>(strand);
    pending[id] = w;
    w->timer.expires_at(start + timeout);
    boost::system::error_code ec;
    co_await w->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (w->result) co_return std::move(*w->result);
    if (w->error) throw HaException(*w->error);
    pending.erase(id);
    throw HaException(make_error(ErrorCause::timeout, settings.ws_url(),
                                 "no result within " + std::to_string(timeout.count()) + " ms"));
  }

  void resubscribe_all() {
    for (auto& [handle, sub] : subscriptions) {
      sub.first = true;
      const std::uint64_t id = enqueue(sub.message);
      sub.wire_id = id;
      wire_to_handle[id] = handle;
      auto w = std::make_shared<Waiter>(strand);
      pending[id] = w;  // a failed re-subscription is logged by the owner's resync
    }
  }

  asio::awaitable<std::uint64_t> do_subscribe(json::object message, EventHandler handler) {
    auto self = shared_from_this();
    const auto start = Clock::now();
    co_await wait_connected(start + options.connect_wait);
    const std::uint64_t handle = next_handle++;
    Subscription sub;
    sub.message = message;
    sub.handler = std::move(handler);
    const std::uint64_t id = enqueue(std::move(message));
    sub.wire_id = id;
    subscriptions.emplace(handle, std::move(sub));
    wire_to_handle[id] = handle;
    subscription_count = subscriptions.size();
    auto w = std::make_shared<Waiter>(strand);
    pending[id] = w;
    w->timer.expires_at(start + options.command_timeout);
    boost::system::error_code ec;
    co_await w->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (w->result) co_return handle;
    // Lost connection: the subscription stays and is re-sent on reconnect.
    if (w->error && w->error->cause == ErrorCause::connection_lost) co_return handle;
    drop_subscription(handle);
    if (w->error) throw HaException(*w->error);
    pending.erase(id);
    throw HaException(make_error(ErrorCause::timeout, settings.ws_url(), "subscription not confirmed in time"));
  }

  std::uint64_t drop_subscription(std::uint64_t handle) {
    auto it = subscriptions.find(handle);
    if (it == subscriptions.end()) return 0;
    const std::uint64_t wire = it->second.wire_id;
    wire_to_handle.erase(wire);
    subscriptions.erase(it);
    subscription_count = subscriptions.size();
    return wire;
  }

  asio::awaitable<void> do_unsubscribe(std::uint64_t handle) {
    auto self = shared_from_this();
    const std::uint64_t wire = drop_subscription(handle);
    if (wire == 0 || !connected()) co_return;
    json::object msg;
    msg["type"] = "unsubscribe_events";
    msg["subscription"] = wire;
    try {
      co_await do_command(std::move(msg), options.command_timeout);
    } catch (const HaException& e) {
      spdlog::debug("ha ws: unsubscribe failed: {}", e.error().message());
    }
  }
};

WsClient::WsClient(asio::any_io_executor executor, ConnectionSettings settings, WsOptions options)
    : impl_(std::make_shared<Impl>(std::move(executor), std::move(settings), options)) {}

WsClient::~WsClient() { stop(); }

void WsClient::start() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] {
    if (impl->started || impl->stopped) return;
    impl->started = true;
    asio::co_spawn(impl->strand, impl->run(), [](std::exception_ptr e) {
      if (!e) return;
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        spdlog::error("ha ws: connection loop ended: {}", ex.what());
      }
    });
  });
}

void WsClient::stop() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] {
    if (impl->stopped) return;
    impl->stopped = true;
    ++impl->generation;
    if (impl->backoff_timer) impl->backoff_timer->cancel();
    if (impl->outbox_signal) impl->outbox_signal->cancel();
    impl->close_socket();
    impl->fail_all_pending(make_error(ErrorCause::not_connected, impl->settings.ws_url(), "client stopped"));
    if (!impl->started) impl->set_state(WsState::stopped, std::nullopt);
  });
}

asio::awaitable<json::value> WsClient::command(json::object message, std::optional<std::chrono::milliseconds> timeout) {
  auto impl = impl_;
  const auto t = timeout.value_or(impl->options.command_timeout);
  auto op = impl->do_command(std::move(message), t);
  // Never co_spawn(strand, op, use_awaitable) here: see common/isolated_await.hpp.
  auto isolated = common::isolated_await<json::value>(impl->strand, std::move(op));
  co_return co_await std::move(isolated);
}

asio::awaitable<std::uint64_t> WsClient::subscribe(json::object message, EventHandler handler) {
  auto impl = impl_;
  auto op = impl->do_subscribe(std::move(message), std::move(handler));
  auto isolated = common::isolated_await<std::uint64_t>(impl->strand, std::move(op));
  co_return co_await std::move(isolated);
}

asio::awaitable<void> WsClient::unsubscribe(std::uint64_t handle) {
  auto impl = impl_;
  auto op = impl->do_unsubscribe(handle);
  auto isolated = common::isolated_await<void>(impl->strand, std::move(op));
  co_await std::move(isolated);
}

void WsClient::on_state_change(StateHandler handler) {
  auto impl = impl_;
  asio::dispatch(impl->strand,
                 [impl, h = std::move(handler)]() mutable { impl->state_handlers.push_back(std::move(h)); });
}

WsState WsClient::state() const {
  std::lock_guard lock(impl_->status_mutex);
  return impl_->state_value;
}
std::optional<HaError> WsClient::last_error() const {
  std::lock_guard lock(impl_->status_mutex);
  return impl_->last_error_value;
}
std::string WsClient::ha_version() const {
  std::lock_guard lock(impl_->status_mutex);
  return impl_->ha_version_value;
}
std::uint64_t WsClient::connects() const { return impl_->connect_count.load(); }
std::size_t WsClient::active_subscriptions() const { return impl_->subscription_count.load(); }
std::uint64_t WsClient::too_deep_events_skipped() const { return impl_->too_deep_events.load(); }

void WsClient::reconnect_now() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] {
    if (impl->backoff_timer) impl->backoff_timer->cancel();
  });
}

void WsClient::drop_connection_for_testing() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] { impl->close_socket(); });
}

}  // namespace hamcp::ha
