// Query execution. Two stages keep the expensive scorer off most documents:
//  1. Vocabulary stage: each query word is compared with the distinct index
//     tokens (exact, prefix, synonym, typo-tolerant fuzzy), not with documents.
//     The matched tokens' posting lists give the candidate entities and, per
//     query word, the best credit each candidate earns and in which field.
//  2. Candidate stage: coverage (mean credit over the query words) plus a
//     whole-phrase similarity of the query against the entity's names. The
//     phrase scorer only runs for candidates whose length-based upper bound can
//     still reach the requested page (offset + limit).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "search/index_store.hpp"
#include "search/normalize.hpp"
#include "search/query_filters.hpp"
#include "search/scorer.hpp"
#include "search/synonyms.hpp"
#include "search/word_match.hpp"

namespace hamcp::search {

const char* field_name(Field f) {
  switch (f) {
    case Field::entity_id:
      return "entity_id";
    case Field::object_id:
      return "object_id";
    case Field::friendly_name:
      return "friendly_name";
    case Field::registry_name:
      return "registry_name";
    case Field::original_name:
      return "original_name";
    case Field::alias:
      return "alias";
    case Field::area:
      return "area";
    case Field::floor:
      return "floor";
    case Field::device:
      return "device";
    case Field::manufacturer:
      return "manufacturer";
    case Field::model:
      return "model";
    case Field::label:
      return "label";
    case Field::domain:
      return "domain";
    case Field::device_class:
      return "device_class";
  }
  return "";
}

namespace {

// Added when a query word names the entity's type (domain or device class):
// "lock" ranks lock.front_door_lock above binary_sensor.front_door_lock_door.
constexpr float kTypeBonus = 3.0f;
constexpr float kCoverageWeight = 0.68f;  // coverage + phrase + type bonus sum to at most 100
constexpr float kPhraseWeight = 0.29f;
constexpr double kNonExactScale = 0.99;  // 100 is reserved for an exact entity_id
constexpr std::size_t kMaxQueryWords = 12;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

double round2(double x) { return std::round(x * 100.0) / 100.0; }

double final_score(double coverage, double phrase, double bonus) {
  return kNonExactScale * std::min(100.0, kCoverageWeight * coverage + kPhraseWeight * phrase + bonus);
}

// Original text of one field value, for Hit::matched_text.
std::string field_text(const EntityDoc& doc, Field f, std::uint8_t value) {
  std::string out;
  bool found = false;
  for_each_field_text(doc, [&](Field g, std::uint8_t v, std::string_view text) {
    if (!found && g == f && v == value) {
      out = std::string(text);
      found = true;
    }
  });
  if (f == Field::entity_id) return doc.entity_id;
  return out;
}

// The value of field f that contains token text (for multi-valued fields).
std::string field_text_with_token(const EntityDoc& doc, Field f, std::u32string_view token) {
  std::string first;
  std::string hit;
  for_each_field_text(doc, [&](Field g, std::uint8_t, std::string_view text) {
    if (g != f || !hit.empty()) return;
    if (first.empty()) first = std::string(text);
    std::u32string folded = fold(text);
    std::u32string joined;
    for (char32_t c : folded)
      if (c != U' ') joined.push_back(c);
    if (folded.find(token) != std::u32string::npos || joined.find(token) != std::u32string::npos)
      hit = std::string(text);
  });
  return hit.empty() ? first : hit;
}

struct Candidate {
  Slot slot;
  float coverage;
  double bonus;  // kTypeBonus when a query word named the entity's type
  double upper;  // upper bound of the final score
  bool exact_id;
};

struct Ranked {
  double score;
  std::uint32_t cand;  // index into the candidate arrays
  int phrase = -1;     // index of the best phrase in the entry, -1 none
  double phrase_score = 0;
};

std::string trim_lower_ascii(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  std::string out(s.substr(b, e - b));
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  return out;
}

// One text query's working state. A candidate is an entity some query word
// touched; per candidate and word it keeps the best credit and where it came
// from (token, field). Stages: credit the words, bound each candidate's score,
// score the most promising ones exactly until no other can enter the page,
// then name the matched field of each hit.
class QueryRun {
 public:
  QueryRun(const IndexStore& store, const Query& q, const Filters& filters, const std::string& raw)
      : store_(store), q_(q), filters_(filters), entries_(store.entries()), tokens_(store.tokens()) {
    words_ = tokenize(q.text);
    if (std::any_of(words_.begin(), words_.end(), [](const auto& w) { return !is_stopword(w); }))
      words_.erase(std::remove_if(words_.begin(), words_.end(), [](const auto& w) { return is_stopword(w); }),
                   words_.end());
    if (words_.size() > kMaxQueryWords) words_.resize(kMaxQueryWords);
    n_ = words_.size();
    for (const auto& w : words_) {
      if (!phrase_query_.empty()) phrase_query_.push_back(U' ');
      phrase_query_ += w;
    }
    cand_of_slot_.assign(entries_.size(), kNone);
    // An exact entity_id always ranks first (if it passes the filters).
    if (auto slot = store.slot_of(raw); slot && filters.pass(entries_[*slot])) exact_ = *slot;
  }

