// ha_set_log_level (HA's logger: one integration, any logger, or the default)
// and ha_ignore_repair (repairs/ignore_issue). Each answer says what the
// setting was before and what it is now.
#include <set>

#include "common/ascii.hpp"
#include "tools/system/system_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

namespace asio = boost::asio;

std::string checked_level(const Args& args) {
  if (!args.has("level"))
    throw ToolException(
        bad_argument("level", "missing", "Pass level: DEBUG, INFO, WARNING, ERROR, CRITICAL or NOTSET."));
  std::string level = args.str("level");
  for (auto& ch : level) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (level == "DEFAULT") level = "NOTSET";  // ha-mcp's name for "inherit the default"
  static const std::set<std::string> kLevels = {"CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG", "NOTSET"};
  if (!kLevels.count(level))
    throw ToolException(bad_argument("level", "unknown level '" + args.str("level") + "'",
                                     "Use DEBUG, INFO, WARNING, ERROR, CRITICAL or NOTSET (inherit the default)."));
  return level;
}

asio::awaitable<json::value> level_of(ToolEnv& env, std::string integration) {
  auto reading = system::logger_levels(env);
  json::object levels = co_await std::move(reading);
  const json::value* v = levels.if_contains(integration);
  co_return v ? *v : json::value(nullptr);
}

asio::awaitable<mcp::ToolResult> run_set_log_level(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string level = checked_level(args);
  if (args.has("integration")) {
    const std::string persistence = args.str("persistence", "none");
    if (persistence != "none" && persistence != "once" && persistence != "permanent")
      throw ToolException(bad_argument("persistence", "must be none, once or permanent",
                                       "none: until restart; permanent: kept across restarts."));
    auto setting = system::set_integration_level(env, args.str("integration"), level, persistence);
    json::object body = co_await std::move(setting);
    co_return ok(std::move(body));
  }
  ha::ServiceCall call;
  call.domain = "logger";
  json::object body{{"level", level}};
  if (const auto logger = args.opt_str("logger")) {
    call.service = "set_level";
    call.data[*logger] = level;
    body["logger"] = *logger;
  } else {
    call.service = "set_default_level";
    call.data["level"] = level;
    body["logger"] = "default";
  }
  auto calling = env.ha.call_service(std::move(call));
  co_await std::move(calling);
  body["set"] = true;
  body["note"] = "until Home Assistant restarts (logger: in configuration.yaml keeps it)";
  co_return ok(std::move(body));
}

asio::awaitable<json::object> find_issue(ToolEnv& env, std::string domain, std::string issue_id) {
  json::object message{{"type", "repairs/list_issues"}};
  auto reading = env.ha.command(std::move(message));
  json::value listed = co_await std::move(reading);
  std::string known;
  if (const json::value* issues = listed.is_object() ? listed.get_object().if_contains("issues") : nullptr)
    if (const json::array* a = issues->if_array())
      for (const auto& i : *a) {
        const json::object* o = i.if_object();
        if (!o || !o->contains("domain") || !o->contains("issue_id")) continue;
        if (o->at("domain") == domain.c_str() && o->at("issue_id") == issue_id.c_str()) co_return *o;
        known +=
            (known.empty() ? "" : ", ") + json::serialize(o->at("domain")) + "/" + json::serialize(o->at("issue_id"));
      }
  throw ToolException(
      bad_argument("issue_id", "no repairs issue " + domain + "/" + issue_id,
                   known.empty() ? "There are no repairs issues." : "Known issues (domain/issue_id): " + known + "."));
}

asio::awaitable<mcp::ToolResult> run_ignore_repair(Args& args, ToolEnv& env, mcp::RequestContext&) {
  auto setting = system::set_repair_ignored(env, args.str("domain"), args.str("issue_id"), args.flag("ignore", true));
  json::object body = co_await std::move(setting);
  co_return ok(std::move(body));
}

}  // namespace

asio::awaitable<json::object> system::set_repair_ignored(ToolEnv& env, std::string domain, std::string issue_id,
                                                         bool ignore) {
  auto finding = find_issue(env, domain, issue_id);
  const json::object issue = co_await std::move(finding);
  const bool was = issue.contains("ignored") && issue.at("ignored") == true;
  json::object message{
      {"type", "repairs/ignore_issue"}, {"domain", domain}, {"issue_id", issue_id}, {"ignore", ignore}};
  auto writing = env.ha.command(std::move(message));
  co_await std::move(writing);
  co_return json::object{{"domain", domain}, {"issue_id", issue_id}, {"ignored_before", was}, {"ignored", ignore}};
}

asio::awaitable<json::object> system::set_integration_level(ToolEnv& env, std::string integration, std::string level,
                                                            std::string persistence) {
  auto before_reading = level_of(env, integration);
  json::value before = co_await std::move(before_reading);
  if (before.is_null())
    throw ToolException(bad_argument("integration", "'" + integration + "' is not a loaded integration",
                                     "ha_get_logs source=logger lists the loaded integrations and their levels."));
  json::object message{{"type", "logger/integration_log_level"},
                       {"integration", integration},
                       {"level", level},
                       {"persistence", persistence}};
  auto setting = env.ha.command(std::move(message));
  co_await std::move(setting);
  auto after_reading = level_of(env, integration);
  json::value after = co_await std::move(after_reading);
  co_return json::object{{"integration", integration},
                         {"before", std::move(before)},
                         {"after", std::move(after)},
                         {"persistence", persistence}};
}

ToolSpec make_set_log_level_spec() {
  ToolSpec s;
  s.name = "ha_set_log_level";
  s.title = "Set log level";
  s.description =
      "Set HA's log level: of an integration (persistence none|once|permanent), of any logger, or the default. "
      "Read levels: ha_get_logs source=logger.";
  s.input_schema =
      R"J({"type":"object","properties":{"level":{"type":"string","description":"DEBUG|INFO|WARNING|ERROR|CRITICAL|NOTSET"},
"integration":{"type":"string"},"logger":{"type":"string","description":"e.g. homeassistant.components.mqtt"},
"persistence":{"type":"string"}}})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(false, true);
  s.legacy_args = {{"log_level", "level"}, {"domain", "integration"}};
  s.run = run_set_log_level;
  return s;
}

ToolSpec make_ignore_repair_spec() {
  ToolSpec s;
  s.name = "ha_ignore_repair";
  s.title = "Ignore a repair";
  s.description = "Ignore (or, ignore=false, restore) a repairs issue listed by ha_get_system_health.";
  s.input_schema = R"J({"type":"object","properties":{"domain":{"type":"string"},"issue_id":{"type":"string"},
"ignore":{"type":"boolean"}},"required":["domain","issue_id"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(false, true);
  s.run = run_ignore_repair;
  return s;
}

}  // namespace hamcp::tools
