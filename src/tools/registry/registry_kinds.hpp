#pragma once
// What the registry tools share: the kinds (device, area, floor, label,
// category, zone, exposure) as one table (mirror registry, key field, HA's
// WebSocket command prefix and id parameter), the items of a kind (from the
// live mirror where it keeps that registry, else one WebSocket list), lookup
// by id or name, and a write sent once whose refusal says nothing was written.

#include <boost/asio/awaitable.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools::registry {

enum class Kind { device, area, floor, label, category, zone, exposure };

struct KindInfo {
  Kind kind;
  std::string_view name;                   // "area"
  std::optional<ha::RegistryKind> mirror;  // the mirror's registry; none: zone, exposure
  std::string_view key;                    // the item's id field: "area_id", "id" (device, zone)
  std::string_view prefix;                 // "config/area_registry", "zone"
  std::string_view id_param;               // the id in update/delete messages: "area_id", "zone_id"
};

const KindInfo& info(Kind kind);
// `kind` from the arguments; bad_argument naming the allowed kinds otherwise.
// `allowed` empty: every kind.
Kind kind_of(const Args& args, const std::vector<Kind>& allowed = {});

// The item's display name (a device: name_by_user, else name).
std::string name_of_item(const json::object& item, Kind kind);
std::string key_of(const json::object& item, Kind kind);

// Every item of `kind` (not exposure). category: only `scope` when given
// (each item carries its scope).
boost::asio::awaitable<std::vector<json::object>> list_items(ToolEnv& env, const ha::Snapshot& snap, Kind kind,
                                                             std::string scope);

// By id, then by name (case-insensitive); nullptr when none.
const json::object* find_item(const std::vector<json::object>& items, Kind kind, std::string_view ref);
// "<kind>_not_found" naming ref, with up to 10 known names and ids.
ToolError not_found(Kind kind, std::string_view ref, const std::vector<json::object>& items);

// One WebSocket write, sent once. A refusal: HA's message, "written": false;
// no answer: "write_outcome_unknown".
boost::asio::awaitable<json::value> write(ToolEnv& env, json::object message);

// Waits (bounded by default_wait) until the mirror's `kind` registry has the
// item `key` with these member values (`gone`: no such item). No-op for kinds
// the mirror does not keep. {"done", "waited_ms"} or an empty object.
boost::asio::awaitable<json::object> wait_mirror(ToolEnv& env, Kind kind, std::string key, const json::object& expect,
                                                 bool gone);

}  // namespace hamcp::tools::registry
