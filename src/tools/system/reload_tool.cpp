// ha_reload_core: reload YAML domains (automation, script, scene, group,
// input_*, template, themes, core config, all) through their reload actions,
// or one config entry (entry_id) through HA's config entry reload.
#include "common/ascii.hpp"
#include "tools/system/system_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

namespace asio = boost::asio;

struct ReloadAction {
  std::string domain, service;
};

// "automations" -> automation.reload; the special names of homeassistant.* and frontend.
ReloadAction action_for(std::string target) {
  target = ascii_lower(target);
  if (target == "core" || target == "core_config" || target == "homeassistant")
    return {"homeassistant", "reload_core_config"};
  if (target == "all") return {"homeassistant", "reload_all"};
  if (target == "themes" || target == "theme" || target == "frontend") return {"frontend", "reload_themes"};
  if (target == "custom_templates") return {"homeassistant", "reload_custom_templates"};
  return {target, "reload"};
}

std::vector<std::string> reloadable_domains(const ha::Snapshot& snap) {
  std::vector<std::string> out;
  if (!snap.services) return out;
  for (const auto& [domain, services] : *snap.services)
    if (services.is_object() && services.get_object().contains("reload")) out.emplace_back(domain);
  return out;
}

bool has_service(const ha::Snapshot& snap, const ReloadAction& a) {
  if (!snap.services) return true;  // not known yet: let HA answer
  const json::value* d = snap.services->if_contains(a.domain);
  return d && d->is_object() && d->get_object().contains(a.service);
}

asio::awaitable<json::object> reload_domain(ToolEnv& env, std::string target) {
  ReloadAction action = action_for(target);
  ha::SnapshotPtr snap = co_await env.snapshot();
  if (!has_service(*snap, action) && action.domain.size() > 1 && action.domain.back() == 's') {
    ReloadAction singular{action.domain.substr(0, action.domain.size() - 1), "reload"};  // "automations"
    if (has_service(*snap, singular)) action = std::move(singular);
  }
  if (!has_service(*snap, action)) {
    std::string known;
    for (const auto& d : reloadable_domains(*snap)) known += (known.empty() ? "" : ", ") + d;
    throw ToolException(bad_argument("target", "'" + target + "' has no reload action in this Home Assistant",
                                     "Use one of: core, all, themes, " + known + "."));
  }
  ha::ServiceCall call{action.domain, action.service, {}, {}, false, std::chrono::milliseconds(120000)};
  auto calling = env.ha.call_service(std::move(call));
  co_await std::move(calling);
  co_return json::object{{"target", target}, {"action", action.domain + "." + action.service}, {"reloaded", true}};
}

asio::awaitable<json::object> reload_entry(ToolEnv& env, std::string entry_id) {
  auto posting = env.ha.rest_post("/api/config/config_entries/entry/" + entry_id + "/reload", json::object{});
  const ha::Response r = co_await std::move(posting);
  if (r.status == 404)
    throw ToolException(bad_argument("entry_id", "no config entry '" + entry_id + "'",
                                     "List entries with ha_get_integration, then pass its entry_id."));
  if (r.status == 403)
    throw ToolException("entry_not_reloadable", "Home Assistant says this entry cannot be reloaded.",
                        "Restart Home Assistant (ha_restart) to apply its changes.");
  if (!r.ok()) throw_http_failure(r.status, r.body);
  json::object out{{"entry_id", entry_id}, {"reloaded", true}};
  boost::system::error_code ec;
  const json::value body = json::parse(r.body, ec);
  if (const json::object* o = ec ? nullptr : body.if_object(); o && o->contains("require_restart"))
    out["require_restart"] = o->at("require_restart");
  co_return out;
}

asio::awaitable<mcp::ToolResult> run_reload(Args& args, ToolEnv& env, mcp::RequestContext&) {
  std::vector<std::string> targets;  // a list, or one string of comma-separated names
  for (const auto& item : args.list("target")) {
    std::size_t pos = 0;
    while (pos <= item.size()) {
      const std::size_t comma = std::min(item.find(',', pos), item.size());
      std::string name = item.substr(pos, comma - pos);
      name.erase(0, name.find_first_not_of(' '));
      name.erase(name.find_last_not_of(' ') + 1);
      if (!name.empty()) targets.push_back(std::move(name));
      pos = comma + 1;
    }
  }
  const auto entry_id = args.opt_str("entry_id");
  if (targets.empty() && !entry_id)
    throw ToolException(bad_argument("target", "nothing to reload",
                                     "Pass target (e.g. automation, script, scene, group, template, core, all) or "
                                     "entry_id."));
  json::array done;
  for (const auto& target : targets) {
    auto reloading = reload_domain(env, target);
    json::object one = co_await std::move(reloading);
    done.push_back(std::move(one));
  }
  if (entry_id) {
    auto reloading = reload_entry(env, *entry_id);
    json::object one = co_await std::move(reloading);
    done.push_back(std::move(one));
  }
  co_return ok(json::object{{"reloaded", std::move(done)}});
}

}  // namespace

ToolSpec make_reload_core_spec() {
  ToolSpec s;
  s.name = "ha_reload_core";
  s.title = "Reload configuration";
  s.description =
      "Reload YAML config without restart. target: domain(s) (automation, script, scene, group, input_*, template), "
      "themes, core, or all; or entry_id: one config entry.";
  s.input_schema = R"J({"type":"object","properties":{"target":{"type":"string"},"entry_id":{"type":"string"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"reloaded":{"type":"array"}}})J";
  s.annotations = writes(false, true);
  s.also_accepts = {{"target", R"({"type":["string","array"],"items":{"type":"string"}})"}};
  s.run = run_reload;
  return s;
}

}  // namespace hamcp::tools
