#include "ha/rest_client.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <deque>
#include <mutex>
#include <random>
#include <variant>

#include "ha/classify.hpp"
#include "ha/detail/any_stream.hpp"
#include "ha/detail/connection_slots.hpp"
#include "ha/detail/ha_json.hpp"
#include "ha/detail/transport.hpp"
#include "ha/scrub.hpp"

namespace hamcp::ha {

using namespace detail;
namespace http = boost::beast::http;

boost::json::value Response::json() const {
  boost::system::error_code ec;
  auto v = parse_ha_json(body, ec);
  if (ec) {
    throw HaException(make_error(ErrorCause::protocol_error, {},
                                 "response body is not JSON (" + ec.message() + "): " + body.substr(0, 120)));
  }
  return v;
}

namespace {

constexpr std::uint64_t kBodyLimit = 512ull * 1024 * 1024;
// aiohttp closes idle keep-alive connections after 75 s; never hand a write a
// connection that may be half-closed, since a write must not be replayed.
constexpr auto kMaxIdleForWrites = std::chrono::seconds(10);
constexpr auto kMaxIdle = std::chrono::seconds(60);
// Requests talking to HA at once, each on its own connection; the rest queue
// (a 1,500-call batch once opened 1,500 sockets to HA).
constexpr std::size_t kMaxConnections = 32;

struct Connection {
  std::unique_ptr<beast::tcp_stream> plain;
  std::unique_ptr<TlsStream> tls;
  std::unique_ptr<AnyStream> custom;  // from the connector (RestClient::set_connector)
  beast::flat_buffer buffer;
  std::chrono::steady_clock::time_point idle_since;

  void expires_after(std::chrono::milliseconds timeout) {
    if (custom) {
      custom->expires_after(timeout);
    } else {
      lowest_tcp().expires_after(timeout);
    }
  }
  void expires_never() {
    if (custom) {
      custom->expires_never();
    } else {
      lowest_tcp().expires_never();
    }
  }
  // A custom stream's expiry closes it (operation_aborted and the like): report it as tcp_stream does.
  boost::system::error_code as_timeout_if_expired(boost::system::error_code ec) const {
    return ec && custom && custom->timed_out() ? beast::error::timeout : ec;
  }

 private:
  beast::tcp_stream& lowest_tcp() { return tls ? beast::get_lowest_layer(*tls) : *plain; }
};

// Thrown inside one attempt; says whether a retry is allowed.
struct AttemptFailure {
  HaError error;
  bool before_request_sent = false;  // connect-phase failure
  bool stale_pooled = false;         // reused connection died before any response byte
};

}  // namespace

struct RestClient::Impl : std::enable_shared_from_this<RestClient::Impl> {
  asio::any_io_executor executor;
  ConnectionSettings settings;
  std::shared_ptr<ssl::context> ssl_ctx;
  StreamConnector connector;  // empty: TCP/TLS
  std::mutex mutex;
  std::deque<std::unique_ptr<Connection>> idle;
  RetryPolicy retry;
  Secret cookie;  // set_cookie: sent on every request
  std::atomic<std::uint64_t> opened{0};
  std::mt19937 rng{std::random_device{}()};
  ConnectionSlots slots{executor, kMaxConnections};

  // Waits (at most `timeout`) for one of the kMaxConnections slots.
  asio::awaitable<void> acquire_slot(std::chrono::milliseconds timeout) {
    const bool got = co_await slots.acquire(timeout);
    if (got) co_return;
    throw HaException(make_error(ErrorCause::timeout, settings.display_url,
                                 "waited " + std::to_string(timeout.count()) + " ms for one of the " +
                                     std::to_string(kMaxConnections) + " connections to Home Assistant"));
  }

  Impl(asio::any_io_executor ex, ConnectionSettings s) : executor(std::move(ex)), settings(std::move(s)) {}

