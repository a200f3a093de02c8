#pragma once
// Home Assistant's REST API (/api/...) over SimCore, without the network:
// the server hands in method/target/headers/body and writes the response.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/sim_core.hpp"

namespace hamcp::sim {

struct RestRequest {
  std::string method;         // "GET", "POST", "DELETE"
  std::string target;         // path + query, e.g. "/api/states?x=1"
  std::string authorization;  // the Authorization header
  std::string cookie;         // the Cookie header (ingress sessions)
  std::string body;
  bool from_loopback = true;
};

struct RestResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // HA's background work after the answer (e.g. the reload after a config
  // write): SimServer runs it once the response is sent, under the store's
  // mutex; a caller of RestApi without the server runs it itself.
  std::function<void()> after;
};

class RestApi {
 public:
  // `control` serves POST /api/hamcp_sim/fault (the test control endpoint).
  using Control = std::function<RestResponse(const json::object& command)>;
  RestApi(SimCore& core, Control control);
  RestResponse handle(const RestRequest& request);

 private:
  SimCore& core_;
  Control control_;
};

RestResponse json_response(int status, const json::value& body);
RestResponse message_response(int status, std::string_view message);  // {"message": …}
RestResponse text_response(int status, std::string_view text);        // text/plain

}  // namespace hamcp::sim
