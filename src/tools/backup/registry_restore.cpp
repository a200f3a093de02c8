// Restoring a registry edit (an area, floor, label, zone or device update made
// by ha_set_registry) from the journal: the fields as they were before the
// edit are sent back through ha_set_registry (one write, itself journaled); a
// field the edit added, absent before, is cleared. Creations and removals are
// not restorable this way (a removed item would come back under a new id).
#include <map>
#include <optional>
#include <vector>

#include "tools/backup/backup_tools.hpp"
#include "tools/registry/registry_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::backup {

namespace {

struct Field {
  const char* arg;  // ha_set_registry's argument
  const char* ha;   // the registry item's field
};

// The fields ha_set_registry can set per kind (its own table, as HA names them).
const std::map<std::string, std::vector<Field>, std::less<>>& registry_fields() {
  static const std::map<std::string, std::vector<Field>, std::less<>> kFields = {
      {"device",
       {{"name", "name_by_user"}, {"area_id", "area_id"}, {"labels", "labels"}, {"disabled_by", "disabled_by"}}},
      {"area",
       {{"name", "name"},
        {"floor_id", "floor_id"},
        {"aliases", "aliases"},
        {"icon", "icon"},
        {"picture", "picture"},
        {"labels", "labels"},
        {"temperature_entity_id", "temperature_entity_id"},
        {"humidity_entity_id", "humidity_entity_id"}}},
      {"floor", {{"name", "name"}, {"level", "level"}, {"aliases", "aliases"}, {"icon", "icon"}}},
      {"label", {{"name", "name"}, {"color", "color"}, {"icon", "icon"}, {"description", "description"}}},
      {"zone",
       {{"name", "name"},
        {"latitude", "latitude"},
        {"longitude", "longitude"},
        {"radius", "radius"},
        {"passive", "passive"},
        {"icon", "icon"}}},
  };
  return kFields;
}

// What clears a field the edit added: "" for text (ha_set_registry: "" clears), [] for lists.
std::optional<json::value> cleared(const json::value& now) {
  if (now.is_string()) return json::value("");
  if (now.is_array()) return json::value(json::array{});
  return std::nullopt;  // numbers and flags have no "unset"
}

}  // namespace

bool is_registry_restorable(std::string_view kind) { return registry_fields().count(kind) > 0; }

boost::asio::awaitable<mcp::ToolResult> restore_registry_edit(ToolEnv& env, const home::EditRecord& rec,
                                                              mcp::RequestContext& ctx) {
  if (rec.action != "update" || !rec.before.is_object())
    throw ToolException(ToolError{"not_restorable",
                                  "Edit " + rec.id + " " + (rec.action == "create" ? "created" : "removed") + " a " +
                                      rec.kind + "; only updates are restored. Nothing was changed.",
                                  rec.action == "create" ? "ha_remove_registry removes it."
                                                         : "action=view shows it; ha_set_registry creates it again.",
                                  {{"written", false}}});
  const json::object& before = rec.before.get_object();
  const json::object* after = rec.after.if_object();
  json::object args{{"kind", rec.kind}, {"id", rec.key}};
  for (const Field& f : registry_fields().find(rec.kind)->second) {
    if (const json::value* v = before.if_contains(f.ha)) {
      args[f.arg] = *v;
    } else if (const json::value* now = after ? after->if_contains(f.ha) : nullptr; now && !now->is_null()) {
      if (std::optional<json::value> clear = cleared(*now)) args[f.arg] = *clear;
    }
  }
  Args forwarded(args);
  ToolSpec set_registry = make_set_registry_spec();
  auto restoring = set_registry.run(forwarded, env, ctx);
  mcp::ToolResult result = co_await std::move(restoring);
  co_return result;
}

}  // namespace hamcp::tools::backup
