// ha_get_dashboard (ha-mcp: ha_config_get_dashboard): without url_path the
// dashboards; with it the whole config, one view (view_path), or the cards
// matching entity_id / card_type / heading with their paths; always the
// config_hash a write passes back. describe=true: the card types to use.
#include "tools/dashboards/card_finder.hpp"
#include "tools/dashboards/dashboard_tools.hpp"

namespace hamcp::tools::dashboards {

namespace {

// Common card types and their main fields (HA's frontend documentation).
json::object card_types() {
  return {{"tile", "entity, name?, icon?, color?, features?[], vertical?"},
          {"heading", "heading, heading_style?(title|subtitle), badges?[]"},
          {"entities", "entities[] (id or {entity,name,icon}), title?, state_color?"},
          {"button", "entity?, name?, icon?, tap_action?"},
          {"glance", "entities[], title?, columns?"},
          {"thermostat", "entity (climate)"},
          {"gauge", "entity, min?, max?, severity?"},
          {"history-graph", "entities[], hours_to_show?"},
          {"statistics-graph", "entities[], stat_types?, period?"},
          {"sensor", "entity, graph?(line|none)"},
          {"markdown", "content (markdown + templates), title?"},
          {"picture-entity", "entity, image? | camera_image?"},
          {"media-control", "entity (media_player)"},
          {"weather-forecast", "entity (weather), forecast_type?"},
          {"map", "entities[], hours_to_show?"},
          {"area", "area, navigation_path?"},
          {"conditional", "conditions[], card"},
          {"vertical-stack|horizontal-stack|grid", "cards[] (grid: columns?, square?)"},
          {"view (views[])", "title, path, icon?, type?(masonry|sections|panel|sidebar), cards[] | sections[]"},
          {"section (sections[])", "type: grid, cards[]"}};
}

boost::asio::awaitable<json::object> list_body(ToolEnv& env) {
  auto listing = list_items(env);
  json::array items = co_await std::move(listing);
  Dashboard fallback;
  fallback.is_default = true;
  json::array out{summary_of(fallback)};
  for (auto& v : items) {
    if (!v.is_object()) continue;
    Dashboard d;
    d.item = v.get_object();
    const json::value* url = d.item.if_contains("url_path");
    d.url_path = url && url->is_string() ? std::string(url->get_string()) : std::string();
    out.emplace_back(summary_of(d));
  }
  co_return json::object{{"dashboards", std::move(out)}};
}

json::object view_body(const json::value& config, const std::string& view_path) {
  const std::optional<std::size_t> index = find_view(config, view_path);
  if (!index)
    throw ToolException(ToolError{"view_not_found",
                                  "The dashboard has no view '" + view_path + "'.",
                                  "Use a view's path or index from `views`.",
                                  {{"views", view_names(config)}}});
  const json::value& view = config.get_object().at("views").get_array()[*index];
  return {{"path", "views[" + std::to_string(*index) + "]"}, {"view", view}};
}

boost::asio::awaitable<mcp::ToolResult> run_get(Args& args, ToolEnv& env, mcp::RequestContext&) {
  if (args.flag("describe", false)) co_return ok(json::object{{"card_types", card_types()}});
  if (!args.has("url_path") || args.flag("list_only", false)) {
    auto listing = list_body(env);
    json::object body = co_await std::move(listing);
    co_return ok(std::move(body));
  }
  auto resolving = require_dashboard(env, args.str("url_path"));
  const Dashboard d = co_await std::move(resolving);
  auto reading = read_config(env, d);
  const json::value config = co_await std::move(reading);
  json::object body = summary_of(d);
  body["config_hash"] = hash_of(config);
  if (config.is_null()) {
    body["config"] = nullptr;
    body["note"] = "Never saved: Home Assistant shows a generated dashboard. Write a config to take control.";
    co_return ok(std::move(body));
  }
  const CardQuery query{args.str("entity_id"), args.str("card_type"), args.str("heading"), args.str("query")};
  if (!query.entity_id.empty() || !query.card_type.empty() || !query.heading.empty() || !query.text.empty()) {
    const std::size_t limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 50), 1, 500));
    CardMatches found = find_cards(config, query, limit);
    body["cards"] = std::move(found.cards);
    body["total"] = found.total;
  } else if (args.has("view_path")) {
    for (auto& kv : view_body(config, args.str("view_path"))) body[kv.key()] = kv.value();
  } else {
    body["views"] = view_names(config);
    body["config"] = config;
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_get_dashboard_spec() {
  ToolSpec s;
  s.name = "ha_get_dashboard";
  s.title = "Get dashboard";
  s.description =
      "No url_path: list dashboards. With url_path (default: lovelace): config, one view (view_path: path or "
      "index), or cards matching entity_id/card_type/heading with their paths; and config_hash for "
      "ha_set_dashboard. describe=true: card types.";
  s.input_schema = R"J({"type":"object","properties":{"url_path":{"type":"string"},"view_path":{"type":"string"},
"entity_id":{"type":"string"},"card_type":{"type":"string"},"heading":{"type":"string"},
"describe":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = read_only();
  s.aliases = {"ha_config_get_dashboard"};
  s.hidden_args = {"list_only", "force_reload", "include_config", "include_screenshot", "query", "limit"};
  s.run = run_get;
  return s;
}

}  // namespace hamcp::tools::dashboards
