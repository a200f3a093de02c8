// WebSocket commands trace/list and trace/get (components/trace/websocket_api.py).
#include "sim/core/traces.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

std::string domain_arg(const json::object& msg) {
  std::string domain = req_string(msg, "domain");
  if (domain != "automation" && domain != "script")
    throw BadMessage{"value must be one of ['automation', 'script'] for dictionary value @ data['domain']"};
  return domain;
}

void trace_list(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string domain = domain_arg(msg);
  const json::value* item = msg.if_contains("item_id");
  json::array out;
  for (const auto& [key, runs] : home(c).traces) {
    if (key.rfind(domain + "/", 0) != 0) continue;
    if (item && item->is_string() && key != domain + "/" + std::string(item->get_string())) continue;
    for (const auto& run : runs) out.push_back(short_trace(run));
  }
  c.send_result(id, out);
}

void trace_get(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string key = domain_arg(msg) + "/" + req_string(msg, "item_id");
  const std::string run_id = req_string(msg, "run_id");
  auto it = home(c).traces.find(key);
  if (it != home(c).traces.end())
    for (const auto& run : it->second)
      if (run.at("run_id").as_string() == run_id) return c.send_result(id, run);
  c.send_error(id, "not_found", "The trace could not be found");
}

}  // namespace

void register_trace_commands(ws_util::Table& t) {
  t["trace/list"] = trace_list;
  t["trace/get"] = trace_get;
}

}  // namespace hamcp::sim
