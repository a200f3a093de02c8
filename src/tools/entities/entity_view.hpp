#pragma once
// How entities appear in tool responses: one compact object per entity, the
// same shape in every tool (entity_id, name, state, unit, area, ...).

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "ha/snapshot.hpp"
#include "tools/response.hpp"

namespace hamcp::tools {

struct ViewOptions {
  bool attributes = false;                  // include the attributes object
  std::vector<std::string> attribute_keys;  // only these attributes (implies attributes)
  bool times = false;                       // last_changed / last_updated (ISO)
  bool place = true;                        // area (+ floor) name
};

// {entity_id, name, state, unit?, area?, floor?, attributes?, last_changed?, last_updated?}
// allocated from `storage` (a caller that returns the view alone can pass an
// arena that lives as long as the view: json::make_shared_resource).
json::object entity_view(const ha::Snapshot& snap, const ha::EntityState& state, const ViewOptions& options,
                         json::storage_ptr storage = {});

// Registry entry view for ha_get_entity / ha_set_entity (no internal ids that a
// model cannot use; names resolved next to ids).
json::object registry_view(const ha::Snapshot& snap, const json::object& entry);

// "2026-01-01T08:00:00+00:00" with whole seconds (shorter than HA's microseconds).
std::string iso_seconds(double epoch);
// The same text written into `out`, without an allocation (entity views write
// two per entity). Clamped to years 0001-9999 like common::format_iso_time; NaN is 0.
using IsoSecondsBuffer = std::array<char, 25>;
std::string_view write_iso_seconds(double epoch, IsoSecondsBuffer& out);

}  // namespace hamcp::tools
