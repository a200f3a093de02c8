// ha_report_issue: the text of an issue report, ready to file: the user's
// title and description, hamcp's and Home Assistant's versions, the mirror's
// state, the configuration check, open repairs and HA's recent errors.
// Secrets are scrubbed: tokens (JWTs, long hex/base64 runs), IP addresses,
// e-mail addresses and URLs' hosts; the access token is removed on the way
// out as from every result.
#include <regex>

#include "tools/system/system_tools.hpp"
#include "tools/tool_error.hpp"

#ifndef HAMCP_VERSION
#define HAMCP_VERSION "dev"
#endif

namespace hamcp::tools {

namespace {

namespace asio = boost::asio;

constexpr std::size_t kMaxErrors = 10;

std::string scrub_text(std::string text) {
  static const std::regex kJwt(R"(eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)");
  static const std::regex kLongKey(R"(\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b)");
  static const std::regex kEmail(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})");
  static const std::regex kIp(R"(\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b)");
  static const std::regex kUrlHost(R"((https?|wss?)://[^/\s:"']+)");
  text = std::regex_replace(text, kJwt, "<token>");
  text = std::regex_replace(text, kLongKey, "<key>");
  text = std::regex_replace(text, kEmail, "<email>");
  text = std::regex_replace(text, kIp, "<ip>");
  text = std::regex_replace(text, kUrlHost, "$1://<host>");
  return text;
}

std::string first_line(const json::value& message) {
  std::string text;
  if (message.is_string()) text = message.get_string();
  if (const json::array* a = message.if_array(); a && !a->empty() && a->front().is_string())
    text = a->front().get_string();
  return text.substr(0, std::min(text.find('\n'), std::size_t{300}));
}

// The best-effort parts: a failing one is named in the report, never fails the call.
template <class F>
asio::awaitable<std::string> section(F part) {
  try {
    auto running = part();
    std::string text = co_await std::move(running);
    co_return text;
  } catch (const std::exception& e) {
    co_return std::string("(unavailable: ") + e.what() + ")\n";
  }
}

asio::awaitable<std::string> versions_section(ToolEnv& env) {
  auto reading = system::read_health(env);
  const json::object health = co_await std::move(reading);
  std::string out;
  if (const json::value* core = health.if_contains("homeassistant"); core && core->is_object())
    for (const char* key : {"version", "installation_type", "python_version", "os_name", "arch"})
      if (const json::value* v = core->get_object().if_contains(key))
        out += std::string("- ") + key + ": " + (v->is_string() ? std::string(v->get_string()) : json::serialize(*v)) +
               "\n";
  co_return out;
}

asio::awaitable<std::string> config_section(ToolEnv& env) {
  auto checking = system::check_config(env);
  const json::object check = co_await std::move(checking);
  std::string out =
      "- result: " + json::serialize(check.contains("result") ? check.at("result") : json::value()) + "\n";
  if (const json::value* errors = check.if_contains("errors"); errors && errors->is_string())
    out += "- errors: " + std::string(errors->get_string()) + "\n";
  co_return out;
}

asio::awaitable<std::string> errors_section(ToolEnv& env) {
  json::object message{{"type", "system_log/list"}};
  auto reading = env.ha.command(std::move(message));
  const json::value rows = co_await std::move(reading);
  std::string out;
  std::size_t n = 0;
  if (const json::array* a = rows.if_array())
    for (const auto& row : *a) {
      const json::object* o = row.if_object();
      if (!o || n >= kMaxErrors) continue;
      ++n;
      out += "- " + (o->contains("level") ? std::string(o->at("level").as_string()) : std::string()) + " " +
             (o->contains("name") ? std::string(o->at("name").as_string()) : std::string()) + ": " +
             first_line(o->contains("message") ? o->at("message") : json::value()) + "\n";
    }
  co_return out.empty() ? std::string("- none\n") : out;
}

asio::awaitable<std::string> repairs_section(ToolEnv& env) {
  json::object message{{"type", "repairs/list_issues"}};
  auto reading = env.ha.command(std::move(message));
  const json::value listed = co_await std::move(reading);
  std::string out;
  if (const json::value* issues = listed.is_object() ? listed.get_object().if_contains("issues") : nullptr)
    if (const json::array* a = issues->if_array())
      for (const auto& i : *a)
        if (const json::object* o = i.if_object())
          out += "- " + json::serialize(o->contains("severity") ? o->at("severity") : json::value()) + " " +
                 json::serialize(o->at("domain")) + "/" + json::serialize(o->at("issue_id")) + "\n";
  co_return out.empty() ? std::string("- none\n") : out;
}

asio::awaitable<mcp::ToolResult> run_report_issue(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string type = args.str("report_type", "runtime_bug");
  std::string title = args.str("title", "hamcp: " + type);
  std::string text = "## What happened\n\n" + args.str("description", "(describe the problem)") + "\n";
  for (const char* extra : {"user_prompt", "user_comment", "tool_calls", "client_app", "ai_model"})
    if (args.has(extra)) text += std::string("\n**") + extra + "**: " + args.str(extra) + "\n";
  const ha::MirrorStatus status = env.ha.status();
  text += "\n## Environment\n\n- report_type: " + type +
          "\n- hamcp: " HAMCP_VERSION "\n- mirror: " + std::string(ha::to_string(status.state)) + " (" + status.mode +
          ", " + std::to_string(status.entity_count) + " entities)\n";
  // Each part awaited alone, then appended (GCC 12: no temporaries inside co_await expressions).
  auto versions = section([&] { return versions_section(env); });
  const std::string versions_text = co_await std::move(versions);
  auto config = section([&] { return config_section(env); });
  const std::string config_text = co_await std::move(config);
  auto repairs = section([&] { return repairs_section(env); });
  const std::string repairs_text = co_await std::move(repairs);
  auto errors = section([&] { return errors_section(env); });
  const std::string errors_text = co_await std::move(errors);
  text += versions_text + "\n## Configuration check\n\n" + config_text + "\n## Repairs\n\n" + repairs_text +
          "\n## Recent Home Assistant errors\n\n" + errors_text;
  co_return ok(json::object{{"title", scrub_text(std::move(title))},
                            {"body", scrub_text(std::move(text))},
                            {"note", "review before filing: tokens, IPs, e-mails and hosts are replaced"}});
}

}  // namespace

ToolSpec make_report_issue_spec() {
  ToolSpec s;
  s.name = "ha_report_issue";
  s.title = "Issue report";
  s.description =
      "Issue report text ready to file: your title/description plus versions, config check, repairs and HA's recent "
      "errors, secrets scrubbed.";
  s.input_schema = R"J({"type":"object","properties":{"title":{"type":"string"},"description":{"type":"string"},
"report_type":{"enum":["runtime_bug","agent_behavior","feature_request"]}}})J";
  s.output_schema = R"J({"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}}})J";
  s.annotations = read_only();
  s.hidden_args = {"user_prompt", "user_comment", "tool_calls", "ai_model", "client_app", "tool_call_count", "fields"};
  s.run = run_report_issue;
  return s;
}

}  // namespace hamcp::tools