  Result run() {
    credit_words();
    if (exact_ != kNone && n_ > 0) candidate(exact_);
    cands_ = bounded_candidates();
    std::vector<Ranked> top = top_k();
    Result result;
    result.total = cands_.size();
    for (std::size_t i = q_.offset; i < top.size(); ++i) result.hits.push_back(hit_of(top[i]));
    result.has_more = q_.offset + result.hits.size() < result.total;
    return result;
  }

 private:
  std::uint32_t candidate(Slot s) {
    std::uint32_t& c = cand_of_slot_[s];
    if (c == kNone) {
      c = static_cast<std::uint32_t>(cand_slot_.size());
      cand_slot_.push_back(s);
      best_.resize(best_.size() + n_, 0.0f);
      best_token_.resize(best_token_.size() + n_, 0);
      best_field_.resize(best_field_.size() + n_, Field::object_id);
      type_hit_.push_back(0);
    }
    return c;
  }

  void credit(std::size_t word, const MatchSet& set) {
    for (const TokenMatch& m : set.matches()) {
      const auto& masks = mask_table(m.synonym);
      for (const Posting& p : tokens_[m.id].postings) {
        const MaskBest& mb = masks[p.fields];
        const float v = m.credit * mb.weight;
        const std::uint32_t c = candidate(p.slot());
        if (p.fields & kTypeFields) type_hit_[c] = 1;
        const std::size_t k = static_cast<std::size_t>(c) * n_ + word;
        if (v > best_[k]) {
          best_[k] = v;
          best_token_[k] = m.id;
          best_field_[k] = mb.field;
        }
      }
    }
  }

  void credit_words() {
    for (std::size_t i = 0; i < n_; ++i) credit(i, match_word(store_, words_[i]));
    // Neighbouring words written as one ("bed light" vs "bedlight", "living
    // room" vs the synonym group of "livingroom") credit both words.
    for (std::size_t i = 0; i + 1 < n_; ++i) {
      std::u32string joined = words_[i] + words_[i + 1];
      MatchSet set;
      if (const Token* t = store_.token(joined)) set.add(static_cast<TokenId>(t - tokens_.data()), 100.0f);
      add_synonyms(store_, joined, kSynonymCredit, set);
      credit(i, set);
      credit(i + 1, set);
    }
  }

  // The best any phrase of the entity could score against the query, from the
  // slot summary when it holds every phrase (only query characters of classes
  // a phrase contains can be common), else from the phrases' lengths.
  double phrase_upper_bound(Slot slot, const std::array<std::size_t, 29>& query_class_count,
                            std::uint32_t query_classes) const {
    const SlotSummary& summary = store_.summaries()[slot];
    double bound = 0;
    if (summary.phrase_count <= SlotSummary::kMaxPhrases) {
      for (std::size_t p = 0; p < summary.phrase_count; ++p) {
        std::size_t shared = 0;
        for (std::uint32_t m = summary.phrase_chars[p] & query_classes; m; m &= m - 1)
          shared += query_class_count[static_cast<std::size_t>(std::countr_zero(m))];
        bound = std::max(bound, summary.phrase_weight(p) *
                                    PhraseScorer::upper_bound(phrase_query_.size(), summary.phrase_len[p], shared));
      }
    } else {
      entries_[slot].phrases.for_each([&](const PhraseView& p) {
        bound = std::max(bound, p.weight * PhraseScorer::upper_bound(phrase_query_.size(), p.size()));
      });
    }
    return bound;
  }

