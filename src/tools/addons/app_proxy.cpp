// ha_manage_app action=proxy (ha-mcp's `path` mode): one HTTP request into an
// add-on's own API at its hostname and port (ingress port by default), from
// inside the hamcp add-on only; the answer is bounded (offset/limit in
// characters) and JSON answers have secret-named fields masked.
#include <algorithm>

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

boost::asio::awaitable<mcp::ToolResult> proxy(Args& args, ToolEnv& env) {
  const std::string slug = checked_slug(args);
  const std::string path = checked_path(args);
  const std::string method = checked_method(args);
  auto reading = supervisor(env, "get", "/addons/" + slug + "/info");
  const json::value info_value = co_await std::move(reading);
  const json::object info = info_value.is_object() ? info_value.get_object() : json::object{};
  const std::string host = info.contains("hostname") && info.at("hostname").is_string()
                               ? std::string(info.at("hostname").get_string())
                               : slug;
  const std::uint16_t port = port_of(args, info);
  json::value body = nullptr;
  if (const json::value* b = args.get("body")) body = *b;
  if (method == "post" && body.is_null()) body = json::object{};
  std::optional<ToolError> failure;
  ha::Response r;
  try {
    auto calling = env.ha.addon_http(slug, host, port, method, path, std::move(body));
    r = co_await std::move(calling);
  } catch (const ha::SupervisorException& e) {
    failure = unreachable(e.failure().message);
  } catch (const ha::HaException& e) {
    failure = unreachable("The add-on's API at " + host + ":" + std::to_string(port) +
                          " did not answer: " + e.error().explanation());
  }
  if (failure) throw ToolException(*failure);
  json::object body_out = answer_of(args, r);
  body_out.emplace("action", "proxy");
  body_out.emplace("slug", slug);
  co_return ok(std::move(body_out));
}

}  // namespace hamcp::tools::addons
