#pragma once
// A query's filters (domain, area, floor, label, state, device class, hidden)
// and the filter-only listing used when a query has no text.

#include <optional>
#include <string>
#include <vector>

#include "search/index_store.hpp"
#include "search/normalize.hpp"
#include "search/types.hpp"

namespace hamcp::search {

struct Filters {
  std::optional<std::string> domain, area, floor, label, state, device_class;
  bool include_hidden = false;
  // The same keys as ids in the store's KeyPool (kAbsentKey: no entity has it).
  KeyId domain_id = kNoKey, area_id = kNoKey, floor_id = kNoKey, label_id = kNoKey, state_id = kNoKey,
        device_class_id = kNoKey;

  static std::optional<std::string> key(const std::optional<std::string>& v) {
    if (!v) return std::nullopt;
    std::string k = fold_key(*v);
    if (k.empty()) return std::nullopt;  // a blank filter filters nothing
    return k;
  }
  static KeyId id_of(const KeyPool& pool, const std::optional<std::string>& k) { return k ? pool.find(*k) : kNoKey; }

  Filters(const Query& q, const KeyPool& pool)
      : domain(key(q.domain)),
        area(key(q.area)),
        floor(key(q.floor)),
        label(key(q.label)),
        state(key(q.state)),
        device_class(key(q.device_class)),
        include_hidden(q.include_hidden),
        domain_id(id_of(pool, domain)),
        area_id(id_of(pool, area)),
        floor_id(id_of(pool, floor)),
        label_id(id_of(pool, label)),
        state_id(id_of(pool, state)),
        device_class_id(id_of(pool, device_class)) {}

  bool any_key() const { return domain || area || floor || label || state || device_class; }

  // The part of pass() answerable from the dense summary.
  bool pass_summary(const SlotSummary& s) const { return s.live && (include_hidden || !s.skipped_by_default); }

  bool pass(const Entry& e) const {
    if (!e.live) return false;
    if (!include_hidden && (e.doc.hidden() || e.doc.disabled())) return false;
    const FilterKeys& k = e.keys;
    if (domain && k.domain != domain_id) return false;
    if (state && k.state != state_id) return false;
    if (device_class && k.device_class != device_class_id) return false;
    if (area && !k.has_area(area_id)) return false;
    if (floor && !k.has_floor(floor_id)) return false;
    if (label && !k.has_label(label_id)) return false;
    return true;
  }
};

// The smallest posting list every entity passing the filters must be on, or
// null when no filter narrows the scan; `field` is the field it is found in.
const std::vector<Posting>* narrowest_filter_postings(const IndexStore& store, const Filters& f, FieldMask& field);

// Every entity passing the filters, in entity_id order, paged.
Result list_by_filters(const IndexStore& store, const Query& q, const Filters& filters);

}  // namespace hamcp::search
