// Routing, access control, lifecycle and /healthz of the MCP HTTP server: the
// part that ties the others together (session_host, streamable_http,
// legacy_sse).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "common/ascii.hpp"
#include "mcp/http/auth_discovery.hpp"
#include "mcp/http/cors.hpp"
#include "mcp/http/data_dir.hpp"
#include "mcp/http/guarded_log.hpp"
#include "mcp/http/legacy_sse.hpp"
#include "mcp/http/session_host.hpp"
#include "mcp/http/streamable_http.hpp"

namespace hamcp::mcp::http {
// The router and lifecycle part of the server: access checks, dispatch to
// the transports, /healthz, start and stop.
//
// Threading: fixed after start() except `stopping` (atomic); handle() runs on
// the calling connection's executor; sessions live in SessionHost.
struct HttpServer::Impl {
  Impl(Server& s, asio::any_io_executor io_ex, HttpServerOptions o)
      : server(s),
        io(io_ex),
        opts(std::move(o)),
        origin_policy(opts.listener.host, opts.allowed_hosts, opts.allowed_origins),
        host(std::make_shared<SessionHost>(s, io_ex, opts)),
        streamable(host, opts),
        legacy(host, opts) {}

  asio::awaitable<void> handle(HttpRequest& req, ResponseWriter& w);
  // After the Host/Origin checks: OAuth routes, credentials, the MCP endpoints.
  asio::awaitable<void> route(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_healthz(HttpRequest& req, ResponseWriter& w);
  // Access checks before anything else; the refusal to send, if any.
  std::optional<HttpResponse> check_access(const HttpRequest& req) const;
  // Bearer token or OAuth access token; the 401 to send, if any.
  std::optional<HttpResponse> check_credentials(HttpRequest& req) const;
  // OAuth discovery and the authorization server's own endpoints (no token needed).
  asio::awaitable<bool> handle_oauth_routes(HttpRequest& req, ResponseWriter& w);
  std::string base_url(const HttpRequest& req) const {
    return public_base(req, opts.public_url, !opts.listener.tls_cert.empty());
  }
  asio::awaitable<void> handle_mcp(HttpRequest& req, ResponseWriter& w, bool read_only);
  asio::awaitable<void> handle_legacy(HttpRequest& req, ResponseWriter& w);

  Server& server;
  asio::any_io_executor io;
  HttpServerOptions opts;
  OriginPolicy origin_policy;
  std::shared_ptr<SessionHost> host;
  StreamableHttp streamable;
  LegacySse legacy;
  std::unique_ptr<HttpListener> listener;
  std::uint16_t port = 0;
  std::atomic<bool> stopping{false};
};

namespace {
HttpResponse method_not_allowed(std::string_view allow, bool rpc) {
  auto r = rpc ? HttpResponse::rpc_error(405, -32000, "Method not allowed")
               : HttpResponse::text(405, "Method not allowed\n");
  r.set("Allow", std::string(allow));
  return r;
}
}  // namespace

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
    body["sessions_in_memory"] = host->registry() ? host->registry()->size() : 0;
    body["stateless"] = opts.stateless;
  }
  co_await w.send(HttpResponse::json(200, body));
}

std::optional<HttpResponse> HttpServer::Impl::check_access(const HttpRequest& req) const {
  // DNS-rebinding protection before anything else: a browser page on a foreign
  // origin must not reach a local server.
  if (!origin_policy.host_allowed(req.header("host"))) {
    guarded_warn("http: refused request with Host \"{}\" (add it with --allowed-host)",
                 printable(req.header("host").value_or("")));
    return HttpResponse::rpc_error(403, -32000, "Forbidden: Host header is not allowed");
  }
  if (!origin_policy.origin_allowed(req.header("origin"))) {
    guarded_warn("http: refused request from Origin \"{}\" (add it with --allowed-origin)",
                 printable(req.header("origin").value_or("")));
    return HttpResponse::rpc_error(403, -32000, "Forbidden: Origin is not allowed");
  }
  return std::nullopt;
}

std::optional<HttpResponse> HttpServer::Impl::check_credentials(HttpRequest& req) const {
  const auto authorization = req.header("authorization");
  if (opts.oauth) {
    const auto token = bearer_value(authorization);
    if (auto user = token ? opts.oauth->authenticate(*token) : std::nullopt) {
      req.principal = std::move(*user);  // its calls reach HA as this user
      return std::nullopt;
    }
    return unauthorized(resource_metadata_url(base_url(req), opts.path), token.has_value(),
                        "Unauthorized: sign in through OAuth (see WWW-Authenticate)");
  }
  if (opts.auth_token.empty() || bearer_matches(authorization, opts.auth_token)) return std::nullopt;
  return unauthorized(resource_metadata_url(base_url(req), opts.path), authorization.has_value(),
                      "Unauthorized: send Authorization: Bearer <token>");
}

asio::awaitable<bool> HttpServer::Impl::handle_oauth_routes(HttpRequest& req, ResponseWriter& w) {
  const WellKnown kind = well_known_kind(req.path);
  if (kind == WellKnown::kNone && !(opts.oauth && opts.oauth->owns(req.path))) co_return false;
  const std::string base = base_url(req);
  if (kind == WellKnown::kProtectedResource) {
    const std::string issuer = opts.oauth ? base : std::string();
    co_await w.send(protected_resource_metadata(base + opts.path, issuer));
  } else if (kind == WellKnown::kAuthorizationServer) {
    auto answer = opts.oauth ? HttpResponse::json(200, opts.oauth->metadata(base)) : no_authorization_server();
    co_await w.send(std::move(answer));
  } else {
    auto answer = co_await opts.oauth->handle(req, base);
    co_await w.send(std::move(answer));
  }
  co_return true;
}

