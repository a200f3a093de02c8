// ha_manage_blueprints: list, get, import (from a URL), save (YAML), delete
// (confirm; refused while in use, with the users named) and substitute (the
// expanded config; with `id`, take control of that automation or script).
// ha-mcp's argument names; ha_get_blueprint and ha_import_blueprint are
// hidden aliases. YAML is checked locally first (libyaml) so a syntax error
// names its line before anything reaches Home Assistant.
#include "tools/config/blueprint_control.hpp"
#include "tools/config/blueprint_journal.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/confirmation.hpp"
#include "tools/write_outcome.hpp"
#include "yaml/yaml_json.hpp"

namespace hamcp::tools {

namespace {

using namespace config;

constexpr std::size_t kMaxYamlBytes = std::size_t{512} * 1024;

// Runs one WebSocket command; a refusal by HA comes back as its code and message instead of a throw.
struct Answer {
  json::value result;
  std::optional<ha::HaError> refused;  // HA answered success:false
};
boost::asio::awaitable<Answer> ask(ToolEnv& env, json::object msg) {
  Answer answer;
  try {
    auto commanding = env.ha.command(std::move(msg));  // named: GCC 12 coroutine temporaries
    answer.result = co_await std::move(commanding);
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::command_failed) throw;
    answer.refused = e.error();
  }
  co_return answer;
}

std::string domain_of_args(const Args& args) { return args.str("domain", "automation"); }

std::string require(const Args& args, std::string_view field, std::string_view action, std::string_view example) {
  std::string v = args.str(field);
  if (v.empty())
    throw ToolException(bad_argument(field, "is required for action=" + std::string(action),
                                     "Pass " + std::string(field) + ", e.g. " + std::string(example) + "."));
  return v;
}

json::object summary_of(const std::string& path, const json::object& metadata) {
  json::object item;
  item["path"] = path;
  for (const char* field : {"name", "description", "source_url"})
    if (const json::value* v = metadata.if_contains(field)) item[field] = *v;
  json::array inputs;
  if (const json::value* in = metadata.if_contains("input"); in && in->is_object())
    for (const auto& kv : in->get_object()) inputs.emplace_back(kv.key());
  item["inputs"] = std::move(inputs);
  return item;
}

boost::asio::awaitable<json::object> list_all(ToolEnv& env, const std::string& domain) {
  auto asking = ask(env, json::object{{"type", "blueprint/list"}, {"domain", domain}});
  Answer a = co_await std::move(asking);
  if (a.refused) throw ha::HaException(*a.refused);
  co_return a.result.is_object() ? a.result.get_object() : json::object{};
}

boost::asio::awaitable<json::array> users_of(ToolEnv& env, const std::string& domain, const std::string& path) {
  auto asking =
      ask(env, json::object{{"type", "search/related"}, {"item_type", domain + "_blueprint"}, {"item_id", path}});
  Answer a = co_await std::move(asking);
  json::array users;
  if (!a.refused && a.result.is_object())
    if (const json::value* v = a.result.get_object().if_contains(domain); v && v->is_array()) users = v->get_array();
  co_return users;
}

boost::asio::awaitable<json::object> do_list(Args& args, ToolEnv& env) {
  const std::string domain = domain_of_args(args);
  auto listing = list_all(env, domain);
  const json::object all = co_await std::move(listing);
  json::array items;
  for (const auto& kv : all) {
    const json::object* entry = kv.value().if_object();
    const json::value* meta = entry ? entry->if_contains("metadata") : nullptr;
    if (meta && meta->is_object()) {
      items.push_back(summary_of(std::string(kv.key()), meta->get_object()));
    } else if (const json::value* err = entry ? entry->if_contains("error") : nullptr) {
      items.push_back(json::object{{"path", kv.key()}, {"error", *err}});
    }
  }
  json::object body{{"domain", domain}, {"count", items.size()}};
  body["blueprints"] = std::move(items);
  co_return body;
}

boost::asio::awaitable<json::object> do_get(Args& args, ToolEnv& env) {
  const std::string domain = domain_of_args(args);
  const std::string path = require(args, "path", "get", "\"homeassistant/motion_light.yaml\"");
  auto listing = list_all(env, domain);
  const json::object all = co_await std::move(listing);
  const json::value* entry = all.if_contains(path);
  if (!entry) {
    json::array known;
    for (const auto& kv : all) known.emplace_back(kv.key());
    throw ToolException(ToolError{"blueprint_not_found",
                                  "No " + domain + " blueprint at " + path + ".",
                                  "Use one of `available` (action=list shows them).",
                                  {{"available", std::move(known)}}});
  }
  auto finding = users_of(env, domain, path);
  json::array users = co_await std::move(finding);
  json::object body{{"domain", domain}, {"path", path}};
  if (const json::value* meta = entry->get_object().if_contains("metadata")) body["metadata"] = *meta;
  if (const json::value* err = entry->get_object().if_contains("error")) body["error"] = *err;
  body["used_by"] = std::move(users);
  co_return body;
}

// The YAML parsed locally: a syntax error names its line; nothing is sent.
json::value checked_yaml(const std::string& text) {
  if (text.size() > kMaxYamlBytes)
    throw ToolException(bad_argument("yaml", "is over 512 KiB", "Send the blueprint alone, without other files."));
  try {
    return yaml::parse_yaml(text);
  } catch (const yaml::YamlError& e) {
    throw ToolException(ToolError{"invalid_yaml",
                                  "The blueprint YAML does not parse at line " + std::to_string(e.line()) +
                                      ", column " + std::to_string(e.column()) + ": " + e.what() +
                                      ". Nothing was written.",
                                  "Fix the YAML at that line and call again.",
                                  {{"line", e.line()}, {"column", e.column()}, {"written", false}}});
  }
}

ToolError refused_write(const ha::HaError& e, const std::string& what) {
  ToolError err = from_ha_error(e);
  err.extra["written"] = false;
  if (e.ha_code == "already_exists") {
    err.code = "blueprint_exists";
    err.message = what + " already exists. Nothing was written.";
    err.suggestion = "Pass overwrite=true to replace it, or another path.";
  } else if (e.ha_code == "invalid_format") {
    err.code = "invalid_blueprint";
    err.message = "Home Assistant rejected " + what + ": " + e.detail + ". Nothing was written.";
    err.suggestion = "Fix the blueprint (blueprint: name, domain, input for every !input) and call again.";
  }
  return err;
}

// A write command: HA's refusal comes back as an Answer; no answer at all means nobody knows whether it happened.
boost::asio::awaitable<Answer> ask_write(ToolEnv& env, json::object msg, std::string what) {
  std::optional<ha::HaError> lost;
  try {
    auto asking = ask(env, std::move(msg));
    Answer a = co_await std::move(asking);
    co_return a;
  } catch (const ha::HaException& e) {
    lost = e.error();
  }
  throw ToolException(unknown_outcome(*lost, "the write of " + what, "Check with action=list before calling again."));
}

// Saves `text` at domain/path once and journals it (kind "blueprint"; action
// create, update or, from `restore_of`, restore).
boost::asio::awaitable<json::object> save_yaml(ToolEnv& env, std::string domain, std::string path, std::string text,
                                               std::optional<std::string> source_url, bool overwrite,
                                               bool restore_of = false) {
  json::object msg{{"type", "blueprint/save"}, {"domain", domain}, {"path", path}, {"yaml", text}};
  if (source_url) msg["source_url"] = *source_url;
  if (overwrite) msg["allow_override"] = true;
  const std::string what = "blueprint " + domain + "/" + path;
  auto writing = ask_write(env, std::move(msg), what);
  Answer a = co_await std::move(writing);
  if (a.refused) throw ToolException(refused_write(*a.refused, what));
  bool replaced = false;
  if (const json::object* o = a.result.if_object())
    if (const json::value* v = o->if_contains("overrides_existing"); v && v->is_bool()) replaced = v->get_bool();
  const std::string key = journal_key(domain, path);
  json::value before = replaced ? json::value(previous_text(env, key)) : json::value(nullptr);
  json::object body{{"domain", domain}, {"path", path}, {"result", replaced ? "replaced" : "saved"}};
  const char* action = restore_of ? "restore" : replaced ? "update" : "create";
  journal_blueprint(env, body, key, action, std::move(before), json::object{{"yaml", text}});
  co_return body;
}

boost::asio::awaitable<json::object> do_save(Args& args, ToolEnv& env) {
  const std::string path = require(args, "path", "save", "\"me/motion_light.yaml\"");
  std::string text = require(args, "yaml", "save", "the blueprint's YAML text");
  const json::value doc = checked_yaml(text);
  std::string domain = args.str("domain");
  if (domain.empty()) {  // the blueprint says which domain it is for
    const json::object* o = doc.if_object();
    const json::value* bp = o ? o->if_contains("blueprint") : nullptr;
    const json::value* d = bp && bp->is_object() ? bp->get_object().if_contains("domain") : nullptr;
    domain = d && d->is_string() ? std::string(d->get_string()) : "automation";
  }
  auto saving =
      save_yaml(env, domain, path, std::move(text), args.opt_str("source_url"), args.flag("overwrite", false));
  json::object body = co_await std::move(saving);
  co_return body;
}

boost::asio::awaitable<json::object> do_import(Args& args, ToolEnv& env) {
  const std::string url = require(args, "url", "import", "\"https://github.com/user/repo/blob/main/x.yaml\"");
  auto asking = ask(env, json::object{{"type", "blueprint/import"}, {"url", url}});
  Answer a = co_await std::move(asking);
  if (a.refused) {
    ToolError err = from_ha_error(*a.refused);
    err.code = "import_failed";
    err.message = "Home Assistant could not import " + url + " (" + a.refused->ha_code +
                  (a.refused->detail.empty() ? "" : ": " + a.refused->detail) + "). Nothing was written.";
    err.suggestion = "Check that the URL serves a blueprint YAML (a raw file, a gist or a community post).";
    err.extra["written"] = false;
    throw ToolException(std::move(err));
  }
  const json::object& got = a.result.as_object();
  const json::object& meta = got.at("blueprint").at("metadata").as_object();
  const std::string domain(meta.at("domain").as_string());
  std::string path = args.str("path");
  if (path.empty()) path = std::string(got.at("suggested_filename").as_string()) + ".yaml";
  std::string text(got.at("raw_data").as_string());
  auto saving = save_yaml(env, domain, path, std::move(text), url, args.flag("overwrite", false));
  json::object body = co_await std::move(saving);
  body["result"] = "imported";
  body["blueprint"] = summary_of(path, meta);
  if (const json::value* v = got.if_contains("validation_errors"); v && !v->is_null()) body["validation_errors"] = *v;
  co_return body;
}

boost::asio::awaitable<json::object> do_delete(Args& args, ToolEnv& env) {
  const std::string domain = domain_of_args(args);
  const std::string path = require(args, "path", "delete", "\"me/motion_light.yaml\"");
  const std::string what = "blueprint " + domain + "/" + path;
  if (!args.flag("confirm", false)) {  // run_blueprints asks the user when it can
    auto finding = users_of(env, domain, path);
    json::array users = co_await std::move(finding);
    json::object change{{"deletes_blueprint", domain + "/" + path}, {"used_by", users}};
    std::string note = users.empty() ? "" : "in use: Home Assistant refuses to delete it until used_by is empty";
    co_return preview_body(Preview{"delete", json::string(what), std::move(change), std::move(note),
                                   json::object{{"domain", domain}, {"path", path}, {"used_by", users}}});
  }
  auto deleting = ask_write(env, json::object{{"type", "blueprint/delete"}, {"domain", domain}, {"path", path}}, what);
  Answer a = co_await std::move(deleting);
  if (!a.refused) {
    json::object body{{"domain", domain}, {"path", path}, {"result", "deleted"}};
    const std::string key = journal_key(domain, path);
    journal_blueprint(env, body, key, "remove", previous_text(env, key), nullptr);
    co_return body;
  }
  auto finding = users_of(env, domain, path);
  json::array users = co_await std::move(finding);
  if (!users.empty()) {
    std::string names;
    for (const auto& u : users) names += (names.empty() ? "" : ", ") + std::string(u.as_string());
    throw ToolException(ToolError{"blueprint_in_use",
                                  what + " is used by " + names + ". Nothing was deleted.",
                                  "Remove those (ha_config_remove) or take control of them (action=substitute with "
                                  "id) first.",
                                  {{"used_by", std::move(users)}, {"written", false}}});
  }
  ToolError err = from_ha_error(*a.refused);
  err.code = "delete_failed";
  err.message = "Home Assistant did not delete " + what + ": " + a.refused->detail + ". Nothing was deleted.";
  err.suggestion = "Check the path with action=list.";
  err.extra["written"] = false;
  throw ToolException(std::move(err));
}

boost::asio::awaitable<json::object> do_substitute(Args& args, ToolEnv& env) {
  const std::string domain = domain_of_args(args);
  if (args.has("id")) {
    if (domain != "automation" && domain != "script")
      throw ToolException(bad_argument("domain", "take control works on automations and scripts",
                                       "Pass domain=automation or domain=script."));
    const Kind kind = domain == "script" ? Kind::script : Kind::automation;
    auto taking = take_control(env, kind, args.str("id"));
    json::object body = co_await std::move(taking);
    co_return body;
  }
  const std::string path = require(args, "path", "substitute", "\"homeassistant/motion_light.yaml\"");
  const json::object* input = args.object("input");
  auto asking = ask(env, json::object{{"type", "blueprint/substitute"},
                                      {"domain", domain},
                                      {"path", path},
                                      {"input", input ? *input : json::object{}}});
  Answer a = co_await std::move(asking);
  if (a.refused)
    throw ToolException(ToolError{"substitute_failed",
                                  "Home Assistant could not expand " + domain + "/" + path + ": " + a.refused->detail,
                                  "Give every input without a default (action=get lists them) and an existing path.",
                                  {}});
  json::object body{{"domain", domain}, {"path", path}};
  body["substituted_config"] = a.result.as_object().at("substituted_config");
  co_return body;
}

}  // namespace

