// ha_get_skill_guide: the guide's index (SKILL.md) or one topic, as markdown.
// Answers without Home Assistant: the text is compiled into hamcp.
#include "skills/skill_guide.hpp"
#include "tools/skills/skill_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {
namespace {

std::string topic_list() {
  std::string out;
  for (const auto& t : skills::topics()) out += (out.empty() ? "" : ", ") + t;
  return out;
}

// ha-mcp's `file` names its own skill's files ("SKILL.md",
// "references/automation-actions.md", ...): mapped to the nearest topic here.
std::string topic_of_file(std::string_view file) {
  if (file.empty() || file == "SKILL.md" || file.ends_with("/SKILL.md") || file == "_manifest") return {};
  static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
      {"automation", "automations"}, {"trigger", "automations"},  {"script", "scripts"},
      {"helper", "helpers"},         {"dashboard", "dashboards"}, {"template", "templates"},
      {"refactor", "refactoring"},   {"backup", "refactoring"}};
  for (const auto& [word, topic] : kWords)
    if (file.find(word) != std::string_view::npos) return std::string(topic);
  throw ToolException(bad_argument("file", "is not a file of this guide",
                                   "Pass topic, one of: " + topic_list() + " (or nothing for the index)."));
}

boost::asio::awaitable<mcp::ToolResult> run_skill_guide(Args& args, ToolEnv& /*env*/, mcp::RequestContext& /*ctx*/) {
  std::string topic = args.str("topic");
  if (topic.empty()) topic = topic_of_file(args.str("file"));
  const skills::GuideFile* file = skills::find_by_topic(topic);
  if (!file)
    throw ToolException(bad_argument("topic", "is not a topic of this guide", "Pass one of: " + topic_list() + "."));
  // The markdown as the text block (what a model reads best) and as structuredContent.
  mcp::ToolResult result = mcp::ToolResult::text(file->text);
  result.structured_content =
      json::object{{"topic", topic.empty() ? "index" : topic}, {"uri", file->uri}, {"text", file->text}};
  co_return result;
}

std::string input_schema() {
  std::string topics;
  for (const auto& t : skills::topics()) topics += (topics.empty() ? "\"" : ",\"") + t + "\"";
  return R"({"type":"object","properties":{"topic":{"type":"string","enum":[)" + topics + "]}}}";
}

}  // namespace

ToolSpec make_skill_guide_spec() {
  ToolSpec s;
  s.name = "ha_get_skill_guide";
  s.title = "Skills guide";
  s.description =
      "hamcp's guide to authoring in Home Assistant and safe changes; read before writing configs. No topic: the "
      "index.";
  s.input_schema = input_schema();
  s.output_schema = R"({"type":"object"})";
  s.annotations = read_only();
  s.hidden_args = {"file"};  // ha-mcp 8.7.0's argument
  s.run = run_skill_guide;
  return s;
}

void register_skill_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_skill_guide_spec(), std::move(env)));
}

}  // namespace hamcp::tools
