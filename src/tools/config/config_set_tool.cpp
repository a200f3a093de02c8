// ha_config_set: create or update an automation, script or scene from a full
// config, an RFC 6902 patch on the current one, or a journaled version
// (restore); guarded by config_hash; validated by Home Assistant before the
// one write; journaled; then the runtime actions (enable, run, stop).
#include <chrono>

#include "common/ascii.hpp"
#include "home/config_json.hpp"
#include "tools/config/blueprint_control.hpp"
#include "tools/config/config_runtime.hpp"
#include "tools/config/config_target.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/config/config_write.hpp"
#include "tools/config_lock.hpp"
#include "tools/dashboards/dashboard_tools.hpp"
#include "tools/edit_record.hpp"
#include "tools/energy/energy_tools.hpp"
#include "tools/helpers/helper_write.hpp"
#include "tools/integrations/integration_tools.hpp"
#include "tools/tool_error.hpp"
#include "tools/voice/voice_tools.hpp"

namespace hamcp::tools {

namespace {

using namespace config;

struct Plan {
  Kind kind = Kind::automation;
  std::string key;
  std::string entity_id;
  std::optional<json::value> current;  // what HA stores now
  std::optional<json::object> next;    // what to write; nullopt: no config change
  std::string action;                  // create | update | restore
};

void reject_unsupported(const Args& args) {
  if (args.has("python_transform"))
    throw ToolException(bad_argument("python_transform", "hamcp never runs model-written code",
                                     "Pass `patch`: RFC 6902 operations, e.g. [{\"op\":\"replace\",\"path\":"
                                     "\"/triggers/0/at\",\"value\":\"07:00:00\"}], with config_hash."));
  if (args.flag("take_control_of_blueprint", false) && (args.has("config") || args.has("patch")))
    throw ToolException(bad_argument("take_control_of_blueprint", "given together with a config change",
                                     "Take control first (it returns the new config_hash), then patch."));
  if (args.has("config") && args.has("patch"))
    throw ToolException(bad_argument("patch", "given together with config", "Pass either config or patch."));
}

std::string slug_of(std::string_view text) {
  std::string out;
  for (char c : ascii_lower(text)) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (word)
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string epoch_millis() {
  using namespace std::chrono;
  return std::to_string(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
}

// The key of a new item named by nothing: HA's UI uses epoch milliseconds;
// a script's key is its object id, from its alias.
std::string new_key(Kind kind, const json::object* config) {
  if (kind != Kind::script) return epoch_millis();
  const json::value* alias = config ? config->if_contains("alias") : nullptr;
  std::string slug = alias && alias->is_string() ? slug_of(alias->get_string()) : std::string();
  return slug.empty() ? "script_" + epoch_millis() : slug;
}

// Key and entity of the item to write, for a call without `restore`.
void resolve_item(const ha::Snapshot& snap, ToolEnv& env, const Args& args, Plan& plan) {
  const Request request = request_of(args);
  if (request.any_kind) throw ToolException(bad_argument("kind", "missing", "Pass kind: automation, script or scene."));
  plan.kind = request.kind;
  if (std::optional<Target> t = find_target(snap, request.kind, request.ref)) {
    plan.key = t->key;
    plan.entity_id = t->entity_id;
    return;
  }
  if (request.ref.find('.') != std::string::npos && request.ref.rfind(std::string(name_of(request.kind)) + ".", 0) == 0)
    throw ToolException(not_found(env, snap, request.kind, request.ref));
  if (request.ref.empty() && !args.has("config"))
    throw ToolException(
        bad_argument("id", "missing", "Pass the item's entity id, config id or alias, or a `config` to create one."));
  plan.key = request.ref.empty() ? new_key(request.kind, args.object("config")) : request.ref;
  if (plan.kind == Kind::script && slug_of(plan.key) != plan.key)
    throw ToolException(bad_argument("id", "a new script's id must be a slug (lowercase letters, digits, _)",
                                     "Use \"" + slug_of(plan.key) + "\"."));
}

void resolve_restore(const Args& args, ToolEnv& env, Plan& plan) {
  const std::string edit_id = args.str("restore");
  std::optional<home::EditRecord> rec = env.journal.get(edit_id);
  if (!rec)
    throw ToolException(ToolError{
        "edit_not_found", "No journaled edit " + edit_id + ".", "Take an edit id from ha_config_get's `edits`.", {}});
  const std::optional<std::string> kind = args.opt_str("kind");
  if (kind && *kind != rec->kind)
    throw ToolException(bad_argument("kind", "edit " + edit_id + " is of a " + rec->kind, "Drop `kind`."));
  if (rec->kind == "automation")
    plan.kind = Kind::automation;
  else if (rec->kind == "script")
    plan.kind = Kind::script;
  else if (rec->kind == "scene")
    plan.kind = Kind::scene;
  else
    throw ToolException(bad_argument("restore",
                                     "edit " + edit_id + " is not an automation, script, scene, helper or group",
                                     "Restore it with its own tool."));
  if (!rec->before.is_object())
    throw ToolException(bad_argument("restore", "edit " + edit_id + " created the item; there is no earlier version",
                                     "Remove it with ha_config_remove instead."));
  plan.key = rec->key;
  plan.entity_id = rec->entity_id;
  plan.next = rec->before.get_object();
  plan.action = "restore";
}

// A stale config_hash: nothing is written; say what changed since that version, when known.
void check_hash(const Args& args, ToolEnv& env, const Plan& plan) {
  const LockedConfig locked{name_of(plan.kind), plan.key, std::string(name_of(plan.kind)) + " " + plan.key,
                            "ha_config_get"};
  check_config_hash(env, locked, plan.current ? json::value(*plan.current) : json::value(nullptr),
                    args.opt_str("config_hash"));
}

// Under a visibility filter, reads show configs with hidden entities taken out
// (gate/entity_filter.hpp). Writing such a config back would drop them from
// Home Assistant, so a write that loses a hidden entity the stored config
// names is refused. (One that keeps them, e.g. a patch, names a hidden entity
// to Home Assistant and the gate refuses it: such a config is not changed here.)
void check_hidden_kept(ToolEnv& env, const Plan& plan) {
  if (!plan.current || !plan.next) return;
  const HiddenSetPtr hidden = env.ha.hidden_now();
  if (hidden->empty()) return;
  // Lower-cased: an id matches in any case (HiddenSet::first_in), and is erased below as found.
  std::string before = ascii_lower(json::serialize(*plan.current));
  const std::string after = ascii_lower(json::serialize(*plan.next));
  for (std::size_t guard = 0; guard < 10000; ++guard) {
    const std::optional<std::string> id = hidden->first_in(before);
    if (!id) return;
    if (after.find(*id) == std::string::npos)
      throw ToolException(ToolError{
          "hidden_entities_would_be_lost",
          std::string(name_of(plan.kind)) + " " + plan.key +
              " uses entities hidden from this session; the config you read had them taken out, so writing it "
              "would remove them from Home Assistant. Nothing was written.",
          "Edit it in Home Assistant, or run hamcp with visibility rules that show those entities.",
          {{"written", false}}});
    for (std::size_t at = before.find(*id); at != std::string::npos; at = before.find(*id, at))
      before.erase(at, id->size());
  }
}

// The config to write from `config` or `patch` (restore already set plan.next).
void build_next(const Args& args, Plan& plan) {
  if (plan.next) return;
  if (const json::object* cfg = args.object("config")) {
    plan.next = *cfg;
  } else if (const json::value* patch = args.get("patch"); patch && patch->is_array()) {
    if (!plan.current)
      throw ToolException(ToolError{
          "config_not_found",
          std::string(name_of(plan.kind)) + " " + plan.key + " has no stored config to patch. Nothing was written.",
          "Create it with a full `config`.",
          {{"written", false}}});
    if (!args.has("config_hash"))
      throw ToolException(bad_argument("config_hash", "required with patch",
                                       "Read the config with ha_config_get and pass its config_hash."));
    try {
      json::value patched = home::apply_json_patch(*plan.current, patch->get_array());
      if (!patched.is_object()) throw home::PatchError(0, "", "the result is not an object");
      plan.next = std::move(patched.get_object());
    } catch (const home::PatchError& e) {
      throw ToolException(
          ToolError{"patch_failed",
                    std::string(e.what()) + ". Nothing was written.",
                    "Read the config with ha_config_get and write the patch against it.",
                    {{"op_index", static_cast<std::int64_t>(e.op_index)}, {"path", e.path}, {"written", false}}});
    }
  } else {
    return;
  }
  if (plan.kind != Kind::script) (*plan.next)["id"] = plan.key;
  if (plan.action.empty()) plan.action = plan.current ? "update" : "create";
}

boost::asio::awaitable<Plan> plan_write(Args& args, ToolEnv& env, const ha::Snapshot& snap) {
  Plan plan;
  if (args.has("restore"))
    resolve_restore(args, env, plan);
  else
    resolve_item(snap, env, args, plan);
  std::string key = plan.key;
  auto reading = read_config(env, plan.kind, std::move(key));
  plan.current = co_await std::move(reading);
  const bool named = args.has("id") || args.has("identifier") || args.has("script_id") || args.has("scene_id");
  if (plan.current && !named && !args.has("restore"))
    throw ToolException(bad_argument("id", "a " + std::string(name_of(plan.kind)) + " with id " + plan.key + " exists",
                                     "Pass id: \"" + plan.key + "\" to update it, or another alias."));
  check_hash(args, env, plan);
  build_next(args, plan);
  check_hidden_kept(env, plan);
  co_return plan;
}

// Validate, write once, journal, wait for the entity: fills `body`.
boost::asio::awaitable<void> write_step(Args& args, ToolEnv& env, Plan& plan, json::object& body) {
  if (plan.current && home::canonical_json(*plan.current) == home::canonical_json(*plan.next)) {
    body["result"] = "unchanged";
    body["config_hash"] = home::config_hash(*plan.current);
    co_return;
  }
  auto validating = validate_with_ha(env, plan.kind, *plan.next);
  co_await std::move(validating);
  auto writing = write_config(env, plan.kind, plan.key, *plan.next);
  co_await std::move(writing);
  home::EditRecord rec;
  rec.kind = name_of(plan.kind);
  rec.key = plan.key;
  rec.entity_id = plan.entity_id;
  rec.action = plan.action;
  rec.before = plan.current ? *plan.current : json::value(nullptr);
  rec.after = *plan.next;
  body["result"] = plan.action == "create" ? "created" : plan.action == "restore" ? "restored" : "updated";
  body["config_hash"] = home::config_hash(*plan.next);
  if (plan.current) {
    body["previous_hash"] = home::config_hash(*plan.current);
    body["diff"] = home::short_diff(*plan.current, *plan.next);
  }
  record_edit(env, body, std::move(rec));
  if (args.flag("wait", true)) {
    auto waiting = wait_for_entity(env, plan.kind, plan.key, true, env.options.default_wait);
    const WaitReport report = co_await std::move(waiting);
    if (!report.entity_id.empty()) plan.entity_id = report.entity_id;
    body["wait"] = report.to_json(true);
  }
}

// restore=<edit id> naming a helper or group edit (ha_config_set_helper, ha_config_set_group).
std::optional<home::EditRecord> restorable_helper_edit(const Args& args, ToolEnv& env) {
  if (!args.has("restore")) return std::nullopt;
  std::optional<home::EditRecord> rec = env.journal.get(args.str("restore"));
  if (rec && (rec->kind == "helper" || rec->kind == "group")) return rec;
  return std::nullopt;
}

// restore=<edit id> naming a blueprint edit (ha_manage_blueprints save, import, delete).
std::optional<home::EditRecord> restorable_blueprint_edit(const Args& args, ToolEnv& env) {
  if (!args.has("restore")) return std::nullopt;
  std::optional<home::EditRecord> rec = env.journal.get(args.str("restore"));
  if (rec && rec->kind == "blueprint") return rec;
  return std::nullopt;
}

// restore=<edit id> naming an energy or Assist pipeline edit (ha_manage_energy_prefs, ha_manage_pipeline).
boost::asio::awaitable<std::optional<json::object>> restore_energy_or_voice(const Args& args, ToolEnv& env) {
  if (!args.has("restore")) co_return std::nullopt;
  const std::optional<home::EditRecord> rec = env.journal.get(args.str("restore"));
  if (rec && energy::is_energy_kind(rec->kind)) {
    auto restoring = energy::restore_energy_edit(env, *rec);
    json::object restored = co_await std::move(restoring);
    co_return restored;
  }
  if (rec && voice::is_voice_kind(rec->kind)) {
    auto restoring = voice::restore_voice_edit(env, *rec);
    json::object restored = co_await std::move(restoring);
    co_return restored;
  }
  co_return std::nullopt;
}

boost::asio::awaitable<mcp::ToolResult> run_config_set(Args& args, ToolEnv& env, mcp::RequestContext&) {
  reject_unsupported(args);
  if (args.flag("take_control_of_blueprint", false)) {  // use_blueprint replaced by the expanded config
    const Request request = request_of(args);
    auto taking = take_control(env, request.kind, request.ref);
    json::object took = co_await std::move(taking);
    co_return ok(std::move(took));
  }
  if (std::optional<home::EditRecord> rec = restorable_helper_edit(args, env)) {  // helpers and groups: their own path
    auto restoring = helpers::restore_helper_edit(env, *rec);
    json::object restored = co_await std::move(restoring);
    co_return ok(std::move(restored));
  }
  if (args.has("restore"))  // dashboards, resources, themes (ha_set_dashboard & co.)
    if (std::optional<home::EditRecord> rec = env.journal.get(args.str("restore"));
        rec && dashboards::is_dashboard_kind(rec->kind)) {
      auto restoring = dashboards::restore_dashboard_edit(env, *rec);
      json::object restored = co_await std::move(restoring);
      co_return ok(std::move(restored));
    }
  if (args.has("restore"))  // integration options / reconfigure (ha_set_integration)
    if (std::optional<home::EditRecord> rec = env.journal.get(args.str("restore")); rec && rec->kind == "integration") {
      auto restoring = integrations::restore_integration_edit(env, *rec);
      json::object restored = co_await std::move(restoring);
      co_return ok(std::move(restored));
    }
  auto family_restoring = restore_energy_or_voice(args, env);
  if (std::optional<json::object> restored = co_await std::move(family_restoring)) co_return ok(std::move(*restored));
  if (std::optional<home::EditRecord> rec = restorable_blueprint_edit(args, env)) {
    auto restoring = restore_blueprint_edit(env, *rec);
    json::object restored = co_await std::move(restoring);
    co_return ok(std::move(restored));
  }
  ha::SnapshotPtr snap = co_await env.snapshot();
  auto planning = plan_write(args, env, *snap);  // named: GCC 12 coroutine temporaries
  Plan plan = co_await std::move(planning);
  const RuntimeRequest runtime = runtime_request_of(args, plan.kind);
  if (!plan.next && !runtime.any())
    throw ToolException(bad_argument("config", "nothing to do", "Pass config, patch, restore, enabled or run."));
  if (!plan.next && !plan.current && plan.entity_id.empty())
    throw ToolException(not_found(env, *snap, plan.kind, plan.key));
  json::object body;
  body["kind"] = name_of(plan.kind);
  body["id"] = plan.key;
  if (plan.next) {
    auto writing = write_step(args, env, plan, body);
    co_await std::move(writing);
  }
  if (!plan.entity_id.empty()) body["entity_id"] = plan.entity_id;
  if (runtime.any()) {
    if (plan.entity_id.empty())
      throw ToolException(ToolError{"entity_not_ready",
                                    "The config was written but Home Assistant has not created its entity yet, so "
                                    "nothing was run or switched.",
                                    "Call again with the same id and only the action in a few seconds.",
                                    {{"written", plan.next.has_value()}, {"result", body}}});
    try {
      auto acting = run_runtime(env, plan.kind, plan.entity_id, runtime);
      json::object actions = co_await std::move(acting);
      body["actions"] = std::move(actions);
    } catch (ToolException& e) {
      ToolError err = e.error();
      err.message += plan.next ? " The config itself was written (see result)." : "";
      err.extra["written"] = plan.next.has_value();
      err.extra["result"] = body;
      throw ToolException(std::move(err));
    }
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_config_set_spec() {
  ToolSpec s;
  s.name = "ha_config_set";
  s.title = "Create/update automation, script or scene";
  s.description =
      "Create or update an automation, script or scene: full `config`, or `patch` (RFC 6902 ops on the current "
      "config, with config_hash from ha_config_get). A stale config_hash writes nothing. Validated by Home "
      "Assistant; every write is journaled (`restore`: an edit id). Also enable/disable, run/stop.";
  s.input_schema = R"J({"type":"object","properties":{
"kind":{"type":"string","enum":["automation","script","scene"]},
"id":{"type":"string","description":"entity_id, config id or alias; omit to create"},
"config":{"type":"object"},"patch":{"type":"array","items":{"type":"object"}},
"config_hash":{"type":"string"},"restore":{"type":"string"},
"enabled":{"type":"boolean"},"run":{"type":"string","enum":["start","stop"]},
"variables":{"type":"object"},"wait":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"id":{"type":"string"},"config_hash":{"type":"string"}}})J";
  s.annotations = writes(true, false);
  s.aliases = {"ha_config_set_automation", "ha_config_set_script", "ha_config_set_scene"};
  s.hidden_args = {"identifier", "script_id",   "scene_id", "python_transform", "take_control_of_blueprint",
                   "category",   "run_actions", "activate", "MandatoryBPS",     "BestPracticeKey"};
  s.run = run_config_set;
  return s;
}

}  // namespace hamcp::tools