namespace config {

boost::asio::awaitable<json::object> restore_blueprint_edit(ToolEnv& env, const home::EditRecord& rec) {
  const json::object* before = rec.before.if_object();
  const json::value* text = before ? before->if_contains("yaml") : nullptr;
  if (!text || !text->is_string()) {
    const bool created = rec.before.is_null();
    throw ToolException(bad_argument(
        "restore",
        "edit " + rec.id +
            (created ? " created blueprint " + rec.key + "; there is no earlier version"
                     : " has no earlier text for blueprint " + rec.key + " (" + std::string(kTextUnknown) + ")"),
        created ? "Delete it with ha_manage_blueprints action=delete instead."
                : "Save the wanted text with ha_manage_blueprints action=save overwrite=true."));
  }
  const auto slash = rec.key.find('/');
  auto saving = save_yaml(env, rec.key.substr(0, slash), rec.key.substr(slash + 1), std::string(text->get_string()),
                          std::nullopt, true, true);
  json::object body = co_await std::move(saving);
  body["kind"] = "blueprint";
  body["restored_edit"] = rec.id;
  co_return body;
}

}  // namespace config

namespace {

boost::asio::awaitable<mcp::ToolResult> run_blueprints(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  // ha_get_blueprint / ha_import_blueprint callers send no action: get (or list) / import.
  std::string action = args.str("action");
  if (action.empty()) action = args.has("url") ? "import" : args.has("path") ? "get" : "list";
  co_await env.snapshot();  // HA's diagnosis when it is not reachable
  using Fn = boost::asio::awaitable<json::object> (*)(Args&, ToolEnv&);
  static const std::pair<const char*, Fn> kActions[] = {{"list", do_list},     {"get", do_get},
                                                        {"import", do_import}, {"save", do_save},
                                                        {"delete", do_delete}, {"substitute", do_substitute}};
  for (const auto& [name, fn] : kActions)
    if (action == name) {
      auto running = fn(args, env);
      json::object body = co_await std::move(running);
      const json::value* users = body.if_contains("used_by");
      const bool deletable = users && users->is_array() && users->get_array().empty();
      if (!is_preview_body(body) || !deletable) co_return ok(std::move(body));
      auto asking = ask_user(env, ctx, std::move(body));  // a deletion's preview: the user may say yes here
      std::optional<json::object> shown = co_await std::move(asking);
      if (shown) co_return ok(std::move(*shown));
      args.raw()["confirm"] = true;
      auto confirmed = fn(args, env);
      json::object done = co_await std::move(confirmed);
      co_return ok(std::move(done));
    }
  throw ToolException(
      bad_argument("action", "is not one of list, get, import, save, delete, substitute", "Pass one of those."));
}

}  // namespace

ToolSpec make_blueprints_spec() {
  ToolSpec s;
  s.name = "ha_manage_blueprints";
  s.title = "Manage blueprints";
  s.description =
      "Blueprints: list, get (metadata, used_by), import (url), save (yaml at path), delete (confirm=true; refused "
      "while used), substitute (expanded config for input; with id: take control of that automation/script).";
  s.input_schema = R"J({"type":"object","properties":{
"action":{"type":"string","enum":["list","get","import","save","delete","substitute"]},
"domain":{"type":"string"},"path":{"type":"string"},"url":{"type":"string"},"yaml":{"type":"string"},
"source_url":{"type":"string"},"overwrite":{"type":"boolean"},"input":{"type":"object"},
"confirm":{"type":"boolean"},"id":{"type":"string"}}})J";
  s.output_schema = R"J({"type":"object"})J";
  s.mixed = true;  // list/get are reads
  s.annotations = writes(true, false);
  s.aliases = {"ha_get_blueprint", "ha_import_blueprint"};
  s.run = run_blueprints;
  return s;
}

}  // namespace hamcp::tools
