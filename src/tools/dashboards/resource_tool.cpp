// ha_manage_dashboard_resources: Lovelace resources (JS modules, CSS) —
// list, add or change one from a URL or inline content (sent as a data: URL,
// since Home Assistant stores only URLs), remove one (confirm=true). ha-mcp's
// three resource tools are its hidden aliases; without `action` the call's
// arguments say which (url/content: set, resource_id alone: remove, none: list).
#include <boost/beast/core/detail/base64.hpp>

#include "tools/confirmation.hpp"
#include "tools/dashboards/dashboard_tools.hpp"
#include "tools/dashboards/dashboard_ws.hpp"

namespace hamcp::tools::dashboards {

namespace {

constexpr std::size_t kMaxInlineBytes = std::size_t{256} * 1024;
constexpr std::size_t kShownUrlBytes = 120;

std::string action_of(const Args& args) {
  if (args.has("action")) return args.str("action");
  if (args.has("url") || args.has("content")) return "set";
  if (args.has("resource_id")) return "remove";
  return "list";
}

std::string data_url(const std::string& content, const std::string& type) {
  if (content.size() > kMaxInlineBytes)
    throw ToolException(bad_argument("content", "is over 256 KB", "Put the file under /config/www and pass url."));
  std::string encoded(boost::beast::detail::base64::encoded_size(content.size()), '\0');
  encoded.resize(boost::beast::detail::base64::encode(encoded.data(), content.data(), content.size()));
  return std::string(type == "css" ? "data:text/css" : "data:text/javascript") + ";base64," + encoded;
}

boost::asio::awaitable<json::array> resources(ToolEnv& env) {
  auto reading = ws_call(env, json::object{{"type", "lovelace/resources"}}, false, "list resources");
  json::value items = co_await std::move(reading);
  co_return items.is_array() ? items.get_array() : json::array();
}

boost::asio::awaitable<json::object> find_resource(ToolEnv& env, std::string id) {  // by value: a coroutine
  auto listing = resources(env);
  json::array items = co_await std::move(listing);
  json::array ids;
  for (auto& v : items) {
    if (!v.is_object()) continue;
    const json::value* rid = v.get_object().if_contains("id");
    if (rid && rid->is_string() && rid->get_string() == id) co_return v.get_object();
    if (rid) ids.push_back(*rid);
  }
  throw ToolException(ToolError{"resource_not_found",
                                "There is no resource with id '" + id + "'.",
                                "List them with action=list.",
                                {{"resource_ids", std::move(ids)}}});
}

json::object shown(json::object item, bool full) {
  const json::value* url = item.if_contains("url");
  if (!full && url && url->is_string() && url->get_string().size() > kShownUrlBytes)
    item["url"] = std::string(url->get_string().subview(0, kShownUrlBytes)) + "…";
  return item;
}

boost::asio::awaitable<json::object> list(const Args& args, ToolEnv& env) {
  auto listing = resources(env);
  json::array items = co_await std::move(listing);
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(0, args.integer("offset", 0)));
  const auto limit = static_cast<std::size_t>(std::max<std::int64_t>(1, args.integer("limit", 100)));
  json::array out;
  for (std::size_t i = offset; i < items.size() && out.size() < limit; ++i)
    if (items[i].is_object()) out.emplace_back(shown(items[i].get_object(), args.flag("include_content", false)));
  co_return json::object{{"resources", std::move(out)}, {"total", items.size()}};
}

boost::asio::awaitable<json::object> set(const Args& args, ToolEnv& env) {
  const std::string type = args.str("resource_type", "module");
  json::object msg{{"res_type", type}};
  if (args.has("content"))
    msg["url"] = data_url(args.str("content"), type);
  else if (args.has("url"))
    msg["url"] = args.str("url");
  json::object body;
  json::value before = nullptr;
  if (args.has("resource_id")) {
    auto finding = find_resource(env, args.str("resource_id"));
    json::object found = co_await std::move(finding);  // named: GCC 12 coroutine conversions
    before = std::move(found);
    msg["type"] = "lovelace/resources/update";
    msg["resource_id"] = args.str("resource_id");
    if (!args.has("resource_type")) msg.erase("res_type");
  } else {
    if (!msg.contains("url"))
      throw ToolException(bad_argument("url", "a new resource needs url or content", "Pass url: /local/card.js."));
    msg["type"] = "lovelace/resources/create";
  }
  auto writing = ws_call(env, std::move(msg), true, "write the resource");
  json::value item = co_await std::move(writing);
  body["result"] = before.is_null() ? "created" : "updated";
  body["resource"] = shown(item.is_object() ? item.get_object() : json::object(), false);
  const json::value* id = item.is_object() ? item.get_object().if_contains("id") : nullptr;
  journal(env, body, "resource", id && id->is_string() ? std::string(id->get_string()) : args.str("resource_id"),
          before.is_null() ? "create" : "update", before, item);
  co_return body;
}

boost::asio::awaitable<json::object> remove(const Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  if (!args.has("resource_id"))
    throw ToolException(bad_argument("resource_id", "remove needs resource_id", "List them with action=list."));
  const std::string id = args.str("resource_id");
  auto finding = find_resource(env, id);
  const json::object item = co_await std::move(finding);
  json::object body{{"resource", shown(item, false)}};
  auto asking = confirm_or_preview_body(
      args, env, ctx,
      Preview{"remove", json::string(id), json::object{{"removes_resource", body.at("resource")}}, {}, body});
  std::optional<json::object> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  auto deleting = ws_call(env, json::object{{"type", "lovelace/resources/delete"}, {"resource_id", id}}, true,
                          "remove the resource");
  co_await std::move(deleting);
  body["result"] = "removed";
  journal(env, body, "resource", id, "remove", item, nullptr);
  co_return body;
}

boost::asio::awaitable<mcp::ToolResult> run_resources(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string action = action_of(args);
  json::object body;
  if (action == "list") {
    auto listing = list(args, env);
    body = co_await std::move(listing);
  } else if (action == "set") {
    auto setting = set(args, env);
    body = co_await std::move(setting);
  } else {
    auto removing = remove(args, env, ctx);
    body = co_await std::move(removing);
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_resources_spec() {
  ToolSpec s;
  s.name = "ha_manage_dashboard_resources";
  s.title = "Dashboard resources";
  s.description =
      "Lovelace resources (custom cards' JS/CSS). list; set: add from url or inline content, or change resource_id; "
      "remove: needs confirm=true. Journaled.";
  s.input_schema = R"J({"type":"object","properties":{"action":{"type":"string","enum":["list","set","remove"]},
"resource_id":{"type":"string"},"url":{"type":"string"},"content":{"type":"string"},
"resource_type":{"type":"string","enum":["module","js","css"]},"confirm":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.aliases = {"ha_config_list_dashboard_resources", "ha_config_set_dashboard_resource",
               "ha_config_delete_dashboard_resource"};
  s.hidden_args = {"include_content", "limit", "offset"};
  s.run = run_resources;
  return s;
}

}  // namespace hamcp::tools::dashboards
