#include "tools/config/blueprint_control.hpp"

#include "home/config_json.hpp"
#include "tools/config/config_write.hpp"
#include "tools/edit_record.hpp"

namespace hamcp::tools::config {

namespace {

// The config's use_blueprint {path, input}, or "not_a_blueprint_item".
std::pair<std::string, json::object> blueprint_use(const json::value& config, const Target& target) {
  const json::object* cfg = config.if_object();
  const json::value* use = cfg ? cfg->if_contains("use_blueprint") : nullptr;
  const json::object* u = use ? use->if_object() : nullptr;
  const json::value* path = u ? u->if_contains("path") : nullptr;
  if (!path || !path->is_string())
    throw ToolException(ToolError{"not_a_blueprint_item",
                                  std::string(name_of(target.kind)) + " " + target.key +
                                      " does not use a blueprint (no use_blueprint.path). Nothing was written.",
                                  "Edit it with ha_config_set instead.",
                                  {{"written", false}}});
  const json::value* input = u->if_contains("input");
  return {std::string(path->get_string()), input && input->is_object() ? input->get_object() : json::object{}};
}

// The item's new config: what the blueprint expands to, under the item's own id, alias and description.
json::object expanded_config(const json::object& old, json::object substituted) {
  json::object next;
  for (const char* keep : {"id", "alias", "description"})
    if (const json::value* v = old.if_contains(keep)) next[keep] = *v;
  for (auto& kv : substituted)
    if (!next.contains(kv.key())) next[kv.key()] = std::move(kv.value());
  return next;
}

}  // namespace

boost::asio::awaitable<json::object> substitute_blueprint(ToolEnv& env, std::string domain, std::string path,
                                                          json::object input) {
  json::object msg{{"type", "blueprint/substitute"}, {"domain", domain}, {"path", path}, {"input", std::move(input)}};
  auto commanding = env.ha.command(std::move(msg));  // named: GCC 12 coroutine temporaries
  json::value result = co_await std::move(commanding);
  const json::object* o = result.if_object();
  const json::value* cfg = o ? o->if_contains("substituted_config") : nullptr;
  if (!cfg || !cfg->is_object())
    throw ToolException("ha_unexpected_answer", "Home Assistant's blueprint/substitute answer has no config.",
                        "Check Home Assistant's log.");
  co_return cfg->get_object();
}

boost::asio::awaitable<json::object> take_control(ToolEnv& env, Kind kind, std::string ref) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const Request request{kind, std::move(ref), false};
  auto resolving = require_target(env, *snap, request);  // named: GCC 12 coroutine temporaries
  const Target target = co_await std::move(resolving);
  std::string key = target.key;
  auto reading = read_config(env, target.kind, std::move(key));
  std::optional<json::value> stored = co_await std::move(reading);
  if (!stored) throw ToolException(not_found(env, *snap, target.kind, request.ref));
  auto [path, input] = blueprint_use(*stored, target);
  auto substituting = substitute_blueprint(env, std::string(name_of(kind)), path, std::move(input));
  json::object substituted = co_await std::move(substituting);
  const json::object next = expanded_config(stored->get_object(), std::move(substituted));
  auto writing = write_config(env, target.kind, target.key, next);
  co_await std::move(writing);
  home::EditRecord rec;
  rec.kind = name_of(target.kind);
  rec.key = target.key;
  rec.entity_id = target.entity_id;
  rec.action = "update";
  rec.before = *stored;
  rec.after = next;
  json::object body;
  body["kind"] = name_of(target.kind);
  body["id"] = target.key;
  if (!target.entity_id.empty()) body["entity_id"] = target.entity_id;
  body["result"] = "took_control";
  body["blueprint"] = path;
  body["config_hash"] = home::config_hash(next);
  body["previous_hash"] = home::config_hash(*stored);
  record_edit(env, body, std::move(rec));
  co_return body;
}

}  // namespace hamcp::tools::config