  // Candidates that cover enough query words and pass the filters, with an
  // upper bound of their final score for pruning.
  std::vector<Candidate> bounded_candidates() const {
    const std::size_t need = (n_ + 1) / 2;
    std::array<std::size_t, 29> query_class_count{};
    for (char32_t ch : phrase_query_) ++query_class_count[static_cast<std::size_t>(char_class(ch))];
    const std::uint32_t query_classes = char_class_mask(phrase_query_);
    const bool check_keys = filters_.any_key();
    std::vector<Candidate> cands;
    for (std::uint32_t c = 0; c < cand_slot_.size(); ++c) {
      const Slot slot = cand_slot_[c];
      const bool is_exact = exact_ == slot;
      std::size_t matched = 0;
      float sum = 0;
      for (std::size_t i = 0; i < n_; ++i) {
        const float v = best_[static_cast<std::size_t>(c) * n_ + i];
        if (v > 0) ++matched;
        sum += v;
      }
      if (!is_exact && (matched < need || n_ == 0)) continue;
      if (!filters_.pass_summary(store_.summaries()[slot])) continue;
      if (check_keys && !filters_.pass(entries_[slot])) continue;
      const float coverage = n_ ? sum / static_cast<float>(n_) : 0.0f;
      const double phrase_ub = phrase_upper_bound(slot, query_class_count, query_classes);
      const double bonus = type_hit_[c] ? kTypeBonus : 0.0;
      const double upper = is_exact ? 100.0 : final_score(coverage, phrase_ub, bonus);
      cands.push_back({slot, coverage, bonus, round2(upper), is_exact});
    }
    return cands;
  }

  // The exact score of one candidate: its best phrase, most promising phrases
  // first (by length bound) so the rest are skipped once their bound cannot
  // beat the best so far.
  Ranked score(std::uint32_t ci, PhraseScorer& phrase, std::vector<std::pair<double, std::size_t>>& order,
               std::vector<PhraseView>& views) const {
    const Candidate& c = cands_[ci];
    Ranked r{0, ci};
    if (c.exact_id) {
      r.score = 100.0;
      return r;
    }
    views.clear();
    entries_[c.slot].phrases.for_each([&views](const PhraseView& p) { views.push_back(p); });
    order.clear();
    for (std::size_t p = 0; p < views.size(); ++p)
      order.emplace_back(views[p].weight * PhraseScorer::upper_bound(phrase_query_.size(), views[p].size()), p);
    std::sort(order.begin(), order.end(), std::greater<>());
    for (const auto& [bound, p] : order) {
      const PhraseView& ph = views[p];
      if (bound <= r.phrase_score) break;
      const double cutoff = r.phrase_score / ph.weight;
      const double s =
          ph.weight * (ph.ascii.empty() ? phrase.similarity(ph.wide, cutoff) : phrase.similarity(ph.ascii, cutoff));
      if (s > r.phrase_score) {
        r.phrase_score = s;
        r.phrase = static_cast<int>(p);
      }
    }
    r.score = round2(final_score(c.coverage, r.phrase_score, c.bonus));
    return r;
  }

  bool better(const Ranked& a, const Ranked& b) const {
    if (a.score != b.score) return a.score > b.score;
    return store_.id_ranks()[cands_[a.cand].slot] < store_.id_ranks()[cands_[b.cand].slot];
  }