asio::awaitable<void> HttpServer::Impl::handle(HttpRequest& req, ResponseWriter& w) {
  if (req.path == "/healthz") {
    co_await handle_healthz(req, w);
    co_return;
  }
  if (auto refused = check_access(req)) {
    co_await w.send(std::move(*refused));
    co_return;
  }
  // A browser client on an origin check_access allowed: CORS (cors.hpp). The
  // preflight carries no credentials, so it is answered before they are checked.
  if (const auto origin = req.header("origin")) {
    const std::string allowed(*origin);
    if (is_cors_preflight(req)) {
      HttpResponse answer = cors_preflight_answer(req, allowed);  // named: GCC 12 coroutine temporaries
      co_await w.send(std::move(answer));
      co_return;
    }
    CorsWriter cors(w, allowed);
    co_await route(req, cors);
    co_return;
  }
  co_await route(req, w);
}

asio::awaitable<void> HttpServer::Impl::route(HttpRequest& req, ResponseWriter& w) {
  if (co_await handle_oauth_routes(req, w)) co_return;
  if (auto refused = check_credentials(req)) {
    co_await w.send(std::move(*refused));
    co_return;
  }
  if (req.path == opts.path || req.path == read_only_path(opts)) {
    co_await handle_mcp(req, w, req.path != opts.path);
    co_return;
  }
  if (opts.legacy_sse && !opts.stateless &&
      (req.path == opts.legacy_sse_path || req.path == opts.legacy_messages_path)) {
    co_await handle_legacy(req, w);
    co_return;
  }
  co_await w.send(HttpResponse::text(404, "Not found: the MCP endpoint is " + opts.path + "\n"));
}

asio::awaitable<void> HttpServer::Impl::handle_mcp(HttpRequest& req, ResponseWriter& w, bool read_only) {
  if (req.method == "POST")
    co_await streamable.handle_post(req, w, read_only);
  else if (req.method == "GET")
    co_await streamable.handle_get(req, w);
  else if (req.method == "DELETE")
    co_await streamable.handle_delete(req, w);
  else
    co_await w.send(method_not_allowed(opts.stateless ? "POST" : "GET, POST, DELETE", true));
}

asio::awaitable<void> HttpServer::Impl::handle_legacy(HttpRequest& req, ResponseWriter& w) {
  const bool stream = req.path == opts.legacy_sse_path;
  const std::string_view wanted = stream ? "GET" : "POST";
  if (req.method != wanted)
    co_await w.send(method_not_allowed(wanted, false));
  else if (stream)
    co_await legacy.handle_get(req, w);
  else
    co_await legacy.handle_post(req, w);
}

HttpServer::HttpServer(Server& server, asio::any_io_executor io_executor, HttpServerOptions options)
    : impl_(std::make_shared<Impl>(server, io_executor, std::move(options))) {}

HttpServer::~HttpServer() {
  impl_->stopping = true;
  impl_->host->stop(true);
}

std::uint16_t HttpServer::start() {
  auto& impl = *impl_;
  if (!impl.opts.stateless) {
    if (impl.opts.data_dir.empty()) impl.opts.data_dir = resolve_data_dir({});
    check_data_dir(impl.opts.data_dir);
    impl.host->open_registry();
    impl.server.keep_tasks_in(impl.opts.data_dir / "tasks.json");  // a task's client may poll after a restart
  }
  impl.listener = std::make_unique<HttpListener>(impl.io, impl.opts.listener, handler());
  impl.port = impl.listener->start();
  if (!impl.opts.stateless) impl.host->start_sweeper();
  return impl.port;
}

void HttpServer::stop(std::chrono::milliseconds grace) {
  auto impl = impl_;
  if (impl->stopping.exchange(true)) return;
  if (impl->listener) impl->listener->stop(grace);
  impl->host->stop();
}

HttpHandler HttpServer::handler() const {
  std::weak_ptr<Impl> weak = impl_;
  return [weak](HttpRequest& req, ResponseWriter& w) -> asio::awaitable<void> {
    auto self = weak.lock();
    if (!self) {
      co_await w.send(HttpResponse::text(503, "Shutting down\n"));
      co_return;
    }
    co_await self->handle(req, w);
  };
}

std::uint16_t HttpServer::port() const { return impl_->port; }

std::string HttpServer::url() const {
  const auto& o = impl_->opts;
  std::string host = o.listener.host;
  if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
  const bool tls = impl_->listener && impl_->listener->tls();
  return std::string(tls ? "https://" : "http://") + host + ":" + std::to_string(impl_->port) + o.path;
}

std::size_t HttpServer::sessions_in_memory() const {
  SessionRegistry* registry = impl_->host->registry();
  return registry ? registry->size() : 0;
}

std::size_t HttpServer::connections() const { return impl_->listener ? impl_->listener->connection_count() : 0; }
std::size_t HttpServer::calls_in_flight() const { return impl_->host->calls_in_flight(); }
std::size_t HttpServer::buffered_bytes() const { return impl_->host->buffered_bytes(); }

}  // namespace hamcp::mcp::http
