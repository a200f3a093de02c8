#pragma once
// HTTP/1.1 client for Home Assistant's REST API (Beast kept out of this header).
// Keep-alive connection pool, TLS with SNI + host-name verification, per-request
// timeouts. GETs are retried (bounded, with backoff) after connect failures and
// 502/503/504; POST/DELETE are never replayed, so writes are never duplicated.
// Network failures throw HaException; HTTP statuses are returned in Response
// (use the *_json helpers to get typed errors for non-2xx).

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ha/byte_stream.hpp"
#include "ha/connection_config.hpp"
#include "ha/errors.hpp"

namespace hamcp::ha {

struct Response {
  int status = 0;
  std::string body;
  std::string content_type;
  bool ok() const noexcept { return status >= 200 && status < 300; }
  // Parsed body; throws HaException(protocol_error) if it is not JSON.
  boost::json::value json() const;
};

struct RequestOptions {
  std::optional<std::chrono::milliseconds> timeout;  // default: settings.request_timeout
};

struct RetryPolicy {
  int max_attempts = 3;  // GETs only; POST/DELETE always 1
  std::chrono::milliseconds initial_backoff{250};
  std::chrono::milliseconds max_backoff{2000};
};

class RestClient {
 public:
  RestClient(boost::asio::any_io_executor executor, ConnectionSettings settings);
  ~RestClient();
  RestClient(const RestClient&) = delete;
  RestClient& operator=(const RestClient&) = delete;

  // path is HA's documented path, e.g. "/api/states" (mapped onto the base URL).
  boost::asio::awaitable<Response> get(std::string path, RequestOptions options = {});
  boost::asio::awaitable<Response> post(std::string path, boost::json::value body, RequestOptions options = {});
  boost::asio::awaitable<Response> del(std::string path, RequestOptions options = {});
  // By a method name as tools and the Supervisor's API take it: "post", "delete", else GET
  // (the body is sent with POST only).
  boost::asio::awaitable<Response> send(std::string method, std::string path, boost::json::value body);

  // Like get/post, but a non-2xx status throws its classified HaError and the
  // body is parsed as JSON (plain-text bodies come back as a JSON string).
  boost::asio::awaitable<boost::json::value> get_json(std::string path, RequestOptions options = {});
  boost::asio::awaitable<boost::json::value> post_json(std::string path, boost::json::value body,
                                                       RequestOptions options = {});

  void set_retry_policy(RetryPolicy policy);
  // A Cookie header on every request (an ingress session): scrubbed from answers, never logged.
  // Kept out of RequestOptions so that stays trivially destructible (GCC 12 coroutine temporaries).
  void set_cookie(Secret cookie);
  // Empty (production): TCP, and TLS for https. Set: every new connection is a stream it makes
  // (tests and fuzz targets: an in-memory Home Assistant); request timeouts apply as over TCP.
  // Set it before the first request.
  void set_connector(StreamConnector connector);
  const ConnectionSettings& settings() const noexcept;
  // Observability for tests and diagnostics.
  std::uint64_t connections_opened() const noexcept;
  std::size_t idle_connections() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::ha
