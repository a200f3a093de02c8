// ha_manage_app action=proxy (ha-mcp's `path` mode): one HTTP request into an
// add-on's own API, either at its hostname and port (from inside the hamcp
// add-on only) or through its ingress as HA's frontend does (from anywhere HA
// has a Supervisor): ingress when asked (ingress=true) or when the add-on has
// ingress and no mapped port. The answer is bounded (offset/limit in
// characters), JSON answers have secret-named fields masked, and the ingress
// session cookie is never shown.
#include <algorithm>
#include <boost/json/serialize.hpp>

#include "ha/supervisor_client.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/addons/manage_app_parts.hpp"
#include "tools/response.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::addons {
namespace {

std::string checked_path(const Args& args) {
  const std::string path = args.str("path");
  const bool bad = path.empty() || path[0] != '/' || path.size() > 2000 || path.find("..") != std::string::npos ||
                   path.find_first_of(" \t\r\n#") != std::string::npos;
  if (bad)
    throw ToolException(bad_argument("path", "must be a path on the add-on's API starting with / (no .., no spaces)",
                                     "E.g. path=\"/api/info\"."));
  return path;
}

std::string checked_method(const Args& args) {
  std::string method = args.str("method", "GET");
  std::transform(method.begin(), method.end(), method.begin(), [](unsigned char c) { return std::tolower(c); });
  if (method != "get" && method != "post" && method != "delete")
    throw ToolException(bad_argument("method", "must be GET, POST or DELETE", "Use method=\"GET\" to read."));
  return method;
}

std::uint16_t port_of(const Args& args, const json::object& info) {
  std::int64_t port = args.integer("port", 0);
  if (port == 0)
    if (const json::value* p = info.if_contains("ingress_port"); p && p->is_int64()) port = p->get_int64();
  if (port == 0)
    if (const json::value* n = info.if_contains("network"); n && n->is_object() && !n->get_object().empty())
      port = std::atoi(std::string(n->get_object().begin()->key()).c_str());
  if (port <= 0 || port > 65535)
    throw ToolException(bad_argument("port", "is needed: this add-on has no ingress port",
                                     "Pass the add-on's API port (ha_get_app slug=... lists its network ports)."));
  return static_cast<std::uint16_t>(port);
}

bool has_mapped_port(const json::object& info) {
  const json::value* n = info.if_contains("network");
  if (!n || !n->is_object()) return false;
  for (const auto& [container_port, host_port] : n->get_object())
    if (!host_port.is_null()) return true;
  return false;
}

// "" = the add-on's own port; else its ingress token (from ingress_entry "/api/hassio_ingress/<token>").
std::string ingress_token_of(const Args& args, const json::object& info) {
  const json::value* flag = info.if_contains("ingress");
  const bool has_ingress = flag && flag->is_bool() && flag->get_bool();
  const bool asked = args.has("ingress") && args.flag("ingress", false);
  const bool automatic = !args.has("ingress") && !args.has("port") && has_ingress && !has_mapped_port(info);
  if (!asked && !automatic) return {};
  if (!has_ingress)
    throw ToolException(bad_argument("ingress", "is not possible: this add-on has no ingress",
                                     "Leave ingress out and pass the add-on's API port (ha_get_app slug=...)."));
  const json::value* entry = info.if_contains("ingress_entry");
  const std::string prefix = "/api/hassio_ingress/";
  std::string token = entry && entry->is_string() ? std::string(entry->get_string()) : std::string();
  token = token.rfind(prefix, 0) == 0 ? token.substr(prefix.size()) : std::string();
  while (!token.empty() && token.back() == '/') token.pop_back();
  if (token.empty() || token.find('/') != std::string::npos)
    throw ToolException(ToolError{"addon_api_unreachable",
                                  "The Supervisor gave this add-on no ingress entry.",
                                  "Start the add-on (ingress is set up when it runs) and try again.",
                                  {}});
  return token;
}

constexpr std::size_t kMaxBodyBytes = std::size_t{256} * 1024;

json::value checked_body(const Args& args, const std::string& method) {
  json::value body = nullptr;
  if (const json::value* b = args.get("body")) body = *b;
  if (method == "post" && body.is_null()) body = json::object{};
  if (!body.is_null() && json::serialize(body).size() > kMaxBodyBytes)
    throw ToolException(bad_argument("body", "is larger than 256 KiB", "Send a smaller request body."));
  return body;
}

ToolError unreachable(std::string message) {
  return {"addon_api_unreachable",
          std::move(message),
          "Check that the add-on is started and the port is its API's (ha_get_app slug=...).",
          {}};
}

json::object answer_of(const Args& args, const ha::Response& r) {
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 20000), 1, 100000));
  json::object out{{"status", r.status}, {"content_type", r.content_type}, {"total_chars", r.body.size()}};
  const bool whole = offset == 0 && r.body.size() <= limit;
  boost::system::error_code ec;
  json::value parsed;
  if (whole && r.content_type.rfind("application/json", 0) == 0) parsed = json::parse(r.body, ec);
  if (whole && !ec && !parsed.is_null()) {
    out.emplace("json", masked(parsed));
  } else {
    out.emplace("body", offset < r.body.size() ? r.body.substr(offset, limit) : std::string());
    out.emplace("has_more", offset + limit < r.body.size());
  }
  return out;
}

}  // namespace

