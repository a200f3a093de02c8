#pragma once
// A query's filters (domain, area, floor, label, state, device class, hidden)
// and the filter-only listing used when a query has no text.

#include <algorithm>
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

  static std::optional<std::string> key(const std::optional<std::string>& v) {
    if (!v) return std::nullopt;
    std::string k = fold_key(*v);
    if (k.empty()) return std::nullopt;  // a blank filter filters nothing
    return k;
  }

  explicit Filters(const Query& q)
      : domain(key(q.domain)),
        area(key(q.area)),
        floor(key(q.floor)),
        label(key(q.label)),
        state(key(q.state)),
        device_class(key(q.device_class)),
        include_hidden(q.include_hidden) {}

  static bool in(const std::vector<std::string>& keys, const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  }

  bool any_key() const { return domain || area || floor || label || state || device_class; }

  // The part of pass() answerable from the dense summary.
  bool pass_summary(const SlotSummary& s) const { return s.live && (include_hidden || !s.skipped_by_default); }

  bool pass(const Entry& e) const {
    if (!e.live) return false;
    if (!include_hidden && (e.doc.hidden() || e.doc.disabled())) return false;
    if (domain && e.domain_key != *domain) return false;
    if (state && e.state_key != *state) return false;
    if (device_class && e.device_class_key != *device_class) return false;
    if (area && !in(e.area_keys, *area)) return false;
    if (floor && !in(e.floor_keys, *floor)) return false;
    if (label && !in(e.label_keys, *label)) return false;
    return true;
  }
};

// The smallest posting list every entity passing the filters must be on, or
// null when no filter narrows the scan; `field` is the field it is found in.
const std::vector<Posting>* narrowest_filter_postings(const IndexStore& store, const Filters& f, FieldMask& field);

// Every entity passing the filters, in entity_id order, paged.
Result list_by_filters(const IndexStore& store, const Query& q, const Filters& filters);

}  // namespace hamcp::search
