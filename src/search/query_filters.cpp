#include "search/query_filters.hpp"

namespace hamcp::search {

// The smallest posting list that every entity passing the filters must be on
// (a word of the filtered domain/label/device class, found in that
// field), or null when no filter narrows the scan.
const std::vector<Posting>* narrowest_filter_postings(const IndexStore& store, const Filters& f, FieldMask& field) {
  const std::vector<Posting>* best = nullptr;
  auto consider = [&](const std::optional<std::string>& key, Field fld) {
    if (!key) return;
    for (const auto& word : split_tokens(fold(*key))) {
      const Token* t = store.token(word);
      if (!t) {
        static const std::vector<Posting> kEmpty;
        best = &kEmpty;  // no entity has this word at all: nothing can pass
        field = bit(fld);
        return;
      }
      if (!best || t->postings.size() < best->size()) {
        best = &t->postings;
        field = bit(fld);
      }
    }
  };
  consider(f.domain, Field::domain);
  consider(f.device_class, Field::device_class);
  consider(f.label, Field::label);
  // Not area/floor: their filters also match ids, whose words need not occur
  // in the indexed names.
  return best;
}

Result list_by_filters(const IndexStore& store, const Query& q, const Filters& filters) {
  std::vector<const Entry*> matches;
  FieldMask field = 0;
  if (const auto* postings = narrowest_filter_postings(store, filters, field)) {
    for (const Posting& p : *postings)
      if ((p.fields & field) && filters.pass(store.entries()[p.slot()])) matches.push_back(&store.entries()[p.slot()]);
  } else {
    for (const auto& e : store.entries())
      if (filters.pass(e)) matches.push_back(&e);
  }
  Result r;
  r.total = matches.size();
  const std::size_t begin = std::min(q.offset, matches.size());
  const std::size_t end = begin + std::min(q.limit, matches.size() - begin);
  const auto& rank = store.id_ranks();
  const Entry* base = store.entries().data();
  auto by_id = [&](const Entry* a, const Entry* b) { return rank[a - base] < rank[b - base]; };
  std::partial_sort(matches.begin(), matches.begin() + static_cast<std::ptrdiff_t>(end), matches.end(), by_id);
  for (std::size_t i = begin; i < end; ++i)
    r.hits.push_back(Hit{std::string(matches[i]->doc.entity_id()), 0.0, "", ""});
  r.has_more = q.offset + r.hits.size() < r.total;
  return r;
}

}  // namespace hamcp::search
