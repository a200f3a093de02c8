// ha_call_service: call any Home Assistant service, then (wait=true) confirm
// the resulting state change through the mirror.
#include <algorithm>

#include "tools/entities/entity_tools.hpp"
#include "tools/entities/service_runner.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

std::chrono::milliseconds timeout_arg(Args& args, const ToolEnv& env) {
  const double seconds = args.number("timeout", static_cast<double>(env.options.default_wait.count()) / 1000.0);
  const auto ms = static_cast<std::int64_t>(seconds * 1000);
  return std::chrono::milliseconds(std::clamp<std::int64_t>(ms, 0, env.options.max_wait.count()));
}

boost::asio::awaitable<mcp::ToolResult> run_call_service(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  ServiceRequest req;
  req.scope = std::string(ctx.session_id());
  req.domain = args.str("domain");
  req.service = args.str("service");
  // "light.turn_on" in service (a common model habit) is accepted as domain + service.
  if (req.domain.empty() && req.service.find('.') != std::string::npos) {
    req.domain = req.service.substr(0, req.service.find('.'));
    req.service = req.service.substr(req.service.find('.') + 1);
  }
  if (req.domain.empty())
    throw ToolException(
        bad_argument("domain", "missing", "Pass domain and service, e.g. domain=\"light\", service=\"turn_on\"."));
  req.entity_ids = args.list("entity_id");
  if (const json::object* target = args.object("target")) {
    for (const auto& kv : *target) {
      if (kv.key() == "entity_id") {
        for (auto& id : string_list(&kv.value())) req.entity_ids.push_back(id);
      } else {
        req.target.emplace(kv.key(), kv.value());
      }
    }
  }
  if (const json::object* data = args.object("data")) {
    req.data = *data;
    // entity_id inside data is how HA's YAML writes it; treat it as a target.
    if (const json::value* e = req.data.if_contains("entity_id")) {
      for (auto& id : string_list(e)) req.entity_ids.push_back(id);
      req.data.erase("entity_id");
    }
  }
  std::sort(req.entity_ids.begin(), req.entity_ids.end());
  req.entity_ids.erase(std::unique(req.entity_ids.begin(), req.entity_ids.end()), req.entity_ids.end());
  req.return_response = args.flag("return_response", false);
  req.wait = args.flag("wait", true);
  req.timeout = timeout_arg(args, env);
  json::object body = co_await run_service(env, std::move(req));
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_call_service_spec() {
  ToolSpec s;
  s.name = "ha_call_service";
  s.title = "Call a service";
  s.description =
      "Call a Home Assistant service (e.g. light.turn_on) on entities. With wait (default) the result confirms "
      "the state change or reports what happened within timeout. Unknown entity ids are refused.";
  s.input_schema = R"J({"type":"object","properties":{
"domain":{"type":"string"},"service":{"type":"string"},
"entity_id":{"type":"string"},
"target":{"type":"object","description":"device_id, area_id, floor_id, label_id"},
"data":{"type":"object","description":"Service data, e.g. {\"brightness_pct\":50}"},
"return_response":{"type":"boolean"},"wait":{"type":"boolean","default":true},
"timeout":{"type":"number","minimum":0,"maximum":60,"description":"Seconds to wait (default 10)"}},
"required":["service"]})J";
  s.output_schema =
      R"J({"type":"object","properties":{"operation_id":{"type":"string"},"status":{"enum":["confirmed","unconfirmed","sent","pending"]},"entities":{"type":"array"}}})J";
  s.annotations = writes(true, false);
  s.legacy_args = {{"service_data", "data"}};
  s.also_accepts = {{"entity_id", R"J({"type":["string","array"],"items":{"type":"string"}})J"}};
  s.run = run_call_service;
  return s;
}

}  // namespace hamcp::tools
