// The MCP HTTP server's sessions and budgets (session_host.hpp).
#include "mcp/http/session_host.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "mcp/http/data_dir.hpp"
#include "mcp/http/guarded_log.hpp"

namespace hamcp::mcp::http {
namespace {

SessionKey load_session_key(const std::filesystem::path& dir) {
  auto secret = load_or_create_secret(dir / "session.key", [] {
    std::string key(32, '\0');
    random_bytes(reinterpret_cast<unsigned char*>(key.data()), key.size());
    return key;
  });
  if (secret.contents.size() != 32) {
    throw std::runtime_error("session key " + (dir / "session.key").string() +
                             " is corrupt (expected 32 bytes); delete it to create a new one "
                             "(existing session ids will then be refused)");
  }
  SessionKey key;
  std::copy(secret.contents.begin(), secret.contents.end(), key.begin());
  return key;
}

HttpResponse busy(unsigned status, std::string text) {
  auto r = HttpResponse::rpc_error(status, -32000, text);
  r.set("Retry-After", "1");
  return r;
}

}  // namespace

SessionHost::SessionHost(Server& server, asio::any_io_executor io, const HttpServerOptions& opts)
    : server_(server),
      server_ex_(server.executor()),
      opts_(opts),
      calls_(opts.max_requests_global, opts.max_requests_per_session),
      buffers_(std::make_shared<BufferAccount>(opts.max_buffered_bytes)),
      sweep_timer_(io) {}

void SessionHost::open_registry() {
  registry_ = std::make_unique<SessionRegistry>(load_session_key(opts_.data_dir), opts_.data_dir / "revoked-sessions",
                                                opts_.sessions);
  SessionStateStore::Limits limits;
  limits.max_age = opts_.sessions.idle_expiry;
  auto states = std::make_shared<SessionStateStore>(opts_.data_dir / "session-state", limits);
  registry_->attach_state_store(states);
  // Runs on the server's executor after a setLevel or a (un)subscribe. Legacy
  // SSE sessions are not rebuilt from an id: nothing to keep for them.
  // One appended line per change; the whole state only when the store asks
  // for it (no record yet, or time to compact).
  server_.set_session_state_observer(
      [states, weak = weak_from_this()](const Session& session, const json::object& change) {
        auto self = weak.lock();
        if (!self || self->find_legacy(session.id())) return;
        if (!states->append(session.id(), change)) states->save(session.id(), session.persistent_state());
      });
}

std::shared_ptr<HttpSession> SessionHost::new_http_session(std::string key, std::string protocol_version) {
  auto account = std::make_shared<BufferAccount>(opts_.max_session_buffered_bytes, buffers_);
  return std::make_shared<HttpSession>(std::move(key), std::move(protocol_version), opts_.replay, std::move(account));
}

asio::awaitable<std::shared_ptr<HttpSession>> SessionHost::create_session(std::string key,
                                                                          std::string_view protocol_version,
                                                                          bool read_only, std::string principal) {
  auto hs = new_http_session(key, std::string(protocol_version));
  hs->bind_principal(principal);
  Server* srv = &server_;
  // GCC 12: a capturing lambda inside a co_await expression is destroyed twice; name it.
  auto on_server = [srv, hs, key, read_only, principal] {
    auto s = srv->create_session(key);
    if (read_only) s->make_read_only();
    s->set_principal(principal);
    s->set_standalone_channel(std::make_shared<PersistentChannel>(hs->standalone));
    return s;
  };
  hs->session = co_await run_on(server_ex_, std::move(on_server));
  co_return hs;
}

asio::awaitable<std::shared_ptr<HttpSession>> SessionHost::materialize(const SessionTokenPayload& payload,
                                                                       std::shared_ptr<HttpSession> live) {
  if (live) co_return live;
  if (!session_room()) co_return nullptr;
  // A valid id we hold no state for: after a restart, an eviction, or issued by
  // another process sharing the key. Rebuild it; the client never notices.
  const std::string key = payload.nonce_hex();
  auto hs = new_http_session(key, payload.protocol_version);
  Server* srv = &server_;
  SessionInfo info = session_info_from(payload);
  // What the client chose after initialize (setLevel, subscriptions), kept on disk.
  std::optional<json::object> state;
  if (const auto& states = registry_->state_store()) state = states->load(key);
  // GCC 12: a capturing lambda inside a co_await expression is destroyed twice; name it.
  auto on_server = [srv, hs, key, info = std::move(info), state = std::move(state)]() mutable {
    auto s = srv->restore_session(key, std::move(info));
    if (state) s->restore_state(*state);
    s->set_standalone_channel(std::make_shared<PersistentChannel>(hs->standalone));
    return s;
  };
  hs->session = co_await run_on(server_ex_, std::move(on_server));
  std::vector<std::shared_ptr<HttpSession>> evicted;
  auto winner = registry_->insert(hs, evicted);
  if (winner != hs)
    shutdown_session(hs);  // another request rebuilt it first
  else
    spdlog::info("http: restored session {}… from its id (protocol {})", key.substr(0, 8), payload.protocol_version);
  co_return winner;
}

asio::awaitable<std::shared_ptr<HttpSession>> SessionHost::stateless_session(std::string version, bool initialize,
                                                                             bool read_only, std::string principal) {
  auto hs = new_http_session(std::string(), version);
  hs->bind_principal(principal);
  Server* srv = &server_;
  // GCC 12: a capturing lambda inside a co_await expression is destroyed twice; name it.
  auto on_server = [srv, initialize, version, read_only, principal] {
    if (initialize) {
      auto s = srv->create_session();
      if (read_only) s->make_read_only();
      s->set_principal(principal);
      return s;
    }
    SessionInfo info;
    info.protocol_version = version;
    info.read_only = read_only;
    info.principal = principal;
    return srv->restore_session({}, std::move(info));
  };
  hs->session = co_await run_on(server_ex_, std::move(on_server));
  co_return hs;
}

asio::awaitable<std::vector<modern::ParamHeader>> SessionHost::param_headers(std::string tool_name) {
  Server* srv = &server_;
  auto on_server = [srv, name = std::move(tool_name)] {
    auto tool = srv->registry().find_tool(name);
    return tool ? modern::param_headers_of(tool->tool.input_schema) : std::vector<modern::ParamHeader>{};
  };
  auto declared = co_await run_on(server_ex_, std::move(on_server));
  co_return declared;
}

HttpResponse SessionHost::other_users_session() {
  return HttpResponse::rpc_error(403, -32000, "Forbidden: this session belongs to another signed-in user");
}

void SessionHost::deliver(const std::shared_ptr<HttpSession>& hs, json::value message, std::shared_ptr<Channel> reply,
                          std::string principal) {
  auto hand_over = [session = hs->session, message = std::move(message), reply = std::move(reply),
                    principal = std::move(principal)]() mutable {
    if (!principal.empty()) session->set_principal(principal);
    session->deliver(std::move(message), std::move(reply));
  };
  // When this thread already runs the server's executor (one io_context
  // thread, the usual case) the session takes the message now, without a
  // round trip through the queue, and without dispatch's wrapping of the
  // handler (~700 instructions per request).
  if (const auto* io = server_ex_.target<asio::io_context::executor_type>(); io && io->running_in_this_thread()) {
    hand_over();
    return;
  }
  asio::dispatch(server_ex_, std::move(hand_over));
}

void SessionHost::shutdown_session(std::shared_ptr<HttpSession> hs) {
  if (!hs) return;
  hs->finish_all();
  asio::post(server_ex_, [hs] {
    if (hs->session) {
      hs->session->set_standalone_channel(nullptr);
      hs->session->shutdown();
    }
  });
}

void SessionHost::end_session(std::shared_ptr<HttpSession> hs, std::string key) {
  if (hs) hs->finish_all();
  asio::post(server_ex_, [srv = &server_, hs, key = std::move(key)] {
    if (hs && hs->session) hs->session->set_standalone_channel(nullptr);
    srv->end_sessions({key});  // every Session object with this id, and the tasks of none in memory
  });
}

std::optional<HttpResponse> SessionHost::take_calls(HttpSession& hs, std::size_t n) {
  // Built only for a refusal: an admitted call (every call, usually) needs no text.
  auto who = [&hs] {
    return hs.key.empty() ? std::string("a stateless request") : "session " + hs.key.substr(0, 8) + "…";
  };
  if (n > calls_.max_per_session()) {
    guarded_warn("http: refused a batch of {} calls from {} (limit {} per session, 413)", n, who(),
                 calls_.max_per_session());
    const std::string limit = std::to_string(calls_.max_per_session());
    return HttpResponse::rpc_error(
        413, -32600,
        "Batch too large: " + std::to_string(n) + " calls in one message, above the limit of " + limit +
            " calls in flight per session; send at most " + limit + " per batch (or raise --max-calls-per-session)");
  }
  switch (calls_.take(hs.in_flight, n)) {
    case CallBudget::Verdict::admitted:
      return std::nullopt;
    case CallBudget::Verdict::session_full:
      guarded_warn("http: refused {} calls from {}: {} in flight on it already (429)", n, who(),
                   calls_.max_per_session());
      return busy(429, "Too Many Requests: " + std::to_string(calls_.max_per_session()) +
                           " calls already in progress on this session (limit); retry shortly");
    case CallBudget::Verdict::server_full:
      break;
  }
  guarded_warn("http: refused {} calls from {}: {} in flight in all (503)", n, who(), calls_.max_global());
  return busy(503, "Service Unavailable: too many calls in progress (limit " + std::to_string(calls_.max_global()) +
                       "), retry shortly");
}

std::function<void()> SessionHost::give_back(const std::shared_ptr<HttpSession>& hs, std::size_t calls) {
  return [self = shared_from_this(), hs, calls] { self->calls_.give_back(hs->in_flight, calls); };
}

std::shared_ptr<Channel> SessionHost::reply_channel(const std::shared_ptr<HttpSession>& hs,
                                                    std::shared_ptr<EventStream> stream, std::size_t calls) {
  return std::make_shared<StreamChannel>(std::move(stream), give_back(hs, calls));
}

bool SessionHost::session_room() {
  std::size_t legacy_live = 0;
  {
    std::lock_guard lock(legacy_mutex_);
    legacy_live = legacy_.size();
  }
  return legacy_live < opts_.sessions.max_in_memory && (!registry_ || registry_->has_room());
}

HttpResponse SessionHost::sessions_full() {
  const std::size_t cap = opts_.sessions.max_in_memory;
  guarded_warn("http: refused a new session: {} sessions live, all busy (limit {}, 503)", cap, cap);
  auto r = HttpResponse::rpc_error(503, -32000,
                                   "Service Unavailable: " + std::to_string(cap) +
                                       " sessions are live and busy (limit); end unused sessions with DELETE, retry "
                                       "shortly, or raise --max-sessions");
  r.set("Retry-After", "5");
  return r;
}

void SessionHost::add_legacy(const std::string& key, std::shared_ptr<HttpSession> hs) {
  std::lock_guard lock(legacy_mutex_);
  legacy_.emplace(key, std::move(hs));
}

void SessionHost::remove_legacy(const std::string& key) {
  std::lock_guard lock(legacy_mutex_);
  legacy_.erase(key);
}

std::shared_ptr<HttpSession> SessionHost::find_legacy(const std::string& key) {
  std::lock_guard lock(legacy_mutex_);
  auto it = legacy_.find(key);
  return it == legacy_.end() ? nullptr : it->second;
}

void SessionHost::start_sweeper() {
  sweep_timer_.expires_after(opts_.sweep_interval);
  sweep_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->stopping_) return;
    self->sweep();
    self->start_sweeper();
  });
}

void SessionHost::stop(bool now) {
  if (stopping_.exchange(true) && !now) return;
  if (now) {
    sweep_timer_.cancel();
    return;
  }
  asio::post(sweep_timer_.get_executor(), [self = shared_from_this()] { self->sweep_timer_.cancel(); });
}

void SessionHost::sweep() {
  // Evicted state is only a cache of a self-validating id: drop our references
  // and let the session go (a request racing with this still holds its own).
  std::vector<std::string> expired;
  auto evicted = registry_->evict_idle(&expired);
  if (!evicted.empty()) spdlog::debug("http: dropped in-memory state of {} idle sessions", evicted.size());
  // Expired ids are refused from now on: their tasks can never be polled again.
  if (!expired.empty())
    asio::post(server_ex_, [srv = &server_, expired = std::move(expired)] { srv->end_sessions(expired); });
}

}  // namespace hamcp::mcp::http
