#pragma once
// The Home Assistant Supervisor's REST API (HA OS / Supervised), reached the
// two ways HA allows. Knows nothing of MCP.
//  - direct: inside an add-on (settings().supervisor) with SUPERVISOR_TOKEN, at
//    http://supervisor (or HAMCP_SUPERVISOR_ENDPOINT), the Supervisor's
//    {"result":"ok","data":…} envelope;
//  - core_proxy: elsewhere, HA's WebSocket command supervisor/api (the hassio
//    integration; admin token) and, for the text logs, GET /api/hassio/<path>.
// On HA Container/Core neither exists: SupervisorException{unavailable}, at
// once, never retried. Supervisor refusals: SupervisorException{refused} with
// the Supervisor's message; transport failures stay HaException.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <exception>
#include <string>

#include "ha/ha_client.hpp"

namespace hamcp::ha {

enum class SupervisorRoute { direct, core_proxy };

struct SupervisorFailure {
  enum class Kind {
    unavailable,  // no Supervisor on this install (HA Container/Core)
    refused,      // the Supervisor answered an error (message = its words)
    forbidden,    // the token may not use this endpoint
  };
  Kind kind = Kind::refused;
  int status = 0;  // HTTP status when known
  std::string message;
};

class SupervisorException : public std::exception {
 public:
  explicit SupervisorException(SupervisorFailure failure) : failure_(std::move(failure)) {}
  const SupervisorFailure& failure() const noexcept { return failure_; }
  const char* what() const noexcept override { return failure_.message.c_str(); }

 private:
  SupervisorFailure failure_;
};

class SupervisorClient {
 public:
  explicit SupervisorClient(HaClient& ha) : ha_(ha) {}

  SupervisorRoute route() const;
  // method "get" | "post" | "delete"; path like "/addons/core_ssh/info" (no
  // query: use params). Returns the reply's `data`. POSTs are never retried.
  boost::asio::awaitable<boost::json::value> call(std::string method, std::string path, boost::json::object body = {},
                                                  boost::json::object params = {});
  // A text/plain log: "/addons/<slug>/logs", "/supervisor/logs" or
  // "/host/logs/identifiers/<id>" (through HA: /host/logs, filtered to that
  // identifier's lines). `lines`: how many of the newest.
  boost::asio::awaitable<std::string> log_text(std::string path, int lines);
  // An add-on's own HTTP API at http://<host>:<port><path> (the add-on's
  // hostname on the Supervisor's network: only inside an add-on, route()
  // direct). No credentials are sent. method "get" | "post" | "delete".
  boost::asio::awaitable<Response> addon_http(std::string host, std::uint16_t port, std::string method,
                                              std::string path, boost::json::value body);
  // An add-on's UI/API through ingress, as HA's frontend reaches it
  // (supervisor_ingress.cpp): an ingress session from the Supervisor (made
  // through HA's supervisor/api command: only HA may create one), then
  // <HA>/api/hassio_ingress/<token><path> with the cookie ingress_session. A
  // kept session is validated before reuse and renewed when refused (401).
  // `token`: from the add-on's ingress_entry. Works on both routes.
  boost::asio::awaitable<Response> ingress_http(std::string token, std::string method, std::string path,
                                                boost::json::value body);

 private:
  boost::asio::awaitable<boost::json::value> call_direct(std::string method, std::string path, boost::json::object body,
                                                         boost::json::object params);
  boost::asio::awaitable<boost::json::value> call_proxy(std::string method, std::string path, boost::json::object body,
                                                        boost::json::object params);
  boost::asio::awaitable<std::string> log_via_core(std::string path, int lines);
  boost::asio::awaitable<std::string> ingress_session(bool fresh);
  boost::asio::awaitable<Response> ingress_request(const std::string& target, const std::string& method,
                                                   const boost::json::value& body, const std::string& session);

  HaClient& ha_;
};

// The one "no Supervisor here" failure.
SupervisorFailure no_supervisor();

}  // namespace hamcp::ha
