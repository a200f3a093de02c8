// Routing, access control, lifecycle and /healthz of the MCP HTTP server.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "common/ascii.hpp"
#include "mcp/http/data_dir.hpp"
#include "mcp/http/guarded_log.hpp"
#include "mcp/http/server_impl.hpp"

namespace hamcp::mcp::http {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

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

}  // namespace

Accepts parse_accept(std::optional<std::string_view> accept) {
  Accepts a;
  if (!accept || trim(*accept).empty()) return Accepts{true, true};
  std::string_view rest = *accept;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string item = media_type(rest.substr(0, comma));
    if (item == "*/*")
      a.json = a.sse = true;
    else if (item == "application/json" || item == "application/*")
      a.json = true;
    else if (item == "text/event-stream" || item == "text/*")
      a.sse = true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return a;
}

std::string media_type(std::string_view content_type) {
  return ascii_lower(trim(content_type.substr(0, content_type.find(';'))));
}

HttpResponse sse_head() {
  HttpResponse r;
  r.status = 200;
  r.set("Content-Type", "text/event-stream");
  r.set("Cache-Control", "no-cache, no-transform");
  r.set("X-Accel-Buffering", "no");  // reverse proxies (HA ingress nginx) must not buffer events
  return r;
}

HttpServer::Impl::Impl(Server& s, asio::any_io_executor io_ex, HttpServerOptions o)
    : server(s),
      io(io_ex),
      server_ex(s.executor()),
      opts(std::move(o)),
      origin_policy(opts.listener.host, opts.allowed_hosts, opts.allowed_origins),
      calls(opts.max_requests_global, opts.max_requests_per_session),
      buffers(std::make_shared<BufferAccount>(opts.max_buffered_bytes)),
      sweep_timer(io_ex) {}

std::shared_ptr<HttpSession> HttpServer::Impl::new_http_session(std::string key, std::string protocol_version) {
  auto account = std::make_shared<BufferAccount>(opts.max_session_buffered_bytes, buffers);
  return std::make_shared<HttpSession>(std::move(key), std::move(protocol_version), opts.replay, std::move(account));
}

std::optional<HttpResponse> HttpServer::Impl::take_calls(HttpSession& hs, std::size_t n) {
  auto busy = [](unsigned status, std::string text) {
    auto r = HttpResponse::rpc_error(status, -32000, text);
    r.set("Retry-After", "1");
    return r;
  };
  const std::string who = hs.key.empty() ? std::string("a stateless request") : "session " + hs.key.substr(0, 8) + "…";
  if (n > calls.max_per_session()) {
    guarded_warn("http: refused a batch of {} calls from {} (limit {} per session, 413)", n, who,
                 calls.max_per_session());
    const std::string limit = std::to_string(calls.max_per_session());
    return HttpResponse::rpc_error(
        413, -32600,
        "Batch too large: " + std::to_string(n) + " calls in one message, above the limit of " + limit +
            " calls in flight per session; send at most " + limit + " per batch (or raise --max-calls-per-session)");
  }
  switch (calls.take(hs.in_flight, n)) {
    case CallBudget::Verdict::admitted:
      return std::nullopt;
    case CallBudget::Verdict::session_full:
      guarded_warn("http: refused {} calls from {}: {} in flight on it already (429)", n, who, calls.max_per_session());
      return busy(429, "Too Many Requests: " + std::to_string(calls.max_per_session()) +
                           " calls already in progress on this session (limit); retry shortly");
    case CallBudget::Verdict::server_full:
      break;
  }
  guarded_warn("http: refused {} calls from {}: {} in flight in all (503)", n, who, calls.max_global());
  return busy(503, "Service Unavailable: too many calls in progress (limit " + std::to_string(calls.max_global()) +
                       "), retry shortly");
}

bool HttpServer::Impl::session_room() {
  std::size_t legacy_live = 0;
  {
    std::lock_guard lock(legacy_mutex);
    legacy_live = legacy.size();
  }
  return legacy_live < opts.sessions.max_in_memory && (!registry || registry->has_room());
}

HttpResponse HttpServer::Impl::sessions_full() {
  const std::size_t cap = opts.sessions.max_in_memory;
  guarded_warn("http: refused a new session: {} sessions live, all busy (limit {}, 503)", cap, cap);
  auto r = HttpResponse::rpc_error(503, -32000,
                                   "Service Unavailable: " + std::to_string(cap) +
                                       " sessions are live and busy (limit); end unused sessions with DELETE, retry "
                                       "shortly, or raise --max-sessions");
  r.set("Retry-After", "5");
  return r;
}

asio::awaitable<void> HttpServer::Impl::handle_healthz(HttpRequest& req, ResponseWriter& w) {
  if (req.method != "GET" && req.method != "HEAD") {
    auto r = HttpResponse::text(405, "Method not allowed\n");
    r.set("Allow", "GET, HEAD");
    co_await w.send(std::move(r));
    co_return;
  }
  // Liveness for anyone; what runs here (version, load) only for a client
  // that presents the configured bearer token.
  json::object body;
  body["status"] = "ok";
  if (!opts.auth_token.empty() && bearer_matches(req.header("authorization"), opts.auth_token)) {
    body["name"] = server.options().name;
    body["version"] = server.options().version;
    body["sessions_in_memory"] = registry ? registry->size() : 0;
    body["stateless"] = opts.stateless;
  }
  co_await w.send(HttpResponse::json(200, body));
}

