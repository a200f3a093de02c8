// ha_call_event: fire an event on Home Assistant's event bus.
#include "tools/entities/entity_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

boost::asio::awaitable<mcp::ToolResult> run_call_event(Args& args, ToolEnv& env, mcp::RequestContext&) {
  json::object msg;
  msg.emplace("type", "fire_event");
  const std::string event_type = args.str("event_type");
  msg.emplace("event_type", event_type);
  if (const json::object* data = args.object("event_data")) msg.emplace("event_data", *data);
  json::value result = co_await env.ha.command(std::move(msg));  // never retried
  json::object body;
  body.emplace("fired", true);
  body.emplace("event_type", event_type);
  if (const json::object* r = result.if_object())
    if (const json::value* ctx = r->if_contains("context"); ctx && ctx->is_object())
      if (const json::value* id = ctx->get_object().if_contains("id")) body.emplace("context_id", *id);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_call_event_spec() {
  ToolSpec s;
  s.name = "ha_call_event";
  s.title = "Fire an event";
  s.description = "Fire a custom event on Home Assistant's event bus (triggers automations listening for it).";
  s.input_schema = R"J({"type":"object","properties":{
"event_type":{"type":"string","pattern":"^[A-Za-z0-9_.:-]{1,64}$"},"event_data":{"type":"object"}},
"required":["event_type"]})J";
  s.output_schema = R"J({"type":"object","properties":{"fired":{"type":"boolean"},"event_type":{"type":"string"}}})J";
  s.annotations = writes(false, false);
  s.legacy_args = {{"data", "event_data"}};
  s.run = run_call_event;
  return s;
}

}  // namespace hamcp::tools
