#pragma once
// Entity visibility (--entities-allow / --entities-deny / --entities-exposed-only):
// which of Home Assistant's entities the model may see and act on. A rule is
// an entity-id glob ("light.*", "sensor.*_secret"), a domain ("lock" or
// "domain:lock"), an area ("area:garage", id or name) or a label
// ("label:private", id or name). An entity is hidden when an allow list is
// given and it matches none of it, when it matches a deny rule, or (exposed
// only) when it is not exposed to Assist (HA's homeassistant/expose_entity/list,
// assistant "conversation").
//
// Only entities Home Assistant knows (states and the entity registry) are
// hidden: "light.turn_on" or "states.light" are never taken for one. The
// hidden set is worked out from the mirror's snapshot when a tool needs it,
// and kept (the same HiddenSetPtr) until what it depends on changes: the
// registries, the exposure, or which entities have a state. A state change of
// an existing entity keeps it, so what is derived per hidden set
// (overview_hidden.hpp) is kept as well.
//
// It is enforced at two choke points, like read-only mode: the gate (ha_gate)
// refuses any request naming a hidden entity or targeting an area, device,
// label or floor holding one; the egress of every tool (tool_spec.cpp) removes
// hidden entities from results (entity_filter.hpp).

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ha/snapshot.hpp"

namespace hamcp::tools {

struct VisibilityRules {
  std::vector<std::string> allow;  // --entities-allow, ENTITIES_ALLOW: only these (empty: all)
  std::vector<std::string> deny;   // --entities-deny, ENTITIES_DENY
  bool exposed_only = false;       // --entities-exposed-only, ENTITIES_EXPOSED_ONLY
  bool empty() const { return allow.empty() && deny.empty() && !exposed_only; }
};

// Throws std::invalid_argument naming a rule that cannot mean anything.
void validate_rules(const VisibilityRules& rules);

// The hidden entities of one snapshot, and the scopes holding them.
class HiddenSet {
 public:
  bool empty() const { return ids_.empty(); }
  std::size_t size() const { return ids_.size(); }
  bool contains(std::string_view entity_id) const { return ids_.count(std::string(entity_id)) > 0; }
  const std::unordered_set<std::string>& ids() const { return ids_; }
  // "area:<id>", "device:<id>", "label:<id>", "floor:<id>" holding a hidden entity.
  bool scope_holds_hidden(std::string_view kind, std::string_view id) const;
  // The first hidden entity id named in a text, as a whole word (a template,
  // a YAML text, a log line); nullopt when none is.
  std::optional<std::string> first_in(std::string_view text) const;
  // Replaces every hidden entity id in a text by kHiddenMark; true when one was.
  bool mask_in(std::string& text) const;
  bool operator==(const HiddenSet&) const = default;

 private:
  friend class Visibility;
  std::unordered_set<std::string> ids_;
  std::unordered_set<std::string> scopes_;
};
using HiddenSetPtr = std::shared_ptr<const HiddenSet>;

inline constexpr std::string_view kHiddenMark = "**HIDDEN**";

class Visibility {
 public:
  explicit Visibility(VisibilityRules rules);

  bool active() const { return !rules_.empty(); }
  const VisibilityRules& rules() const { return rules_; }

  // The hidden set for this snapshot (null snapshot: nothing known, nothing hidden
  // unless exposed-only found no exposure). Kept while the registries, the
  // exposure and the set of entity ids stay the same.
  HiddenSetPtr hidden(const ha::SnapshotPtr& snapshot);

  // Exposure to Assist (exposed-only): when it should be read again.
  bool exposure_stale() const;
  // From homeassistant/expose_entity/list's result; nullopt: it could not be read
  // (then every entity counts as not exposed: fail closed).
  void set_exposure(std::optional<std::unordered_set<std::string>> exposed);
  // A write may have changed exposure: read it again before the next call.
  void invalidate_exposure();

 private:
  HiddenSetPtr compute(const ha::Snapshot& snapshot) const;
  // Whether cached_ still holds for this snapshot (mutex_ held).
  bool cache_holds(const ha::Snapshot& snapshot) const;

  VisibilityRules rules_;
  mutable std::mutex mutex_;
  std::unordered_set<std::string> exposed_;  // guarded by mutex_
  std::uint64_t exposure_generation_ = 0;
  std::optional<std::chrono::steady_clock::time_point> exposure_read_;
  HiddenSetPtr cached_;
  std::uint64_t cached_generation_ = 0;
  std::array<ha::RegistryPtr, ha::kRegistryKinds> cached_registries_;  // held: no address reuse
  ha::StateTable cached_states_;                                       // the states cached_ was last checked against
};

}  // namespace hamcp::tools
