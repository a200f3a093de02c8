// ha_remove_dashboard (ha-mcp: ha_config_delete_dashboard): deletes a storage
// dashboard and its config. Not listed: ha_set_dashboard remove=true runs it,
// and both names are ha_set_dashboard's hidden aliases. Without confirm=true it only shows what would go.
// The dashboard and its config are journaled first, so ha_config_set
// restore=<edit_id> creates it again.
#include "tools/confirmation.hpp"
#include "tools/dashboards/card_finder.hpp"
#include "tools/dashboards/dashboard_tools.hpp"
#include "tools/dashboards/dashboard_ws.hpp"

namespace hamcp::tools::dashboards {

namespace {

std::size_t count_cards(const json::value& config) { return find_cards(config, CardQuery{}, 0).total; }

boost::asio::awaitable<mcp::ToolResult> run_remove(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  auto resolving = require_dashboard(env, args.str("url_path"));
  const Dashboard d = co_await std::move(resolving);
  if (d.is_default)
    throw ToolException(bad_argument("url_path", "the default dashboard cannot be deleted",
                                     "Replace its config with ha_set_dashboard instead."));
  if (d.yaml) refuse_yaml(d);
  auto reading = read_config(env, d);
  const json::value config = co_await std::move(reading);
  json::object body = summary_of(d);
  body["views"] = view_names(config).size();
  body["cards"] = count_cards(config);
  json::object change{{"deletes_dashboard", d.url_path}, {"views", body.at("views")}, {"cards", body.at("cards")}};
  auto asking = confirm_or_preview(
      args, env, ctx,
      Preview{"delete", json::string(d.url_path), std::move(change), "the dashboard and its config", body});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::object msg{{"type", "lovelace/dashboards/delete"}, {"dashboard_id", d.id()}};
  auto deleting = ws_call(env, std::move(msg), true, "delete the dashboard");
  co_await std::move(deleting);
  body["result"] = "deleted";
  journal(env, body, "dashboard", d.url_path, "remove", json::object{{"dashboard", d.item}, {"config", config}},
          nullptr);
  body["restore"] = "ha_config_set restore=" + std::string(body.at("edit_id").as_string());
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_remove_dashboard_spec() {
  ToolSpec s;
  s.name = "ha_remove_dashboard";
  s.title = "Delete a dashboard";
  s.description = "Deletes a storage dashboard and its config (journaled). Without confirm=true: a preview only.";
  s.input_schema = R"J({"type":"object","properties":{"url_path":{"type":"string"},"confirm":{"type":"boolean"}},
"required":["url_path"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, true);
  s.run = run_remove;
  return s;
}

}  // namespace hamcp::tools::dashboards
