// ha_manage_theme: the frontend's themes (frontend/get_themes) and the
// default one (frontend.set_theme, light or dark). A set checks the theme
// exists first (Home Assistant only logs an unknown name) and is journaled
// with the previous defaults. ha-mcp's screenshot-engine actions have no
// engine here and say so.
#include "tools/dashboards/dashboard_tools.hpp"
#include "tools/dashboards/dashboard_ws.hpp"

namespace hamcp::tools::dashboards {

namespace {

boost::asio::awaitable<json::object> themes(ToolEnv& env) {
  auto reading = ws_call(env, json::object{{"type", "frontend/get_themes"}}, false, "list themes");
  json::value v = co_await std::move(reading);
  co_return v.is_object() ? v.get_object() : json::object();
}

json::object defaults_of(const json::object& t) {
  json::object out;
  for (const char* k : {"default_theme", "default_dark_theme"}) out[k] = t.contains(k) ? t.at(k) : json::value(nullptr);
  return out;
}

json::object list_body(const json::object& t) {
  json::array names;
  if (const json::value* all = t.if_contains("themes"); all && all->is_object())
    for (const auto& kv : all->get_object()) {
      const bool modes = kv.value().is_object() && kv.value().get_object().contains("modes");
      names.emplace_back(modes ? json::value(json::object{{"name", kv.key()}, {"modes", true}})
                               : json::value(kv.key()));
    }
  json::object body = defaults_of(t);
  body["themes"] = std::move(names);
  return body;
}

// expected_current: {default_theme?, default_dark_theme?} the caller last saw; a difference writes nothing.
void check_expected(const Args& args, const json::object& now) {
  const json::object* expected = args.object("expected_current");
  if (!expected || args.flag("force", false)) return;
  for (const auto& kv : *expected)
    if (now.contains(kv.key()) && now.at(kv.key()) != kv.value())
      throw ToolException(ToolError{"theme_changed",
                                    "The current theme is not what expected_current says. "
                                    "Nothing was written.",
                                    "Read it again with action=list, or pass force=true.",
                                    {{"current", now}, {"written", false}}});
}

boost::asio::awaitable<json::object> set_theme(const Args& args, ToolEnv& env) {
  if (!args.has("theme_name"))
    throw ToolException(bad_argument("theme_name", "set needs theme_name", "Pick one from action=list, or 'default'."));
  const std::string name = args.str("theme_name");
  const std::string mode = args.str("mode", "light");
  auto reading = themes(env);
  const json::object before = co_await std::move(reading);
  const json::value* all = before.if_contains("themes");
  if (name != "default" && name != "none" && !(all && all->is_object() && all->get_object().contains(name)))
    throw ToolException(ToolError{"theme_not_found",
                                  "There is no theme '" + name + "'. Nothing was written.",
                                  "Use one of `themes`, or 'default'.",
                                  {{"themes", list_body(before).at("themes")}}});
  check_expected(args, defaults_of(before));
  json::object msg{{"type", "call_service"},
                   {"domain", "frontend"},
                   {"service", "set_theme"},
                   {"service_data", json::object{{"name", name}, {"mode", mode}}}};
  auto calling = ws_call(env, std::move(msg), true, "set the theme");
  co_await std::move(calling);
  auto rereading = themes(env);
  const json::object after = co_await std::move(rereading);
  json::object body = defaults_of(after);
  body["result"] = "set";
  body["previous"] = defaults_of(before);
  journal(env, body, "theme", mode, "update", defaults_of(before), defaults_of(after));
  co_return body;
}

boost::asio::awaitable<mcp::ToolResult> run_theme(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string action = args.str("action", "list");
  if (action == "get_engine_theme" || action == "set_engine_theme")
    throw ToolException(ToolError{"not_available",
                                  "hamcp has no dashboard screenshot engine, so it has no engine theme.",
                                  "Use action=list or action=set for Home Assistant's own themes.",
                                  {}});
  if (action == "set") {
    auto setting = set_theme(args, env);
    json::object body = co_await std::move(setting);
    co_return ok(std::move(body));
  }
  if (action != "list")
    throw ToolException(bad_argument("action", "must be list or set", "Pass action=list or action=set."));
  auto reading = themes(env);
  const json::object t = co_await std::move(reading);
  co_return ok(list_body(t));
}

}  // namespace

ToolSpec make_theme_spec() {
  ToolSpec s;
  s.name = "ha_manage_theme";
  s.title = "Themes";
  s.description = "Frontend themes: action=list, or set the default (theme_name, 'default' resets; mode light|dark).";
  s.input_schema = R"J({"type":"object","properties":{"action":{"type":"string","enum":["list","set"]},
"theme_name":{"type":"string"},"mode":{"type":"string","enum":["light","dark"]}},"required":["action"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(false, true);
  s.hidden_args = {"expected_current", "force", "value"};
  s.also_accepts = {{"action", R"({"enum":["list","set","get_engine_theme","set_engine_theme"]})"}};
  s.run = run_theme;
  return s;
}

}  // namespace hamcp::tools::dashboards
