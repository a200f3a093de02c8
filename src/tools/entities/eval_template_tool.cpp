// ha_eval_template: render a Jinja2 template in Home Assistant (read-only).
#include "tools/entities/entity_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

boost::asio::awaitable<mcp::ToolResult> run_eval_template(Args& args, ToolEnv& env, mcp::RequestContext&) {
  json::object req;
  req.emplace("template", args.str("template"));
  if (const json::object* vars = args.object("variables")) req.emplace("variables", *vars);
  ha::Response r = co_await env.ha.rest_post("/api/template", json::value(std::move(req)));
  if (r.status == 400) {
    // HA answers {"message":"Error rendering template: <reason>"}; the reason alone reads best.
    std::string reason = ha_body_message(r.body);
    constexpr std::string_view kPrefix = "Error rendering template: ";
    if (reason.rfind(kPrefix, 0) == 0) reason.erase(0, kPrefix.size());
    throw ToolException(ToolError{"template_error",
                                  "Template failed to render: " + reason,
                                  "Fix the Jinja2 syntax or the names it uses; test parts separately.",
                                  {}});
  }
  if (!r.ok()) throw_http_failure(r.status, r.body);
  std::string text = r.body;
  const std::size_t budget = env.options.response_budget;
  json::object body;
  if (text.size() > budget) {
    body.emplace("truncated", true);
    body.emplace("notice", "Rendered text is " + std::to_string(text.size()) + " bytes; showing the first " +
                               std::to_string(budget) + ". Narrow the template.");
    text.resize(budget);
  }
  body.emplace("result", std::move(text));
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_eval_template_spec() {
  ToolSpec s;
  s.name = "ha_eval_template";
  s.title = "Evaluate template";
  s.description =
      "Render a Home Assistant Jinja2 template, e.g. \"{{ states('sensor.x') }}\" or area_entities('kitchen'). "
      "Returns the text result.";
  s.input_schema = R"J({"type":"object","properties":{
"template":{"type":"string","minLength":1},"variables":{"type":"object"}},"required":["template"]})J";
  // No `required`: a failure carries {"error":{...}} instead of result.
  s.output_schema = R"J({"type":"object","properties":{"result":{"type":"string"}}})J";
  s.annotations = read_only();
  s.annotations.open_world_hint = true;  // rendered by Home Assistant itself
  s.hidden_args = {"timeout", "report_errors"};
  s.run = run_eval_template;
  return s;
}

}  // namespace hamcp::tools
