// supervisor/api: Home Assistant's proxy to the Supervisor
// (hassio/websocket_api.py websocket_supervisor_api): endpoint, method, data?,
// params?, timeout?; the result is the Supervisor reply's `data`, a Supervisor
// error is unknown_error with its message. Only registered by the hassio
// integration: without a Supervisor the command does not exist.
#include "sim/supervisor/supervisor_api.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

void supervisor_api(WsConnection& c, int64_t id, const json::object& msg) {
  if (!home(c).supervisor) {
    c.send_error(id, "unknown_command", "Unknown command.");
    return;
  }
  const std::string endpoint = req_string(msg, "endpoint");
  const std::string method = req_string(msg, "method");
  RestQuery query;
  if (const json::value* params = msg.if_contains("params"); params && params->is_object())
    for (const auto& [k, v] : params->get_object())
      query.params[std::string(k)] = v.is_string() ? std::string(v.get_string()) : json::serialize(v);
  std::string body = "{}";
  if (const json::value* data = msg.if_contains("data")) {
    if (!data->is_object()) throw BadMessage{"expected dict for dictionary value @ data['data']"};
    body = json::serialize(*data);
  }
  const RestResponse r = supervisor_request(c.core(), method, endpoint, std::move(query), std::move(body));
  json::value reply;
  if (r.content_type == "application/json") {
    boost::system::error_code ec;
    reply = json::parse(r.body, ec);
  }
  const json::object* envelope = reply.if_object();
  if (r.status == 200 && envelope) {
    const json::value* data = envelope->if_contains("data");
    c.send_result(id, data ? *data : json::value(json::object{}));
    return;
  }
  // HA's send_command: a JSON error envelope gives its message; anything else none.
  const json::value* message = envelope ? envelope->if_contains("message") : nullptr;
  c.send_error(id, "unknown_error", message && message->is_string() ? std::string(message->get_string()) : "");
}

}  // namespace

void register_supervisor_commands(std::map<std::string, WsConnection::Handler, std::less<>>& t) {
  t["supervisor/api"] = supervisor_api;
}

}  // namespace hamcp::sim