  std::unique_ptr<Connection> take_idle(bool for_write) {
    std::lock_guard lock(mutex);
    const auto now = std::chrono::steady_clock::now();
    while (!idle.empty()) {
      auto conn = std::move(idle.back());
      idle.pop_back();
      const auto age = now - conn->idle_since;
      if (age < kMaxIdle && (!for_write || age < kMaxIdleForWrites)) return conn;
    }
    return nullptr;
  }

  void give_back(std::unique_ptr<Connection> conn) {
    conn->idle_since = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex);
    if (idle.size() < kMaxConnections) idle.push_back(std::move(conn));  // every slot may come back for one
  }

  asio::awaitable<std::unique_ptr<Connection>> open() {
    auto conn = std::make_unique<Connection>();
    if (connector) {
      std::unique_ptr<ByteStream> connected = co_await connector(executor);
      if (!connected) {
        throw HaException(
            make_error(ErrorCause::connection_refused, settings.display_url, "the stream connector failed"));
      }
      conn->custom = std::make_unique<AnyStream>(std::move(connected));
    } else if (settings.tls) {
      if (!ssl_ctx) ssl_ctx = make_ssl_context(settings);
      conn->tls = std::make_unique<TlsStream>(executor, *ssl_ctx);
      co_await connect_tcp(beast::get_lowest_layer(*conn->tls), settings);
      co_await tls_handshake(*conn->tls, settings);
    } else {
      conn->plain = std::make_unique<beast::tcp_stream>(executor);
      co_await connect_tcp(*conn->plain, settings);
    }
    opened.fetch_add(1, std::memory_order_relaxed);
    co_return conn;
  }

  // A sharper diagnosis when the first classification is ambiguous.
  asio::awaitable<HaError> refine(HaError error) {
    // No co_await inside conditions: GCC 12 miscompiles some of those.
    const bool ambiguous_plain =
        !settings.tls && (error.cause == ErrorCause::connection_lost || error.cause == ErrorCause::protocol_error);
    const bool ambiguous_tls = settings.tls && error.cause == ErrorCause::tls_failure;
    HaError out = std::move(error);
    if (ambiguous_plain) {
      const bool speaks_tls = co_await port_speaks_tls(settings);
      if (speaks_tls) {
        out.cause = ErrorCause::plain_to_tls_port;
        out.target = settings.display_url;
      }
    }
    if (ambiguous_tls) {
      const bool speaks_http = co_await port_speaks_plain_http(settings);
      if (speaks_http) {
        out.cause = ErrorCause::tls_to_plain_port;
        out.target = settings.display_url;
      }
    }
    co_return out;
  }

  struct Exchanged {
    Response response;
    bool keep_alive = false;
  };

