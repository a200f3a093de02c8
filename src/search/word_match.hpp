#pragma once
// The vocabulary stage of a query (query_engine.cpp): one query word against
// the index's distinct tokens -- exact, prefix, synonym group, typo-tolerant
// fuzzy -- giving each matched token a credit (0-100).

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "search/index_store.hpp"

namespace hamcp::search {

constexpr float kSynonymCredit = 95.0f;  // "lamp" finding domain "light"
constexpr FieldMask kTypeFields = bit(Field::domain) | bit(Field::device_class);

// The best-weighted field of a field mask, and its weight.
struct MaskBest {
  float weight = 0;
  Field field = Field::object_id;
};

// Best-weighted field for every field mask: for words found as written
// (synonym = false), and for words found through a synonym group.
const std::vector<MaskBest>& mask_table(bool synonym);

struct TokenMatch {
  TokenId id;
  float credit;
  bool synonym;
};

class MatchSet {
 public:
  void add(TokenId id, float credit, bool synonym = false) {
    auto [it, inserted] = pos_.try_emplace(id, matches_.size());
    if (inserted) {
      matches_.push_back({id, credit, synonym});
    } else if (credit > matches_[it->second].credit) {
      matches_[it->second] = {id, credit, synonym};
    }
  }
  const std::vector<TokenMatch>& matches() const { return matches_; }

 private:
  std::vector<TokenMatch> matches_;
  std::unordered_map<TokenId, std::size_t> pos_;
};

// Adds the tokens of `word`'s synonym group with `credit`.
void add_synonyms(const IndexStore& store, std::u32string_view word, float credit, MatchSet& out);

// Vocabulary stage for one query word.
MatchSet match_word(const IndexStore& store, const std::u32string& q);

}  // namespace hamcp::search
