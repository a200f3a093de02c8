#pragma once
// The REST side's routing table: a route is a method, a path pattern and a
// handler. Patterns are "/"-separated segments; "{name}" matches any one
// segment and hands it to the handler in `RestCall::path`. A path that matches
// no pattern is HA's 404; one that matches only under another method is 405.
// Each API family registers its routes in its own rest_routes_*.cpp.

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/sim_core.hpp"
#include "sim/rest/rest_api.hpp"

namespace hamcp::sim {

struct RestQuery {
  std::map<std::string, std::string> params;
  bool has(const std::string& key) const { return params.count(key) > 0; }
  std::string get(const std::string& key) const {
    auto it = params.find(key);
    return it == params.end() ? std::string() : it->second;
  }
};

// What a handler gets; called with the store's mutex held.
struct RestCall {
  const RestRequest& request;
  const RestQuery& query;
  std::vector<std::string> path;  // the segments "{…}" matched, in order
  SimCore& core;
  StateStore& store;
  Context user_context;  // the context of the authenticated user's request
};

using RestHandler = std::function<RestResponse(RestCall&)>;

class RestRouter {
 public:
  // `method` "*" accepts every method (HA answers some paths whatever the method).
  void add(std::string method, std::string_view pattern, RestHandler handler);
  // Segments of the path after the leading "/"; empty segments are dropped as HA's router does.
  RestResponse dispatch(const std::vector<std::string>& segments, RestCall& call) const;

 private:
  struct Route {
    std::string method;
    std::vector<std::string> pattern;
    RestHandler handler;
  };
  std::vector<Route> routes_;
};

std::vector<std::string> split_path(std::string_view path);

// HA's plain-text errors.
RestResponse not_found();
RestResponse method_not_allowed();
RestResponse bad_request();
// HA's /auth/* endpoints (rest_routes_auth.cpp); nullopt: not one of them.
std::optional<RestResponse> auth_endpoint(const RestRequest& req, std::string_view path, SimCore& core);
RestResponse server_error();

// The request body as a JSON object: {} when empty; nullopt (and `invalid`
// when it is not JSON at all) otherwise.
std::optional<json::object> body_object(const RestRequest& request, bool& invalid);

// The route families.
void add_core_routes(RestRouter& router);     // /api, config, states, services, events, template
void add_history_routes(RestRouter& router);  // history, logbook, error_log
void add_config_routes(RestRouter& router);   // automation/script/scene config, check_config
void add_flow_routes(RestRouter& router);     // config entries, config and options flows

// calendars, camera_proxy
void add_everyday_routes(RestRouter& router);

}  // namespace hamcp::sim
