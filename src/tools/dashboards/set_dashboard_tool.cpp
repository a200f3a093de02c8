// ha_set_dashboard (ha-mcp: ha_config_set_dashboard): creates a storage
// dashboard or changes its metadata, and writes its config by full config
// (or one view with view_path), by RFC 6902 patch, or one card or view at a
// time (op + path) so that the call sends and returns only that card. Every
// config write is guarded by config_hash, journaled, never retried.
#include "home/config_json.hpp"
#include "mcp/echo.hpp"
#include "tools/dashboards/card_finder.hpp"
#include "tools/dashboards/dashboard_edit.hpp"
#include "tools/dashboards/dashboard_tools.hpp"
#include "tools/dashboards/dashboard_ws.hpp"

namespace hamcp::tools::dashboards {

namespace {

bool has_meta(const Args& args) {
  for (const char* k : {"title", "icon", "show_in_sidebar", "require_admin"})
    if (args.has(k)) return true;
  return false;
}

json::object meta_fields(const Args& args) {
  json::object out;
  for (const char* k : {"title", "icon", "show_in_sidebar", "require_admin"})
    if (const json::value* v = args.get(k); v && !v->is_null()) out[k] = *v;
  return out;
}

// "my-dash" -> "My Dash": HA requires a title; a call that gives none still creates.
std::string title_from(std::string_view url_path) {
  std::string out(url_path);
  bool start = true;
  for (char& c : out) {
    if (c == '-' || c == '_') c = ' ';
    if (start && c != ' ') c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    start = c == ' ';
  }
  return out;
}

boost::asio::awaitable<Dashboard> create_dashboard(ToolEnv& env, const Args& args, const std::string& url_path,
                                                   json::object& body) {
  json::object msg = meta_fields(args);
  msg["type"] = "lovelace/dashboards/create";
  msg["url_path"] = url_path;
  if (!msg.contains("title")) msg["title"] = title_from(url_path);
  auto creating = ws_call(env, std::move(msg), true, "create the dashboard");
  json::value item = co_await std::move(creating);
  Dashboard d;
  d.url_path = url_path;
  d.item = item.is_object() ? item.get_object() : json::object();
  body["created"] = true;
  json::object meta_body;
  journal(env, meta_body, "dashboard_meta", url_path, "create", nullptr, d.item);
  body["meta_edit_id"] = meta_body.at("edit_id");
  co_return d;
}

boost::asio::awaitable<void> update_meta(ToolEnv& env, const Args& args, Dashboard& d, json::object& body) {
  refuse_yaml(d);
  if (d.is_default)
    throw ToolException(bad_argument("title",
                                     "the default dashboard's title, icon and sidebar entry are not "
                                     "settable through Home Assistant's API",
                                     "Leave them out, or create a storage dashboard (url_path with a hyphen)."));
  json::object msg = meta_fields(args);
  if (const json::value* icon = args.get("icon"); icon && icon->is_string() && icon->get_string().empty())
    msg["icon"] = nullptr;  // "" removes the icon
  msg["type"] = "lovelace/dashboards/update";
  msg["dashboard_id"] = d.id();
  auto updating = ws_call(env, std::move(msg), true, "update the dashboard");
  json::value item = co_await std::move(updating);
  const json::object before = d.item;
  if (item.is_object()) d.item = item.get_object();
  json::object meta_body;
  journal(env, meta_body, "dashboard_meta", d.url_path, "update", before, d.item);
  body["meta_edit_id"] = meta_body.at("edit_id");
  body["metadata"] = summary_of(d);
}

boost::asio::awaitable<void> write_config(ToolEnv& env, const Args& args, const Dashboard& d, json::object& body) {
  refuse_yaml(d);
  auto reading = read_config(env, d);
  const json::value current = co_await std::move(reading);
  const std::optional<std::string> given = args.opt_str("config_hash");
  check_hash(env, d, current, given);
  const Edit edit = plan_edit(args, current);
  if (edit.needs_hash && !given && !current.is_null())
    throw ToolException(bad_argument("config_hash", "a patch or per-card edit needs the config_hash it was made on",
                                     "Read the dashboard with ha_get_dashboard and pass its config_hash."));
  auto saving = save_config(env, d, current, edit.next, current.is_null() ? "create" : "update", body);
  co_await std::move(saving);
  for (const auto& kv : edit.answer) body[kv.key()] = kv.value();
}

// remove=true (ha_remove_dashboard, ha-mcp's ha_config_delete_dashboard: hidden
// aliases that set it) deletes the dashboard; it takes url_path and confirm only.
boost::asio::awaitable<mcp::ToolResult> run_remove_instead(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  for (const auto& kv : args.raw())
    if (kv.key() != "url_path" && kv.key() != "confirm" && kv.key() != "remove")
      throw ToolException(bad_argument(mcp::echo_excerpt(kv.key()), "not an argument of remove=true",
                                       "remove=true takes: url_path, confirm."));
  static const RunFn remove = make_remove_dashboard_spec().run;
  auto running = remove(args, env, ctx);  // named: GCC 12 coroutine temporaries
  co_return co_await std::move(running);
}

boost::asio::awaitable<mcp::ToolResult> run_set(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  if (args.flag("remove", false)) {
    auto removing = run_remove_instead(args, env, ctx);
    co_return co_await std::move(removing);
  }
  if (args.has("confirm"))  // it would otherwise be ignored: confirm gates a removal only
    throw ToolException(bad_argument("confirm", "applies only with remove=true",
                                     "To delete the dashboard pass remove=true with confirm=true; a config or metadata "
                                     "edit needs no confirm (undo: ha_config_set restore=<edit_id>)."));
  if (args.has("python_transform"))
    throw ToolException(
        bad_argument("python_transform", "hamcp runs no Python", "Use patch (RFC 6902) or op + path for one card."));
  const std::string url_path = normalise_url(args.str("url_path"));
  const bool config_write = args.has("config") || args.has("patch") || args.has("op");
  if (!config_write && !has_meta(args))
    throw ToolException(bad_argument("config", "nothing to do", "Pass config, patch, op + path, or title/icon/..."));
  json::object body{{"url_path", url_path}};
  auto finding = find_dashboard(env, url_path);
  std::optional<Dashboard> found = co_await std::move(finding);
  Dashboard d;
  if (!found) {
    auto creating = create_dashboard(env, args, url_path, body);
    d = co_await std::move(creating);
  } else {
    d = *found;
    if (has_meta(args)) {
      auto updating = update_meta(env, args, d, body);
      co_await std::move(updating);
    }
  }
  if (config_write) {
    try {
      auto writing = write_config(env, args, d, body);
      co_await std::move(writing);
    } catch (ToolException& e) {
      if (!body.contains("created") && !body.contains("metadata")) throw;
      ToolError err = e.error();  // the dashboard itself was created or changed: say so
      err.message += " The dashboard's metadata was written (see result).";
      err.extra["result"] = body;
      throw ToolException(std::move(err));
    }
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_set_dashboard_spec() {
  ToolSpec s;
  s.name = "ha_set_dashboard";
  s.title = "Create or edit a dashboard";
  s.description =
      "Creates url_path (needs a hyphen) or sets its metadata. "
      "Config: full `config` (+view_path: one view), RFC 6902 `patch`, or op + path "
      "(views[1].sections[0].cards[2]; cards[-] appends) + value, move: from. patch/op need config_hash. remove: "
      "delete (confirm=true, else a preview). Undo: ha_config_set restore=<edit_id>.";
  s.input_schema = R"J({"type":"object","properties":{"url_path":{"type":"string"},
"config":{"type":"object"},"view_path":{"type":"string"},"patch":{"type":"array","items":{"type":"object"}},
"op":{"type":"string","enum":["add","replace","move","remove"]},"path":{"type":"string"},"value":{"type":"object"},
"from":{"type":"string"},"config_hash":{"type":"string"},"title":{"type":"string"},"icon":{"type":"string"},
"show_in_sidebar":{"type":"boolean"},"require_admin":{"type":"boolean"},"remove":{"type":"boolean"},
"confirm":{"type":"boolean"}},"required":["url_path"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.aliases = {"ha_config_set_dashboard"};
  s.alias_args = {{"ha_remove_dashboard", R"({"remove":true})"}, {"ha_config_delete_dashboard", R"({"remove":true})"}};
  s.hidden_args = {"python_transform", "MandatoryBPS", "BestPracticeKey", "return_screenshot"};
  s.run = run_set;
  return s;
}

}  // namespace hamcp::tools::dashboards
