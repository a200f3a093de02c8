// ha_get_state: current state of one entity or up to 100, from the mirror.
#include <boost/json/monotonic_resource.hpp>

#include "mcp/echo.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/entities/entity_view.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

// First block of a single entity's arena: a light with its attributes fits.
constexpr std::size_t kViewArenaBytes = 2048;

boost::asio::awaitable<mcp::ToolResult> run_get_state(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const bool many = args.get("entity_id") && args.get("entity_id")->is_array();
  const std::vector<std::string> ids = args.list("entity_id");
  if (ids.empty())
    throw ToolException(bad_argument("entity_id", "no entity id given", "Pass an id like \"light.kitchen\"."));
  ViewOptions vo;
  vo.attributes = true;
  vo.times = true;
  vo.attribute_keys = args.list("attribute_keys");
  const std::vector<std::string> fields = args.list("fields");

  if (!many) {
    ha::EntityStatePtr st = snap->states.find(ids.front());
    if (!st) {
      if (snap->registry(ha::RegistryKind::entity).find(ids.front()))
        throw ToolException(ToolError{"entity_has_no_state",
                                      ids.front() + " is registered but has no state (disabled or not loaded).",
                                      "Check it with ha_get_entity; enable it with ha_set_entity enabled=true.",
                                      {}});
      throw ToolException(unknown_entity(env.index, ids.front()));
    }
    // One arena for the whole answer (the view, its attributes, its strings),
    // freed with the result: about 30 mallocs per call fewer (issue 9, item 6).
    json::storage_ptr arena = json::make_shared_resource<json::monotonic_resource>(kViewArenaBytes);
    json::object v = entity_view(*snap, *st, vo, arena);
    if (!fields.empty()) v = project(v, fields);
    co_return ok(std::move(v));
  }

  PageWriter page(env.options.response_budget);
  json::array missing;
  std::size_t i = 0;
  for (; i < ids.size(); ++i) {
    ha::EntityStatePtr st = snap->states.find(ids[i]);
    if (!st) {
      json::object m;
      m.emplace("entity_id", mcp::echo_excerpt(ids[i], kMaxEntityIdBytes));
      json::array near = nearest_entities(env.index, ids[i], 3);
      if (!near.empty()) m.emplace("suggestions", std::move(near));
      missing.emplace_back(std::move(m));
      continue;
    }
    json::object v = entity_view(*snap, *st, vo);
    if (!fields.empty()) v = project(v, fields);
    if (!page.add(std::move(v))) break;
  }
  json::object body;
  body.emplace("states", page.take());
  if (!missing.empty()) body.emplace("not_found", std::move(missing));
  if (page.budget_cut()) {
    json::array rest;
    for (; i < ids.size(); ++i) rest.emplace_back(ids[i]);
    body.emplace("truncated", true);
    body.emplace("not_returned", std::move(rest));
    body.emplace("notice", "Response size limit reached; ask for not_returned again, or use fields / attribute_keys.");
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_get_state_spec() {
  ToolSpec s;
  s.name = "ha_get_state";
  s.title = "Get entity state";
  s.description =
      "Current state, attributes and change times of one entity (or a list of up to 100). Unknown ids come back "
      "with the nearest matches.";
  s.input_schema = R"J({"type":"object","properties":{
"entity_id":{"type":"string"},
"attribute_keys":{"type":"array","items":{"type":"string"}},
"fields":{"type":"array","items":{"type":"string"}}},"required":["entity_id"]})J";
  s.output_schema =
      R"J({"type":"object","properties":{"entity_id":{"type":"string"},"state":{"type":"string"},"states":{"type":"array"}}})J";
  s.annotations = read_only();
  s.also_accepts = {{"entity_id", R"J({"type":["string","array"],"items":{"type":"string"},"maxItems":100})J"}};
  s.run = run_get_state;
  return s;
}

}  // namespace hamcp::tools
