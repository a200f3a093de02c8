#include "tools/updates/hacs_ws.hpp"

#include "common/ascii.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::hacs {

namespace {

// "https://github.com/owner/name(.git)(/)" -> "owner/name" (lower case: GitHub names ignore case).
std::string full_name_of(std::string text) {
  text = ascii_lower(std::move(text));
  for (const char* prefix : {"https://github.com/", "http://github.com/", "github.com/"})
    if (text.rfind(prefix, 0) == 0) text = text.substr(std::string_view(prefix).size());
  while (!text.empty() && text.back() == '/') text.pop_back();
  if (text.size() > 4 && text.ends_with(".git")) text.resize(text.size() - 4);
  return text;
}

}  // namespace

boost::asio::awaitable<json::value> command(ToolEnv& env, json::object message,
                                            std::optional<std::chrono::milliseconds> timeout) {
  const std::string type(message.at("type").as_string());
  std::optional<ha::HaError> failure;
  try {
    auto sending = env.ha.command(std::move(message), timeout);
    json::value answer = co_await std::move(sending);
    co_return answer;
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::command_failed) throw;
    failure = e.error();
  }
  if (failure->ha_code == "unknown_command")
    throw ToolException("hacs_not_installed",
                        "HACS is not installed in this Home Assistant (it does not know " + type + ").",
                        "Install HACS (https://hacs.xyz/docs/use/download/download/), restart Home Assistant, add "
                        "the HACS integration under Settings > Devices & services, then call again.");
  ToolError error = from_ha_error(*failure);
  error.code = failure->ha_code == "repository_not_found" ? "repository_not_found" : "ha_refused";
  error.message = "HACS refused " + type + ": " + failure->detail;
  error.suggestion = "action=search lists the repositories and their ids.";
  throw ToolException(std::move(error));
}

boost::asio::awaitable<json::array> repositories(ToolEnv& env) {
  auto listing = command(env, json::object{{"type", "hacs/repositories/list"}});
  json::value listed = co_await std::move(listing);
  json::array out;
  if (json::array* a = listed.if_array()) out = std::move(*a);
  co_return out;
}

boost::asio::awaitable<std::string> repository_id(ToolEnv& env, std::string text, std::string field) {
  if (text.empty())
    throw ToolException(bad_argument(field, "missing", "Pass the repository's id or owner/name (action=search)."));
  auto listing = repositories(env);
  const json::array repos = co_await std::move(listing);
  const std::string full = full_name_of(text);
  for (const auto& r : repos) {
    const json::object* o = r.if_object();
    if (!o) continue;
    const json::value* id = o->if_contains("id");
    const json::value* name = o->if_contains("full_name");
    const std::string id_text = id && id->is_string()   ? std::string(id->get_string())
                                : id && id->is_number() ? json::serialize(*id)
                                                        : std::string();
    if (id_text == text) co_return id_text;
    if (name && name->is_string() && ascii_lower(std::string(name->get_string())) == full) co_return id_text;
  }
  throw ToolException(bad_argument(field, "HACS knows no repository '" + text + "'",
                                   "action=search query=... finds it; a repository outside the store needs "
                                   "action=add_repository first."));
}

boost::asio::awaitable<json::object> info(ToolEnv& env, std::string id) {
  auto reading = command(env, json::object{{"type", "hacs/repository/info"}, {"repository_id", id}}, kGithubTimeout);
  json::value answer = co_await std::move(reading);
  json::object out;
  if (json::object* o = answer.if_object()) out = std::move(*o);
  co_return out;
}

std::string category_name(std::string text) {
  text = ascii_lower(std::move(text));
  static const std::pair<const char*, const char*> kNames[] = {{"integration", "integration"},
                                                               {"plugin", "plugin"},
                                                               {"lovelace", "plugin"},
                                                               {"dashboard", "plugin"},
                                                               {"card", "plugin"},
                                                               {"frontend", "plugin"},
                                                               {"theme", "theme"},
                                                               {"appdaemon", "appdaemon"},
                                                               {"python_script", "python_script"},
                                                               {"template", "template"}};
  for (const auto& [from, to] : kNames)
    if (text == from) return to;
  return {};
}

}  // namespace hamcp::tools::hacs