  template <class Stream>
  asio::awaitable<Exchanged> exchange(Stream& stream, Connection& conn, http::request<http::string_body>& req,
                                      std::chrono::milliseconds timeout, bool reused) {
    NetContext ctx = net_context(settings);
    boost::system::error_code ec;
    conn.expires_after(timeout);
    co_await http::async_write(stream, req, asio::redirect_error(asio::use_awaitable, ec));
    ec = conn.as_timeout_if_expired(ec);
    if (ec) {
      throw AttemptFailure{classify_network_error(ec, NetPhase::send, ctx), false, reused};
    }
    http::response_parser<http::string_body> parser;
    parser.body_limit(kBodyLimit);
    co_await http::async_read(stream, conn.buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    conn.expires_never();
    ec = conn.as_timeout_if_expired(ec);
    if (ec) {
      const auto data = conn.buffer.data();
      ctx.received_prefix = std::string_view(static_cast<const char*>(data.data()), data.size());
      const bool nothing_received = data.size() == 0 && !parser.got_some();
      throw AttemptFailure{classify_network_error(ec, NetPhase::receive, ctx), false, reused && nothing_received};
    }
    auto msg = parser.release();
    Exchanged out;
    out.response.status = static_cast<int>(msg.result_int());
    out.response.content_type = std::string(msg[http::field::content_type]);
    out.response.body = std::move(msg.body());
    out.keep_alive = msg.keep_alive();
    co_return out;
  }

  asio::awaitable<Response> attempt(http::verb verb, const std::string& path, const std::string* body,
                                    std::chrono::milliseconds timeout) {
    co_await acquire_slot(timeout);
    struct SlotGuard {
      Impl* impl;
      ~SlotGuard() {
        try {
          impl->slots.release();
        } catch (...) {  // NOLINT(bugprone-empty-catch): only posting the wake-up can fail (out of memory)
        }
      }
    } slot{this};
    const bool is_write = verb != http::verb::get;
    auto conn = take_idle(is_write);
    const bool reused = conn != nullptr;
    if (!conn) {
      try {
        conn = co_await open();
      } catch (const HaException& e) {
        throw AttemptFailure{e.error(), true, false};
      }
    }
    http::request<http::string_body> req{verb, settings.http_target(path), 11};
    req.set(http::field::host, settings.host_header);
    req.set(http::field::user_agent, "hamcp/" HAMCP_VERSION);
    req.set(http::field::accept, "application/json");
    if (!settings.token.empty()) {
      req.set(http::field::authorization, "Bearer " + settings.token.reveal());
    }
    if (!cookie.empty()) req.set(http::field::cookie, cookie.reveal());
    if (body) {
      req.set(http::field::content_type, "application/json");
      req.body() = *body;
    }
    req.keep_alive(true);
    req.prepare_payload();
    Exchanged ex;
    if (conn->custom) {
      ex = co_await exchange(*conn->custom, *conn, req, timeout, reused);
    } else if (conn->tls) {
      ex = co_await exchange(*conn->tls, *conn, req, timeout, reused);
    } else {
      ex = co_await exchange(*conn->plain, *conn, req, timeout, reused);
    }
    if (ex.keep_alive) give_back(std::move(conn));
    co_return std::move(ex.response);
  }

  std::chrono::milliseconds backoff(int attempt_index) {
    auto base = retry.initial_backoff * (1 << std::min(attempt_index, 6));
    base = std::min(base, retry.max_backoff);
    std::uniform_int_distribution<long> jitter(0, base.count() / 4 + 1);
    std::lock_guard lock(mutex);
    return base + std::chrono::milliseconds(jitter(rng));
  }

  asio::awaitable<Response> request(http::verb verb, std::string path, std::optional<std::string> body,
                                    RequestOptions options) {
    const auto timeout = options.timeout.value_or(settings.request_timeout);
    const bool idempotent = verb == http::verb::get;
    const int attempts = idempotent ? std::max(1, retry.max_attempts) : 1;
    bool stale_retried = false;
    for (int i = 0;; ++i) {
      std::optional<AttemptFailure> failure;
      try {
        const std::string* body_ptr = body ? &*body : nullptr;
        Response r = co_await attempt(verb, path, body_ptr, timeout);
        const bool gateway = r.status == 502 || r.status == 503 || r.status == 504;
        if (idempotent && gateway && i + 1 < attempts) {
          spdlog::debug("ha rest: GET {} -> {}, retrying", path, r.status);
          asio::steady_timer timer(executor, backoff(i));
          co_await timer.async_wait(asio::use_awaitable);
          continue;
        }
        // Ingress scrub: an HA (or proxy) that echoes the Authorization header
        // must not hand the token to a tool result, doctor or a log line.
        r.body = settings.token.scrub(std::move(r.body));
        r.content_type = settings.token.scrub(std::move(r.content_type));
        r.body = cookie.scrub(std::move(r.body));
        co_return r;
      } catch (AttemptFailure& f) {
        failure = std::move(f);
      }
      // A pooled connection the server had already closed: nothing reached HA,
      // so even a write may go once more, on a fresh connection.
      if (failure->stale_pooled && !stale_retried) {
        spdlog::debug("ha rest: pooled connection was stale, reconnecting");
        stale_retried = true;
        --i;
        continue;
      }
      const bool may_retry = idempotent && failure->before_request_sent && failure->error.retryable() &&
                             failure->error.cause != ErrorCause::timeout && i + 1 < attempts;
      if (!may_retry) {
        HaError refined = co_await refine(failure->error);
        scrub_error(refined, settings.token);
        throw HaException(std::move(refined));
      }
      asio::steady_timer timer(executor, backoff(i));
      co_await timer.async_wait(asio::use_awaitable);
    }
  }
};

RestClient::RestClient(asio::any_io_executor executor, ConnectionSettings settings)
    : impl_(std::make_shared<Impl>(std::move(executor), std::move(settings))) {}
RestClient::~RestClient() = default;

asio::awaitable<Response> RestClient::get(std::string path, RequestOptions options) {
  auto impl = impl_;
  std::optional<std::string> no_body;
  co_return co_await impl->request(http::verb::get, std::move(path), std::move(no_body), options);
}

asio::awaitable<Response> RestClient::post(std::string path, boost::json::value body, RequestOptions options) {
  auto impl = impl_;
  std::optional<std::string> text = boost::json::serialize(body);
  co_return co_await impl->request(http::verb::post, std::move(path), std::move(text), options);
}

asio::awaitable<Response> RestClient::del(std::string path, RequestOptions options) {
  auto impl = impl_;
  std::optional<std::string> no_body;
  co_return co_await impl->request(http::verb::delete_, std::move(path), std::move(no_body), options);
}

asio::awaitable<Response> RestClient::send(std::string method, std::string path, boost::json::value body) {
  auto impl = impl_;
  std::optional<std::string> text;
  const RequestOptions options{};  // named: GCC 12 coroutine temporaries
  http::verb verb = http::verb::get;
  if (method == "post") {
    verb = http::verb::post;
    text = boost::json::serialize(body);
  } else if (method == "delete") {
    verb = http::verb::delete_;
  }
  co_return co_await impl->request(verb, std::move(path), std::move(text), options);
}

namespace {
boost::json::value to_json_or_throw(const Response& r, const ConnectionSettings& s, const std::string& path) {
  // An HA (or a proxy) that echoes the Authorization header must not put the token into an error:
  // scrub the whole body before an excerpt is cut from it (a token cut in half by the excerpt's
  // end would no longer match the scrub).
  if (!r.ok()) {
    HaError e = classify_http_status(r.status, s.token.scrub(r.body), s.display_url + s.http_target(path));
    scrub_error(e, s.token);
    throw HaException(std::move(e));
  }
  if (r.content_type.find("json") == std::string::npos) return boost::json::string(r.body);
  if (r.body.empty()) return nullptr;
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(r.body, ec);
  if (!ec) return v;
  Response scrubbed{r.status, s.token.scrub(r.body), r.content_type};
  return scrubbed.json();  // throws protocol_error with an excerpt of the scrubbed body
}
}  // namespace

asio::awaitable<boost::json::value> RestClient::get_json(std::string path, RequestOptions options) {
  auto impl = impl_;
  std::optional<std::string> no_body;
  Response r = co_await impl->request(http::verb::get, path, std::move(no_body), options);
  co_return to_json_or_throw(r, impl->settings, path);
}

asio::awaitable<boost::json::value> RestClient::post_json(std::string path, boost::json::value body,
                                                          RequestOptions options) {
  auto impl = impl_;
  std::optional<std::string> text = boost::json::serialize(body);
  Response r = co_await impl->request(http::verb::post, path, std::move(text), options);
  co_return to_json_or_throw(r, impl->settings, path);
}

void RestClient::set_retry_policy(RetryPolicy policy) { impl_->retry = policy; }
void RestClient::set_cookie(Secret cookie) { impl_->cookie = std::move(cookie); }
void RestClient::set_connector(StreamConnector connector) { impl_->connector = std::move(connector); }
const ConnectionSettings& RestClient::settings() const noexcept { return impl_->settings; }
std::uint64_t RestClient::connections_opened() const noexcept { return impl_->opened.load(); }
std::size_t RestClient::idle_connections() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->idle.size();
}

}  // namespace hamcp::ha
