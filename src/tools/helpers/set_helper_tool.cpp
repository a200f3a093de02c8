// ha_config_set_helper: create, update or remove a helper. Storage types go
// through their collection commands, every other type through its config
// flow (create), options flow (update) or config-entry delete (remove).
#include "tools/confirmation.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_tools.hpp"
#include "tools/helpers/helper_write.hpp"

namespace hamcp::tools {

namespace {

using namespace helpers;

// helper_type=config_subentry: entry_id plus subentry_type (create) or subentry_id (update).
HelperCall subentry_call_of(Args& args, HelperCall call) {
  if (call.id.empty())
    throw ToolException(bad_argument("entry_id", "required with helper_type=config_subentry",
                                     "Pass the config entry's entry_id (ha_get_integration)."));
  call.subentry_type = args.str("subentry_type");
  call.subentry_id = args.str("subentry_id");
  call.action = args.str("action", call.subentry_id.empty() ? "create" : "update");
  if (call.action == "remove")
    throw ToolException(bad_argument("action", "remove of a subentry is ha_remove_helpers_integrations' job",
                                     "Call ha_remove_helpers_integrations target=<entry_id> subentry_id=<id>."));
  if (call.action == "create" && call.subentry_type.empty())
    throw ToolException(bad_argument("subentry_type", "required to create a subentry",
                                     "Pass one of the entry's supported_subentry_types (ha_get_integration)."));
  if (call.action == "update" && call.subentry_id.empty())
    throw ToolException(bad_argument("subentry_id", "required to update a subentry",
                                     "Pass the subentry_id (ha_get_integration include_subentries=true)."));
  call.name = args.opt_str("name");
  call.menu_choice = args.opt_str("menu_choice");
  if (const json::object* config = args.object("config")) call.config = *config;
  call.show_advanced_options = args.flag("show_advanced_options", false);
  return call;
}

HelperCall call_of(Args& args) {
  HelperCall call;
  call.type = args.str("helper_type");
  if (call.type.empty() || call.type == "all")
    throw ToolException(bad_argument("helper_type", "names no helper type",
                                     "Pass e.g. input_boolean, counter, template or utility_meter."));
  call.id = args.str("helper_id", args.str("entry_id"));
  if (call.type == "config_subentry") return subentry_call_of(args, std::move(call));
  call.action = args.str("action", call.id.empty() ? "create" : "update");
  if (call.action != "create" && call.id.empty())
    throw ToolException(bad_argument("helper_id", "required to " + call.action + " a helper",
                                     "Pass helper_id (storage id or config entry id) from ha_config_list_helpers."));
  if (call.action == "create" && !call.id.empty())
    throw ToolException(bad_argument("action", "create with a helper_id",
                                     "Pass action=update to change that helper, or drop helper_id to create one."));
  call.name = args.opt_str("name");
  call.icon = args.opt_str("icon");
  call.menu_choice = args.opt_str("menu_choice");
  if (const json::object* config = args.object("config")) call.config = *config;
  call.wait = args.flag("wait", true);
  call.show_advanced_options = args.flag("show_advanced_options", false);
  return call;
}

// The helper's entities written or found by the call (storage: one; flow: the entry's).
std::vector<std::string> entities_in(const json::object& body) {
  std::vector<std::string> out;
  if (const json::value* e = body.if_contains("entity_id"); e && e->is_string()) out.emplace_back(e->get_string());
  const json::value* wait = body.if_contains("wait");
  const json::value* listed = wait && wait->is_object() ? wait->as_object().if_contains("entities") : nullptr;
  if (listed && listed->is_array())
    for (const auto& e : listed->as_array()) out.emplace_back(e.as_string());
  return out;
}

// ha-mcp's area_id / labels / category: an entity registry update of the helper's entities.
// The helper is already written: a failure here is reported beside it, not as the call's error.
boost::asio::awaitable<void> apply_registry(ToolEnv& env, Args& args, json::object& body) {
  if (!args.has("area_id") && !args.has("labels") && !args.has("category")) co_return;
  json::array updated;
  for (const auto& eid : entities_in(body)) {
    json::object msg{{"type", "config/entity_registry/update"}, {"entity_id", eid}};
    if (args.has("area_id")) msg["area_id"] = args.str("area_id");
    if (args.has("labels")) {
      json::array labels;
      for (const auto& l : args.list("labels")) labels.emplace_back(l);
      msg["labels"] = std::move(labels);
    }
    if (args.has("category")) msg["categories"] = json::object{{"helpers", args.str("category")}};
    std::optional<ToolError> failed;
    try {
      auto writing = ws_write(env, std::move(msg), "the entity registry update of " + eid);
      co_await std::move(writing);
      updated.emplace_back(eid);
    } catch (const ToolException& e) {
      failed = e.error();
    }
    if (failed) {
      body["registry_error"] = failed->message;
      break;
    }
  }
  body["registry_updated"] = std::move(updated);
}

boost::asio::awaitable<mcp::ToolResult> run_set_helper(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const HelperCall call = call_of(args);
  if (call.action == "remove") {
    auto asking = confirm_or_preview(
        args, env, ctx,
        Preview{"remove",
                json::string(call.type + "/" + call.id),
                json::object{{"removes", json::object{{"helper_type", call.type}, {"helper_id", call.id}}}},
                "journaled: ha_config_set restore=<edit_id> brings it back",
                {}});
    std::optional<mcp::ToolResult> preview = co_await std::move(asking);
    if (preview) co_return std::move(*preview);
  }
  json::object body;
  if (call.type == "config_subentry") {
    auto writing = write_subentry(env, call);
    body = co_await std::move(writing);
    co_return ok(std::move(body));
  }
  if (is_storage_type(call.type)) {
    auto writing = write_storage_helper(env, call);
    body = co_await std::move(writing);
  } else {
    auto writing = write_flow_helper(env, call);
    body = co_await std::move(writing);
  }
  if (call.action != "remove") {
    auto registering = apply_registry(env, args, body);
    co_await std::move(registering);
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_set_helper_spec() {
  ToolSpec s;
  s.name = "ha_config_set_helper";
  s.title = "Set helper";
  s.description =
      "Create/update/remove a helper. Storage types: fields in config. Flow helpers (template, group, utility_meter, "
      "...): config answers the flow's forms, menu_choice picks a menu option; update: options flow. "
      "helper_id: storage id or entry_id. config_subentry: entry_id + subentry_type (create) or subentry_id (update).";
  s.input_schema = R"J({"type":"object","properties":{"helper_type":{"type":"string"},
"action":{"type":"string","enum":["create","update","remove"]},"helper_id":{"type":"string"},
"name":{"type":"string"},"icon":{"type":"string"},"config":{"type":"object"},"menu_choice":{"type":"string"},
"wait":{"type":"boolean"},"confirm":{"type":"boolean"}},"required":["helper_type"]})J";
  s.output_schema = R"J({"type":"object","properties":{"edit_id":{"type":"string"}}})J";
  s.annotations = writes(true, false);
  s.hidden_args = {"entry_id",      "show_advanced_options", "area_id",      "labels",         "category",
                   "subentry_type", "subentry_id",           "MandatoryBPS", "BestPracticeKey"};
  s.run = run_set_helper;
  return s;
}

}  // namespace hamcp::tools