  // The first offset+limit candidates by score (ties: entity_id), sorted.
  std::vector<Ranked> top_k() const {
    const std::size_t k =
        q_.limit > std::numeric_limits<std::size_t>::max() - q_.offset ? cands_.size() : q_.offset + q_.limit;
    const auto& rank = store_.id_ranks();
    auto better = [this](const Ranked& a, const Ranked& b) { return this->better(a, b); };
    std::vector<Ranked> top;  // heap: front is the worst of the kept ones
    if (k == 0) return top;
    std::vector<std::uint32_t> order(cands_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    // Upper bound desc, then entity_id asc: a candidate whose bound only ties
    // the current k-th score cannot win the tie either, so the scan can stop
    // (broad queries such as "battery" produce thousands of exact ties).
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (cands_[a].upper != cands_[b].upper) return cands_[a].upper > cands_[b].upper;
      return rank[cands_[a].slot] < rank[cands_[b].slot];
    });
    PhraseScorer phrase(phrase_query_);
    std::vector<std::pair<double, std::size_t>> phrase_order;
    std::vector<PhraseView> phrase_views;
    for (std::uint32_t ci : order) {
      const Candidate& c = cands_[ci];
      if (top.size() == k) {  // nothing later can enter the page
        const Ranked& worst = top.front();
        if (c.upper < worst.score || (c.upper == worst.score && rank[c.slot] > rank[cands_[worst.cand].slot])) break;
      }
      const Ranked r = score(ci, phrase, phrase_order, phrase_views);
      if (top.size() < k) {
        top.push_back(r);
        std::push_heap(top.begin(), top.end(), better);
      } else if (better(r, top.front())) {
        std::pop_heap(top.begin(), top.end(), better);
        top.back() = r;
        std::push_heap(top.begin(), top.end(), better);
      }
    }
    std::sort(top.begin(), top.end(), better);
    return top;
  }

  // The hit with the field that matched: the entity_id, the best phrase when
  // it matched well, else the field of the query word with the strongest credit.
  Hit hit_of(const Ranked& r) const {
    const Candidate& c = cands_[r.cand];
    const Entry& e = entries_[c.slot];
    Hit hit{std::string(e.doc.entity_id()), r.score, "", ""};
    if (c.exact_id) {
      hit.matched_field = field_name(Field::entity_id);
      hit.matched_text = std::string(e.doc.entity_id());
    } else if (r.phrase >= 0 && r.phrase_score >= 85.0) {
      const PhraseView p = e.phrases[static_cast<std::size_t>(r.phrase)];
      hit.matched_field = field_name(p.field);
      hit.matched_text = field_text(e.doc.unpack(), p.field, p.value);
    } else {
      const std::uint32_t ci = cand_of_slot_[c.slot];
      std::size_t bi = 0;
      for (std::size_t w = 1; w < n_; ++w)
        if (best_[ci * n_ + w] > best_[ci * n_ + bi]) bi = w;
      const Field f = best_field_[ci * n_ + bi];
      hit.matched_field = field_name(f);
      hit.matched_text = field_text_with_token(e.doc.unpack(), f, tokens_[best_token_[ci * n_ + bi]].text);
    }
    return hit;
  }

  const IndexStore& store_;
  const Query& q_;
  const Filters& filters_;
  const std::vector<Entry>& entries_;
  const std::vector<Token>& tokens_;
  std::vector<std::u32string> words_;
  std::size_t n_ = 0;
  std::u32string phrase_query_;
  Slot exact_ = kNone;
  std::vector<std::uint32_t> cand_of_slot_;  // slot -> candidate index, kNone if none
  std::vector<Slot> cand_slot_;              // candidate index -> slot
  std::vector<float> best_;                  // [candidate * n + word]: best credit
  std::vector<TokenId> best_token_;          // ... the token that gave it
  std::vector<Field> best_field_;            // ... in which field
  std::vector<std::uint8_t> type_hit_;       // a query word matched the domain/device class
  std::vector<Candidate> cands_;
};

}  // namespace

Result run_query(const IndexStore& store, const Query& q) {
  const Filters filters(q, store.keys());
  const std::string raw = trim_lower_ascii(q.text);
  if (raw.empty()) return list_by_filters(store, q, filters);
  return QueryRun(store, q, filters, raw).run();
}

}  // namespace hamcp::search
