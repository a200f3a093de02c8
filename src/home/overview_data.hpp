#pragma once
// What ha_get_overview reports, as data: entity counts, common states and the
// first entity ids per domain, and entities per area. Two ways to get it:
//  - summarize_from_scratch(): one walk over every state of a snapshot (the
//    reference; O(entities) per call);
//  - OverviewAggregates: the same numbers kept up to date from the mirror's
//    change sets, so a call costs O(domains + areas + listed entities) however
//    big the home is. Tests prove both give equal Summaries.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ha/snapshot.hpp"

namespace hamcp::home::overview {

struct Query {
  std::vector<std::string> domains;  // empty: all
  std::string area_id;               // empty: whole home (resolved id, not a name)
  bool list_entities = false;        // standard/full
  std::size_t per_domain = 10;       // first ids (by entity_id) per domain
  std::size_t max_listed = 0;        // cap on ids over all domains, in domain order (0: none)
};

struct DomainSummary {
  std::size_t count = 0;
  // Most common states first (ties by name), at most 5; only when the domain
  // has few distinct states (see show_states()).
  bool show_states = false;
  std::vector<std::pair<std::string, std::size_t>> top_states;
  std::vector<std::string> first_ids;  // sorted; list_entities only
  bool operator==(const DomainSummary&) const = default;
};

struct Summary {
  ha::SnapshotPtr snapshot;                                  // the snapshot these numbers describe
  std::map<std::string, DomainSummary> domains;              // by name
  std::unordered_map<std::string, std::size_t> area_counts;  // area_id -> entities with a state
  bool same_numbers(const Summary& o) const { return domains == o.domains && area_counts == o.area_counts; }
};

// Distinct states above which a histogram is dropped (numeric sensors have a
// value per entity), and the stricter cap for numeric domains.
inline constexpr std::size_t kMaxDistinctStates = 32;
inline constexpr std::size_t kMaxNumericStates = 5;
inline constexpr std::size_t kTopStates = 5;

std::string_view domain_of(std::string_view entity_id);

// entity_id -> area_id (own area, else the device's) and the reverse, from
// the entity and device registries of one snapshot.
struct AreaMap {
  ha::RegistryPtr entities, devices;  // held: identity check without pointer reuse
  std::unordered_map<std::string, std::string> area_of;
  // area_id -> its entity ids, sorted; pointers to area_of's keys (stable in an
  // unordered_map), so the reverse index costs no second copy of every id.
  std::unordered_map<std::string, std::vector<const std::string*>> members;
  static std::shared_ptr<const AreaMap> build(const ha::Snapshot& snap);
  bool matches(const ha::Snapshot& snap) const;
  std::string_view area(const std::string& entity_id) const;
};

Summary summarize_from_scratch(const ha::SnapshotPtr& snap, const Query& query);

// Not thread-safe: OverviewFeed serialises access.
class OverviewAggregates {
 public:
  void rebuild(const ha::SnapshotPtr& snap);
  // Applies one published change set. Falls back to rebuild() on a full
  // resync or when a version was missed.
  void apply(const ha::ChangeSet& changes, const ha::SnapshotPtr& snap);
  Summary summarize(const Query& query) const;
  const ha::SnapshotPtr& snapshot() const { return snap_; }
  bool built() const { return snap_ != nullptr; }
  std::size_t rebuilds() const { return rebuilds_; }

 private:
  struct Domain {
    std::size_t count = 0;
    std::unordered_map<std::string, std::size_t> states;  // exact histogram (no zero entries)
    std::vector<std::string> ids;                         // sorted
  };
  struct Membership {  // ids entering or leaving one domain's sorted list
    std::vector<std::string> added;
    std::unordered_set<std::string_view> removed;
  };
  using MembershipChanges = std::map<std::string_view, Membership>;
  void count_areas();
  // One entity's old contribution (from snap_) out, its new one in.
  void move_entity(std::string_view id, const ha::EntityStatePtr& before, const ha::EntityStatePtr& now,
                   bool areas_moved, MembershipChanges& membership);
  // Sorted id lists: one pass per touched domain, never one shift per id.
  void apply_membership(MembershipChanges& membership);

  ha::SnapshotPtr snap_;
  std::shared_ptr<const AreaMap> areas_;
  std::map<std::string, Domain, std::less<>> domains_;
  std::unordered_map<std::string, std::size_t> area_counts_;
  std::size_t rebuilds_ = 0;
};

}  // namespace hamcp::home::overview