asio::awaitable<void> HttpServer::Impl::handle(HttpRequest& req, ResponseWriter& w) {
  if (req.path == "/healthz") {
    co_await handle_healthz(req, w);
    co_return;
  }
  // DNS-rebinding protection before anything else: a browser page on a foreign
  // origin must not reach a local server.
  if (!origin_policy.host_allowed(req.header("host"))) {
    guarded_warn("http: refused request with Host \"{}\" (add it with --allowed-host)",
                 printable(req.header("host").value_or("")));
    co_await w.send(HttpResponse::rpc_error(403, -32000, "Forbidden: Host header is not allowed"));
    co_return;
  }
  if (!origin_policy.origin_allowed(req.header("origin"))) {
    guarded_warn("http: refused request from Origin \"{}\" (add it with --allowed-origin)",
                 printable(req.header("origin").value_or("")));
    co_await w.send(HttpResponse::rpc_error(403, -32000, "Forbidden: Origin is not allowed"));
    co_return;
  }
  if (!opts.auth_token.empty() && !bearer_matches(req.header("authorization"), opts.auth_token)) {
    auto r = HttpResponse::rpc_error(401, -32000, "Unauthorized: send Authorization: Bearer <token>");
    r.set("WWW-Authenticate", "Bearer realm=\"hamcp\"");
    co_await w.send(std::move(r));
    co_return;
  }
  if (req.path == opts.path) {
    if (req.method == "POST") {
      co_await handle_post(req, w);
    } else if (req.method == "GET") {
      co_await handle_get(req, w);
    } else if (req.method == "DELETE") {
      co_await handle_delete(req, w);
    } else {
      auto r = HttpResponse::rpc_error(405, -32000, "Method not allowed");
      r.set("Allow", opts.stateless ? "POST" : "GET, POST, DELETE");
      co_await w.send(std::move(r));
    }
    co_return;
  }
  if (opts.legacy_sse && !opts.stateless) {
    if (req.path == opts.legacy_sse_path) {
      if (req.method == "GET") {
        co_await handle_legacy_get(req, w);
      } else {
        auto r = HttpResponse::text(405, "Method not allowed\n");
        r.set("Allow", "GET");
        co_await w.send(std::move(r));
      }
      co_return;
    }
    if (req.path == opts.legacy_messages_path) {
      if (req.method == "POST") {
        co_await handle_legacy_post(req, w);
      } else {
        auto r = HttpResponse::text(405, "Method not allowed\n");
        r.set("Allow", "POST");
        co_await w.send(std::move(r));
      }
      co_return;
    }
  }
  co_await w.send(HttpResponse::text(404, "Not found: the MCP endpoint is " + opts.path + "\n"));
}

void HttpServer::Impl::shutdown_session(std::shared_ptr<HttpSession> hs) {
  if (!hs) return;
  hs->finish_all();
  asio::post(server_ex, [hs] {
    if (hs->session) {
      hs->session->set_standalone_channel(nullptr);
      hs->session->shutdown();
    }
  });
}

void HttpServer::Impl::start_sweeper() {
  sweep_timer.expires_after(opts.sweep_interval);
  sweep_timer.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->stopping) return;
    self->sweep();
    self->start_sweeper();
  });
}

void HttpServer::Impl::sweep() {
  // Evicted state is only a cache of a self-validating id: drop our references
  // and let the session go (a request racing with this still holds its own).
  auto evicted = registry->evict_idle();
  if (!evicted.empty()) spdlog::debug("http: dropped in-memory state of {} idle sessions", evicted.size());
}

HttpServer::HttpServer(Server& server, asio::any_io_executor io_executor, HttpServerOptions options)
    : impl_(std::make_shared<Impl>(server, io_executor, std::move(options))) {}

HttpServer::~HttpServer() {
  impl_->stopping = true;
  impl_->sweep_timer.cancel();
}

std::uint16_t HttpServer::start() {
  auto& impl = *impl_;
  if (!impl.opts.stateless) {
    if (impl.opts.data_dir.empty()) impl.opts.data_dir = resolve_data_dir({});
    check_data_dir(impl.opts.data_dir);
    impl.registry = std::make_unique<SessionRegistry>(load_session_key(impl.opts.data_dir),
                                                      impl.opts.data_dir / "revoked-sessions", impl.opts.sessions);
  }
  std::weak_ptr<Impl> weak = impl_;
  impl.listener = std::make_unique<HttpListener>(impl.io, impl.opts.listener,
                                                 [weak](HttpRequest& req, ResponseWriter& w) -> asio::awaitable<void> {
                                                   auto self = weak.lock();
                                                   if (!self) {
                                                     co_await w.send(HttpResponse::text(503, "Shutting down\n"));
                                                     co_return;
                                                   }
                                                   co_await self->handle(req, w);
                                                 });
  impl.port = impl.listener->start();
  if (!impl.opts.stateless) impl.start_sweeper();
  return impl.port;
}

void HttpServer::stop(std::chrono::milliseconds grace) {
  auto impl = impl_;
  if (impl->stopping.exchange(true)) return;
  if (impl->listener) impl->listener->stop(grace);
  asio::post(impl->io, [impl] { impl->sweep_timer.cancel(); });
}

std::uint16_t HttpServer::port() const { return impl_->port; }

std::string HttpServer::url() const {
  const auto& o = impl_->opts;
  std::string host = o.listener.host;
  if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
  const bool tls = impl_->listener && impl_->listener->tls();
  return std::string(tls ? "https://" : "http://") + host + ":" + std::to_string(impl_->port) + o.path;
}

std::size_t HttpServer::sessions_in_memory() const { return impl_->registry ? impl_->registry->size() : 0; }

std::size_t HttpServer::connections() const { return impl_->listener ? impl_->listener->connection_count() : 0; }
std::size_t HttpServer::calls_in_flight() const { return impl_->calls.in_flight(); }
std::size_t HttpServer::buffered_bytes() const { return impl_->buffers->used(); }

}  // namespace hamcp::mcp::http
