// ha_config_set restore=<edit id> for this family's edits: the version before
// the journaled write is written again, once, and journaled as a "restore" of
// its own. A deleted dashboard is created again with its config; a removed
// resource is added again (with a new id, as Home Assistant assigns it).
#include "home/config_json.hpp"
#include "tools/dashboards/dashboard_ha.hpp"
#include "tools/dashboards/dashboard_tools.hpp"
#include "tools/dashboards/dashboard_ws.hpp"

namespace hamcp::tools::dashboards {

namespace {

json::object meta_of(const json::object& item, bool for_create) {
  json::object out;
  for (const char* k : {"title", "icon", "show_in_sidebar", "require_admin"})
    if (const json::value* v = item.if_contains(k)) out[k] = *v;
  if (!for_create && !out.contains("icon")) out["icon"] = nullptr;  // it had none
  return out;
}

boost::asio::awaitable<json::object> restore_dashboard(ToolEnv& env, const home::EditRecord& rec) {
  json::object body{{"url_path", rec.key}};
  json::value config = rec.before;
  Dashboard d;
  if (rec.action == "remove") {
    const json::object& saved = rec.before.get_object();
    json::object msg = meta_of(saved.at("dashboard").as_object(), true);
    msg["type"] = "lovelace/dashboards/create";
    msg["url_path"] = rec.key;
    auto creating = ws_call(env, std::move(msg), true, "create the dashboard again");
    json::value item = co_await std::move(creating);
    d.url_path = rec.key;
    d.item = item.is_object() ? item.get_object() : json::object();
    config = saved.at("config");
    body["result"] = "recreated";
    if (config.is_null()) co_return body;
  } else {
    auto resolving = require_dashboard(env, rec.key);
    d = co_await std::move(resolving);
    body["result"] = "restored";
  }
  auto reading = read_config(env, d);
  const json::value current = co_await std::move(reading);
  auto saving = save_config(env, d, current, config, "restore", body);
  co_await std::move(saving);
  body["diff"] = home::short_diff(current, config);
  co_return body;
}

boost::asio::awaitable<json::object> restore_meta(ToolEnv& env, const home::EditRecord& rec) {
  auto resolving = require_dashboard(env, rec.key);
  const Dashboard d = co_await std::move(resolving);
  json::object msg = meta_of(rec.before.get_object(), false);
  msg["type"] = "lovelace/dashboards/update";
  msg["dashboard_id"] = d.id();
  auto updating = ws_call(env, std::move(msg), true, "update the dashboard");
  json::value item = co_await std::move(updating);
  json::object body{{"url_path", rec.key}, {"result", "restored"}};
  journal(env, body, "dashboard_meta", rec.key, "restore", d.item, item);
  co_return body;
}

boost::asio::awaitable<json::object> restore_resource(ToolEnv& env, const home::EditRecord& rec) {
  const json::object& before = rec.before.get_object();
  json::object msg{{"res_type", before.at("type")}, {"url", before.at("url")}};
  const bool removed = rec.action == "remove";
  msg["type"] = removed ? "lovelace/resources/create" : "lovelace/resources/update";
  if (!removed) msg["resource_id"] = rec.key;
  auto writing = ws_call(env, std::move(msg), true, "write the resource");
  json::value item = co_await std::move(writing);
  json::object body{{"result", removed ? "recreated" : "restored"}, {"resource", item}};
  const json::value* id = item.is_object() ? item.get_object().if_contains("id") : nullptr;
  journal(env, body, "resource", id && id->is_string() ? std::string(id->get_string()) : rec.key, "restore",
          removed ? json::value(nullptr) : rec.after, item);
  co_return body;
}

boost::asio::awaitable<json::object> restore_theme(ToolEnv& env, const home::EditRecord& rec) {
  const bool dark = rec.key == "dark";
  const json::value& was = rec.before.get_object().at(dark ? "default_dark_theme" : "default_theme");
  const std::string name = was.is_string() ? std::string(was.get_string()) : std::string("none");
  json::object msg{{"type", "call_service"},
                   {"domain", "frontend"},
                   {"service", "set_theme"},
                   {"service_data", json::object{{"name", name}, {"mode", rec.key}}}};
  auto calling = ws_call(env, std::move(msg), true, "set the theme");
  co_await std::move(calling);
  json::object body{{"result", "restored"}, {"theme", name}, {"mode", rec.key}};
  journal(env, body, "theme", rec.key, "restore", rec.after, rec.before);
  co_return body;
}

}  // namespace

bool is_dashboard_kind(std::string_view kind) {
  return kind == "dashboard" || kind == "dashboard_meta" || kind == "resource" || kind == "theme";
}

boost::asio::awaitable<json::object> restore_dashboard_edit(ToolEnv& env, const home::EditRecord& rec) {
  if (!rec.before.is_object())
    throw ToolException(bad_argument("restore",
                                     "edit " + rec.id + " created the " + rec.kind +
                                         "; there is no "
                                         "earlier version",
                                     rec.kind == "resource" ? "Remove it with ha_manage_dashboard_resources."
                                                            : "Delete it with ha_set_dashboard remove=true."));
  json::object body;
  if (rec.kind == "dashboard") {
    auto restoring = restore_dashboard(env, rec);
    body = co_await std::move(restoring);
  } else if (rec.kind == "dashboard_meta") {
    auto restoring = restore_meta(env, rec);
    body = co_await std::move(restoring);
  } else if (rec.kind == "resource") {
    auto restoring = restore_resource(env, rec);
    body = co_await std::move(restoring);
  } else {
    auto restoring = restore_theme(env, rec);
    body = co_await std::move(restoring);
  }
  body["kind"] = rec.kind;
  body["restored_edit"] = rec.id;
  co_return body;
}

}  // namespace hamcp::tools::dashboards
