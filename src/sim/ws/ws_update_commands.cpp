// update/release_notes (HA 2026.2, homeassistant/components/update): the
// entity's full release notes, "not_found" for an entity that is not an
// update entity, "not_supported" without the RELEASE_NOTES feature.
#include "sim/core/update_progress.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

void release_notes(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string entity_id = req_string(msg, "entity_id");
  if (entity_id.find('.') == std::string::npos)
    throw BadMessage{"Entity ID " + entity_id + " is an invalid entity ID for dictionary value @ data['entity_id']"};
  const StatePtr s = c.core().store().get(entity_id);
  if (!s || domain_of(entity_id) != "update") return c.send_error(id, "not_found", "Entity not found");
  const json::value* features = s->attributes.if_contains("supported_features");
  const std::int64_t bits = features && features->is_int64() ? features->get_int64() : 0;
  if (!(bits & kUpdateReleaseNotes)) return c.send_error(id, "not_supported", "Entity does not support release notes");
  const auto& notes = home(c).release_notes;
  const auto it = notes.find(entity_id);
  c.send_result(id, it == notes.end() ? json::value(nullptr) : json::value(it->second));
}

}  // namespace

void register_update_commands(ws_util::Table& t) { t["update/release_notes"] = release_notes; }

}  // namespace hamcp::sim