namespace {

// One request to the add-on through the way `token` chose; a failure becomes addon_api_unreachable.
boost::asio::awaitable<ha::Response> send(Args& args, ToolEnv& env, const std::string& slug, const json::object& info,
                                          const std::string& token) {
  const std::string path = checked_path(args);
  const std::string method = checked_method(args);
  json::value body = checked_body(args, method);
  const std::string host = info.contains("hostname") && info.at("hostname").is_string()
                               ? std::string(info.at("hostname").get_string())
                               : slug;
  const std::uint16_t port = token.empty() ? port_of(args, info) : 0;
  const std::string where = token.empty() ? host + ":" + std::to_string(port) : "ingress";
  std::optional<ToolError> failure;
  ha::Response r;
  try {
    if (token.empty()) {
      auto calling = env.ha.addon_http(slug, host, port, method, path, std::move(body));
      r = co_await std::move(calling);
    } else {
      auto calling = env.ha.addon_ingress(slug, token, method, path, std::move(body));
      r = co_await std::move(calling);
    }
  } catch (const ha::SupervisorException& e) {
    failure = unreachable(e.failure().message);
  } catch (const ha::HaException& e) {
    failure = unreachable("The add-on's API (" + where + ") did not answer: " + e.error().explanation());
  }
  if (failure) throw ToolException(*failure);
  co_return r;
}

}  // namespace

boost::asio::awaitable<mcp::ToolResult> proxy(Args& args, ToolEnv& env) {
  const std::string slug = checked_slug(args);
  checked_path(args);  // bad input is named before anything is asked of the Supervisor
  checked_method(args);
  auto reading = supervisor(env, "get", "/addons/" + slug + "/info");
  const json::value info_value = co_await std::move(reading);
  const json::object info = info_value.is_object() ? info_value.get_object() : json::object{};
  const std::string token = ingress_token_of(args, info);
  auto sending = send(args, env, slug, info, token);
  const ha::Response r = co_await std::move(sending);
  json::object body_out = answer_of(args, r);
  body_out.emplace("action", "proxy");
  body_out.emplace("slug", slug);
  body_out.emplace("via", token.empty() ? "port" : "ingress");
  if (!token.empty() && r.status == 401)
    body_out.emplace("next",
                     "The Supervisor refused the ingress session twice; ha_get_logs source=supervisor shows why.");
  co_return ok(std::move(body_out));
}

}  // namespace hamcp::tools::addons
