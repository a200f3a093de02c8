#include "search/word_match.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "search/normalize.hpp"
#include "search/scorer.hpp"
#include "search/synonyms.hpp"

namespace hamcp::search {

namespace {

// How much a word found in each field counts towards a match.
constexpr std::array<float, kFieldCount> kFieldWeight = {
    1.00f,  // entity_id
    0.95f,  // object_id
    1.00f,  // friendly_name
    1.00f,  // registry_name
    0.95f,  // original_name
    1.00f,  // alias
    0.90f,  // area
    0.80f,  // floor
    0.90f,  // device
    0.70f,  // manufacturer
    0.70f,  // model
    0.85f,  // label
    0.90f,  // domain
    0.90f,  // device_class
};

// A synonym found in a name is weaker evidence than in the domain/device
// class: "thermostat" -> "climate" should find climate.* before sensors named
// "Office Climate Temperature".
constexpr float kSynonymInTextFactor = 0.85f;
constexpr float kFuzzyFactor = 0.95f;  // typo matches rank below exact ones
std::vector<MaskBest> make_mask_table(bool synonym) {
  std::vector<MaskBest> t(1u << kFieldCount);
  for (std::size_t m = 1; m < t.size(); ++m) {
    for (int f = 0; f < kFieldCount; ++f) {
      if (!((m >> f) & 1u)) continue;
      float w = kFieldWeight[f];
      if (synonym) w = (bit(static_cast<Field>(f)) & kTypeFields) ? 1.0f : w * kSynonymInTextFactor;
      if (w > t[m].weight) t[m] = {w, static_cast<Field>(f)};
    }
  }
  return t;
}

bool starts_with(std::u32string_view s, std::u32string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool contains_digit(std::u32string_view s) {
  return std::any_of(s.begin(), s.end(), [](char32_t c) { return c >= U'0' && c <= U'9'; });
}

}  // namespace

const std::vector<MaskBest>& mask_table(bool synonym) {
  static const std::vector<MaskBest> direct = make_mask_table(false);
  static const std::vector<MaskBest> via_synonym = make_mask_table(true);
  return synonym ? via_synonym : direct;
}

void add_synonyms(const IndexStore& store, std::u32string_view word, float credit, MatchSet& out) {
  for (const auto& alt : synonyms_of(word))
    if (const Token* t = store.token(alt)) out.add(static_cast<TokenId>(t - store.tokens().data()), credit, true);
}

MatchSet match_word(const IndexStore& store, const std::u32string& q) {
  MatchSet out;
  const auto& tokens = store.tokens();
  if (const Token* t = store.token(q)) out.add(static_cast<TokenId>(t - tokens.data()), 100.0f);
  const std::size_t lq = q.size();
  const bool fuzzy = lq >= 4 && !contains_digit(q);
  const double cutoff = lq <= 5 ? 80.0 : 75.0;

  // Synonym groups, tolerating a typo in the group word itself ("thermostt").
  if (!synonyms_of(q).empty()) {
    add_synonyms(store, q, kSynonymCredit, out);
  } else if (fuzzy) {
    TokenScorer scorer(q);
    double best = 0;
    const std::u32string* best_word = nullptr;
    for (const auto& w : all_synonym_words()) {
      double s = scorer.similarity(w, std::max(cutoff, best));
      if (s > best) {
        best = s;
        best_word = &w;
      }
    }
    if (best_word) {
      float credit = static_cast<float>(best) * kFuzzyFactor * (kSynonymCredit / 100.0f);
      if (const Token* t = store.token(*best_word)) out.add(static_cast<TokenId>(t - tokens.data()), credit, true);
      add_synonyms(store, *best_word, credit, out);
    }
  }

  std::optional<TokenScorer> scorer;
  if (fuzzy) scorer.emplace(q);
  const std::size_t window = 1 + lq / 4;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.postings.empty()) continue;
    const std::size_t lv = t.text.size();
    if (lq >= 2 && lv > lq && starts_with(t.text, q)) {
      // Prefix: "kitch" -> "kitchen"; the closer the lengths, the higher.
      out.add(static_cast<TokenId>(i), 100.0f * (0.75f + 0.2f * static_cast<float>(lq) / static_cast<float>(lv)));
      continue;
    }
    if (!scorer || t.has_digit || lv < 3 || (lv > lq ? lv - lq : lq - lv) > window || t.text == q) continue;
    double s = scorer->similarity(t.text, cutoff);
    if (s > 0) out.add(static_cast<TokenId>(i), static_cast<float>(s) * kFuzzyFactor);
  }
  return out;
}

}  // namespace hamcp::search
