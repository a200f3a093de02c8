#include "tools/addons/addons_tools.hpp"

#include "common/ascii.hpp"
#include "ha/supervisor_client.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

void register_addons_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_get_app_spec(), env));
  registry.add_tool(build_tool(make_manage_app_spec(), env));
}

namespace addons {
namespace {

ToolError supervisor_error(const ha::SupervisorFailure& f) {
  using Kind = ha::SupervisorFailure::Kind;
  switch (f.kind) {
    case Kind::unavailable:
      return {"supervisor_unavailable",
              f.message,
              "Nothing to retry: this Home Assistant has no add-ons. On HA Container/Core run such services as "
              "containers of their own.",
              {{"written", false}}};
    case Kind::forbidden:
      return {"supervisor_forbidden",
              "The Supervisor refused hamcp's token for this request" + (f.message.empty() ? "." : ": " + f.message),
              "Through Home Assistant the token must belong to an administrator; as an add-on hamcp needs "
              "hassio_api and the manager role.",
              {{"written", false}}};
    case Kind::refused:
      break;
  }
  json::object extra{{"supervisor_message", f.message}};
  if (f.status) extra.emplace("status", f.status);
  return {"supervisor_refused", "The Supervisor refused: " + (f.message.empty() ? "(no message)" : f.message),
          "Check the slug with ha_get_app and the arguments; the Supervisor's message says what it expects.",
          std::move(extra)};
}

const std::vector<std::string_view>& secret_words() {
  static const std::vector<std::string_view> words = {"password", "passwd",      "pass", "pwd",    "token",
                                                      "secret",   "key",         "keys", "apikey", "psk",
                                                      "pin",      "credentials", "auth"};
  return words;
}

}  // namespace

boost::asio::awaitable<json::value> supervisor(ToolEnv& env, std::string method, std::string path, json::object body) {
  std::optional<ha::SupervisorFailure> failure;
  try {
    auto calling = env.ha.supervisor(std::move(method), std::move(path), std::move(body));
    json::value data = co_await std::move(calling);
    co_return data;
  } catch (const ha::SupervisorException& e) {
    failure = e.failure();
  }
  throw ToolException(supervisor_error(*failure));
}

boost::asio::awaitable<std::vector<std::string>> supervisor_log_lines(ToolEnv& env, const std::string& source,
                                                                      const std::string& slug, int lines) {
  std::vector<std::string> out;
  if (source == "system_service" && slug.empty()) {
    auto listing = supervisor(env, "get", "/host/logs/identifiers");
    json::value ids = co_await std::move(listing);
    if (const json::object* o = ids.if_object(); o && o->contains("identifiers") && o->at("identifiers").is_array())
      for (const auto& id : o->at("identifiers").get_array())
        if (id.is_string()) out.push_back("identifier: " + std::string(id.get_string()));
    co_return out;
  }
  std::string path = "/supervisor/logs";
  if (source == "system_service") path = "/host/logs/identifiers/" + slug;
  if (source == "supervisor" && !slug.empty()) path = "/addons/" + slug + "/logs";
  std::optional<ha::SupervisorFailure> failure;
  std::string text;
  try {
    auto reading = env.ha.supervisor_log(path, lines);
    text = co_await std::move(reading);
  } catch (const ha::SupervisorException& e) {
    failure = e.failure();
  }
  if (failure) throw ToolException(supervisor_error(*failure));
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    if (nl > pos) out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  co_return out;
}

bool secret_key(std::string_view key) {
  const std::string lower = ascii_lower(key);
  std::size_t start = 0;
  while (start <= lower.size()) {
    std::size_t end = lower.find_first_of("_-. ", start);
    if (end == std::string::npos) end = lower.size();
    const std::string_view word = std::string_view(lower).substr(start, end - start);
    for (std::string_view secret : secret_words())
      if (word == secret) return true;
    start = end + 1;
  }
  return lower.find("password") != std::string::npos || lower.find("token") != std::string::npos ||
         lower.find("secret") != std::string::npos || lower.find("apikey") != std::string::npos;
}

json::value masked(const json::value& value) {
  if (const json::object* o = value.if_object()) {
    json::object out;
    for (const auto& [k, v] : *o) {
      const bool hide = secret_key(k) && !v.is_null() && !v.is_bool() && !(v.is_string() && v.get_string().empty());
      if (hide && !v.is_array() && !v.is_object())
        out[k] = kMask;
      else if (hide && v.is_array())
        out[k] = json::array(v.get_array().size(), json::value(kMask));
      else
        out[k] = masked(v);
    }
    return out;
  }
  if (const json::array* a = value.if_array()) {
    json::array out;
    for (const auto& v : *a) out.push_back(masked(v));
    return out;
  }
  return value;
}

namespace {
void collect_secrets(const json::value& value, bool secret, std::vector<std::string>& out) {
  if (const json::object* o = value.if_object()) {
    for (const auto& [k, v] : *o) collect_secrets(v, secret || secret_key(k), out);
  } else if (const json::array* a = value.if_array()) {
    for (const auto& v : *a) collect_secrets(v, secret, out);
  } else if (secret && value.is_string() && value.get_string().size() >= 3) {
    out.emplace_back(value.get_string());
  } else if (secret && value.is_number()) {
    out.push_back(json::serialize(value));
  }
}
}  // namespace

std::string scrub_secrets(std::string text, const json::value& options) {
  std::vector<std::string> secrets;
  collect_secrets(options, false, secrets);
  for (const std::string& s : secrets)
    for (auto pos = text.find(s); pos != std::string::npos; pos = text.find(s, pos + kMask.size()))
      text.replace(pos, s.size(), kMask);
  return text;
}

std::string checked_slug(const Args& args, std::string_view field) {
  const std::string slug = args.str(field);
  if (slug.empty())
    throw ToolException(bad_argument(field, "is required for this action", "List add-ons with ha_get_app."));
  if (slug.size() > 100 ||
      slug.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != std::string::npos)
    throw ToolException(bad_argument(field, "must be an add-on slug (letters, digits, _ and -), e.g. core_mosquitto",
                                     "List add-ons with ha_get_app."));
  return slug;
}

}  // namespace addons

}  // namespace hamcp::tools
