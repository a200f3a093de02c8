#include "tools/config/config_runtime.hpp"

#include "tools/tool_error.hpp"

namespace hamcp::tools::config {

namespace {

boost::asio::awaitable<void> call(ToolEnv& env, std::string_view domain, std::string_view service,
                                  const std::string& entity_id, json::object data) {
  ha::ServiceCall c;
  c.domain = domain;
  c.service = service;
  c.data = std::move(data);
  c.target["entity_id"] = entity_id;
  auto calling = env.ha.call_service(std::move(c));  // named: GCC 12 coroutine temporaries
  co_await std::move(calling);
}

// The service that performs `run` for `kind`.
std::pair<std::string, std::string> run_service(Kind kind, const std::string& run) {
  if (kind == Kind::automation) return {"automation", "trigger"};
  if (kind == Kind::script) return {"script", run == "stop" ? "turn_off" : "turn_on"};
  return {"scene", "turn_on"};
}

}  // namespace

RuntimeRequest runtime_request_of(const Args& args, Kind kind) {
  RuntimeRequest r;
  if (args.has("enabled")) {
    if (kind != Kind::automation)
      throw ToolException(bad_argument("enabled", "only automations can be enabled or disabled",
                                       "Drop `enabled`; use run: \"stop\" to stop a script."));
    r.enabled = args.flag("enabled", true);
  }
  if (args.has("run")) r.run = args.str("run");
  if (args.flag("run_actions", false) || args.flag("activate", false)) r.run = "start";
  if (r.run && *r.run != "start" && *r.run != "stop")
    throw ToolException(bad_argument("run", "must be \"start\" or \"stop\"", "Pass run: \"start\"."));
  if (r.run && *r.run == "stop" && kind != Kind::script)
    throw ToolException(bad_argument("run", "only a script can be stopped",
                                     "Pass run: \"start\", or disable the automation with enabled: false."));
  if (const json::object* v = args.object("variables")) {
    if (kind == Kind::scene)
      throw ToolException(bad_argument("variables", "scenes take no variables", "Drop `variables`."));
    r.variables = *v;
  }
  if (args.has("category")) r.category = args.str("category");
  return r;
}

boost::asio::awaitable<json::object> run_runtime(ToolEnv& env, Kind kind, const std::string& entity_id,
                                                 const RuntimeRequest& request) {
  json::object done;
  try {
    if (request.category) {
      json::object msg;
      msg["type"] = "config/entity_registry/update";
      msg["entity_id"] = entity_id;
      msg["categories"] = json::object{{name_of(kind), *request.category}};
      json::value updated = co_await env.ha.command(std::move(msg));
      (void)updated;
      done["category"] = *request.category;
    }
    if (request.enabled) {
      const std::string service = *request.enabled ? "turn_on" : "turn_off";
      auto switching = call(env, "automation", service, entity_id, json::object{});
      co_await std::move(switching);
      done["enabled"] = *request.enabled;
    }
    if (request.run) {
      const auto [domain, service] = run_service(kind, *request.run);
      json::object data;
      if (!request.variables.empty() && *request.run == "start") data["variables"] = request.variables;
      auto running = call(env, domain, service, entity_id, std::move(data));
      co_await std::move(running);
      done["run"] = domain + "." + service;
    }
  } catch (const ha::HaException& e) {
    ToolError err = from_ha_error(e.error());
    err.extra["done"] = done;
    throw ToolException(std::move(err));
  }
  co_return done;
}

}  // namespace hamcp::tools::config
