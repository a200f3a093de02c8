#include "tools/gate/audit_line.hpp"

#include <array>
#include <boost/json.hpp>
#include <functional>
#include <string>

#include "tools/confirmation.hpp"

namespace hamcp::tools {
namespace json = boost::json;

namespace {

// Argument names that say what a call acts on, across the families (hamcp's
// and ha-mcp's spellings).
constexpr std::array<std::string_view, 34> kTargetKeys = {
    "entity_id",     "entity_ids",  "target",      "kind",      "action",     "mode",     "scope",
    "domain",        "service",     "helper_type", "id",        "key",        "item",     "uid",
    "slug",          "entry_id",    "subentry_id", "device_id", "area_id",    "floor_id", "label_id",
    "zone_id",       "category_id", "url_path",    "dashboard", "view",       "path",     "backup_id",
    "repository_id", "pipeline_id", "restore",     "edit_id",   "event_type", "confirm"};

constexpr std::size_t kMaxText = 120;
constexpr std::size_t kMaxItems = 10;

json::value shortened(const json::value& v) {
  if (const json::string* s = v.if_string()) {
    if (s->size() <= kMaxText) return v;
    return json::string(std::string(std::string_view(*s).substr(0, kMaxText)) + "...");
  }
  if (const json::array* a = v.if_array()) {
    json::array out;
    for (std::size_t i = 0; i < a->size() && i < kMaxItems; ++i) out.push_back(shortened((*a)[i]));
    if (a->size() > kMaxItems) out.push_back(json::string("(+" + std::to_string(a->size() - kMaxItems) + " more)"));
    return out;
  }
  if (v.is_object()) return "(object)";  // a config body: its journal entry holds it
  return v;
}

std::string_view text_member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view{};
}

}  // namespace

json::object audit_target(const json::object& arguments) {
  json::object target;
  for (std::string_view key : kTargetKeys)
    if (const json::value* v = arguments.if_contains(key)) target[key] = shortened(*v);
  return target;
}

json::object audit_line(std::string_view tool, json::object target, const mcp::ToolResult& result,
                        const mcp::RequestContext& ctx, double ms) {
  json::object line;
  const mcp::SessionInfo& session = ctx.session();
  line["client"] = text_member(session.client_info, "name");
  // Tells sessions apart without storing any part of the id (a credential over HTTP).
  if (!ctx.session_id().empty())
    line["session"] = std::to_string(std::hash<std::string_view>{}(ctx.session_id()) % 1000000);
  line["read_only"] = session.read_only;
  line["tool"] = tool;
  line["target"] = std::move(target);
  const json::object* body = result.structured_content ? &*result.structured_content : nullptr;
  const json::value* error = body ? body->if_contains("error") : nullptr;
  if (error && error->is_object()) {
    const std::string_view code = text_member(error->as_object(), "code");
    line["outcome"] = code == "read_only" ? "refused" : "error";
    line["error"] = code;
  } else if (result.is_error) {
    line["outcome"] = "error";
  } else {
    line["outcome"] = body && is_preview_body(*body) ? "preview" : "ok";
  }
  if (body && !text_member(*body, "edit_id").empty()) line["edit_id"] = text_member(*body, "edit_id");
  line["ms"] = static_cast<std::int64_t>(ms);
  return line;
}

}  // namespace hamcp::tools
