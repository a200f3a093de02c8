// ha_config_remove: delete an automation, script or scene config. Without
// confirm=true (or the user's yes when the client can be asked) it only names
// what would go (confirmation.hpp). The removed config is journaled first, so
// ha_config_set(restore=<edit id>) brings it back.
#include "home/config_json.hpp"
#include "tools/config/config_target.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/config/config_write.hpp"
#include "tools/confirmation.hpp"
#include "tools/edit_record.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

using namespace config;

// What a removal names: kind, id, the config's alias (a scene's name) and its entity.
json::object removed_item(const Target& target, const json::value& stored) {
  json::object item{{"kind", name_of(target.kind)}, {"id", target.key}};
  const json::object* config = stored.if_object();
  const json::value* alias = config ? config->if_contains(target.kind == Kind::scene ? "name" : "alias") : nullptr;
  if (alias && alias->is_string() && !alias->get_string().empty())
    item["alias"] = alias->get_string();
  else if (!target.alias.empty())
    item["alias"] = target.alias;
  if (!target.entity_id.empty()) item["entity_id"] = target.entity_id;
  return item;
}

boost::asio::awaitable<mcp::ToolResult> run_config_remove(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const Request request = request_of(args);
  ha::SnapshotPtr snap = co_await env.snapshot();
  auto resolving = require_target(env, *snap, request);  // named: GCC 12 coroutine temporaries
  const Target target = co_await std::move(resolving);
  std::string key = target.key;
  auto reading = read_config(env, target.kind, std::move(key));
  std::optional<json::value> stored = co_await std::move(reading);
  if (!stored)
    throw ToolException(ToolError{"config_not_found",
                                  target.entity_id + " has no config in Home Assistant's editor (defined in YAML?). "
                                                     "Nothing was removed.",
                                  "Remove it from its YAML file instead.",
                                  {{"written", false}}});
  json::object body = removed_item(target, *stored);
  json::object fields = body;
  fields["removed"] = false;
  auto asking = confirm_or_preview(
      args, env, ctx,
      Preview{"remove", json::string(target.entity_id.empty() ? target.key : target.entity_id),
              json::object{{"removes", body}}, "journaled: ha_config_set restore=<edit_id> brings it back", fields});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  auto deleting = delete_config(env, target.kind, target.key);
  co_await std::move(deleting);
  home::EditRecord rec;
  rec.kind = name_of(target.kind);
  rec.key = target.key;
  rec.entity_id = target.entity_id;
  rec.action = "remove";
  rec.before = *stored;
  rec.after = nullptr;
  body["result"] = "removed";
  body["previous_hash"] = home::config_hash(*stored);
  record_edit(env, body, std::move(rec));
  if (args.flag("wait", true)) {
    auto waiting = wait_for_entity(env, target.kind, target.key, false, env.options.default_wait);
    const WaitReport report = co_await std::move(waiting);
    body["wait"] = report.to_json(false);
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_config_remove_spec() {
  ToolSpec s;
  s.name = "ha_config_remove";
  s.title = "Remove automation, script or scene";
  s.description =
      "Delete an automation, script or scene (id: entity_id, config id or alias). Without confirm=true: a preview. "
      "Undo: ha_config_set restore=<edit_id>.";
  s.input_schema = R"J({"type":"object","properties":{
"kind":{"type":"string","enum":["automation","script","scene"]},
"id":{"type":"string"},"wait":{"type":"boolean"},"confirm":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"edit_id":{"type":"string"}}})J";
  s.annotations = writes(true, true);
  s.aliases = {"ha_config_remove_automation", "ha_config_remove_script", "ha_config_remove_scene"};
  s.hidden_args = {"identifier", "script_id", "scene_id"};
  s.run = run_config_remove;
  return s;
}

}  // namespace hamcp::tools
