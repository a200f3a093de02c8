#pragma once
// The simulated Supervisor's REST API (supervisor/api/__init__.py's routes,
// the {"result":"ok","data":…} / {"result":"error","message":…} envelope) as
// route tables over Home::supervisor, reached two ways as on HA OS:
//  - directly (http://supervisor, the add-on's SUPERVISOR_TOKEN): the same
//    server answers /addons, /store, /supervisor/logs, /host/logs/... beside /api;
//  - through Home Assistant: the WebSocket command supervisor/api
//    (hassio/websocket_api.py; the reply's `data`, a Supervisor error as
//    unknown_error) and the text logs under /api/hassio/... (hassio/http.py).
// Without Home::supervisor (HA Container/Core) none of them exists: 404 and
// HA's unknown_command. Handlers run with the store's mutex held.

#include <string>

#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {

// The Supervisor's own paths and HA's /api/hassio/ log proxy, into the server's router.
void add_supervisor_routes(RestRouter& router);

// One Supervisor request as HA's supervisor/api command makes it: method
// ("get", "post", "delete"; any case), endpoint path (no query string), query
// parameters and JSON body. Call with the store's mutex held.
RestResponse supervisor_request(SimCore& core, std::string method, const std::string& path, RestQuery query,
                                std::string body);

// HA's ingress view /api/hassio_ingress/<token>/<path> (hassio/ingress.py:
// requires_auth = False; the Supervisor checks the cookie ingress_session and
// answers 401 without a valid one). A started add-on with ingress answers a
// small HTML page at "/" and JSON at "/api/info"; POST echoes its body. Takes
// the store's mutex itself.
RestResponse ingress_answer(SimCore& core, const RestRequest& request, const std::string& path);

}  // namespace hamcp::sim
