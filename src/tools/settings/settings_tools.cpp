#include "tools/settings/settings_tools.hpp"

#include "tools/response.hpp"

namespace hamcp::tools {

namespace {

boost::asio::awaitable<mcp::ToolResult> answer(std::shared_ptr<const EffectiveSettings> settings) {
  const EffectiveSettings empty;
  const EffectiveSettings& shown = settings ? *settings : empty;
  co_return ok(settings_view(shown));
}

}  // namespace

json::object settings_view(const EffectiveSettings& settings) {
  json::object rows;
  for (const SettingRow& row : settings.rows) {
    json::value value;
    if (row.secret)
      value = row.value.empty() ? json::value("") : json::value("***");  // never the secret itself
    else
      value = json::value(row.value);
    rows[row.name] = json::object{{"value", std::move(value)}, {"source", row.source}};
  }
  json::object out;
  out["config_file"] = settings.config_file;
  out["config_file_read"] = settings.config_file_read;
  out["precedence"] = "flag > env > file > default";
  out["settings"] = std::move(rows);
  return out;
}

ToolSpec make_get_settings_spec(std::shared_ptr<const EffectiveSettings> settings) {
  ToolSpec s;
  s.name = "ha_get_settings";
  s.title = "Settings";
  s.description = "Setting values and sources (flag/env/file/default).";
  s.input_schema = R"J({"type":"object","properties":{}})J";
  s.output_schema = R"J({"type":"object","properties":{"settings":{"type":"object"}}})J";
  s.annotations = read_only();
  // Not a coroutine lambda: its captures would not outlive the call's frame.
  s.run = [settings = std::move(settings)](Args&, ToolEnv&, mcp::RequestContext&) { return answer(settings); };
  return s;
}

void register_settings_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env,
                             std::shared_ptr<const EffectiveSettings> settings) {
  registry.add_tool(build_tool(make_get_settings_spec(std::move(settings)), std::move(env)));
}

}  // namespace hamcp::tools
