#pragma once
// Internal, not thread-safe storage behind EntityIndex: documents, the token
// vocabulary and its posting lists. EntityIndex serialises access.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/id_table.hpp"
#include "search/entity_index.hpp"
#include "search/key_pool.hpp"
#include "search/normalize.hpp"
#include "search/packed_doc.hpp"
#include "search/phrase_list.hpp"
#include "search/types.hpp"

namespace hamcp::search {

using TokenId = std::uint32_t;
using Slot = std::uint32_t;
using FieldMask = std::uint16_t;

constexpr FieldMask bit(Field f) { return static_cast<FieldMask>(1u << static_cast<unsigned>(f)); }

// One entity containing a token, and in which fields. Six bytes: the slot is
// kept as two 16-bit halves so the struct is 2-aligned ({u32, u16} pads to 8;
// a home has ~20 postings per entity, 2M at 100k entities).
struct Posting {
  Posting() = default;
  Posting(Slot s, FieldMask f) noexcept
      : slot_lo(static_cast<std::uint16_t>(s)), slot_hi(static_cast<std::uint16_t>(s >> 16)), fields(f) {}
  Slot slot() const noexcept { return Slot{slot_lo} | (Slot{slot_hi} << 16); }

  std::uint16_t slot_lo = 0, slot_hi = 0;
  FieldMask fields = 0;
};
static_assert(sizeof(Posting) == 6);

struct Token {
  std::u32string text;
  std::vector<Posting> postings;  // sorted by slot
  bool has_digit = false;         // numbers are matched exactly or by prefix, never fuzzily
};

// What the candidate stage needs per slot, kept in one dense array so scanning
// tens of thousands of candidates does not chase pointers into every Entry.
struct SlotSummary {
  static constexpr std::size_t kMaxPhrases = 6;
  bool live = false;
  bool skipped_by_default = false;                // hidden or disabled
  std::uint8_t phrase_count = 0;                  // > kMaxPhrases: use the Entry itself
  std::uint8_t phrase_percent[kMaxPhrases] = {};  // weight x 100: weights are 1, 0.95, 0.9 or 0.85
  std::uint16_t phrase_len[kMaxPhrases] = {};
  std::uint32_t phrase_chars[kMaxPhrases] = {};  // char_class_mask() of each phrase

  // The phrase's weight, the same float as the phrase's own (n / 100.0f is
  // correctly rounded, so it is the float nearest to n / 100: 0.95f for 95).
  float phrase_weight(std::size_t i) const { return static_cast<float>(phrase_percent[i]) / 100.0f; }
};
static_assert(95 / 100.0f == 0.95f && 90 / 100.0f == 0.9f && 85 / 100.0f == 0.85f && 100 / 100.0f == 1.0f);

// Which character classes a text contains: bits 0-25 a-z, 26 digits, 27
// space, 28 anything else. Two texts can only share characters of shared
// classes, which bounds their longest common subsequence cheaply.
std::uint32_t char_class_mask(std::u32string_view text);
int char_class(char32_t c);

// 72 bytes, one per slot: `live` sits in the phrase list's tail padding.
struct Entry {
  PackedDoc doc;
  [[no_unique_address]] PhraseList phrases;
  bool live = false;
  FilterKeys keys;  // ids in the store's KeyPool
};
static_assert(sizeof(Entry) <= 72);

struct WordList;
struct PreparedDoc;

class IndexStore {
 public:
  void upsert(EntityDoc doc);
  // The same as upsert(p.doc) for a document prepared elsewhere (prepare_doc).
  void upsert(PreparedDoc&& p);
  bool remove(std::string_view entity_id);
  // Bulk building: make room for n entities up front (no growth copies of
  // entries_, whose elements are ~0.7 KiB each), and afterwards give back the
  // spare capacity that doubling growth left in every vector.
  void reserve(std::size_t n);
  void shrink_to_fit();
  // Bulk building (a fresh store): new entities' postings are noted in one
  // flat list, and end_bulk() gives each token its list at its final size.
  // Lists grown by doubling cost a copy per step and left the old blocks as
  // holes among the index's own (~12 MB at 100k entities), which glibc could
  // not give back. Any other change in between ends the bulk first.
  void begin_bulk(std::size_t expected_entities);
  void end_bulk();
  const Entry* find(std::string_view entity_id) const;
  std::size_t size() const { return by_id_.size(); }
  std::vector<std::string> entity_ids() const;
  IndexStats stats() const;

  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  const std::vector<SlotSummary>& summaries() const { return summaries_; }
  const KeyPool& keys() const { return keys_; }
  const Token* token(std::u32string_view text) const;
  std::optional<Slot> slot_of(std::string_view entity_id) const;
  // Position of each slot's entity_id in ascending entity_id order, so ties
  // are broken by comparing integers instead of strings. Recomputed lazily
  // (once, under its own mutex) after entities were added or removed; safe to
  // call from concurrent queries.
  const std::vector<std::uint32_t>& id_ranks() const;

 private:
  TokenId intern(std::u32string_view text);
  void add_posting(TokenId t, Slot s, FieldMask m);
  void remove_posting(TokenId t, Slot s);
  void release_token(TokenId t);

  void summarise(Slot s);
  // An entity's tokens and the fields they occur in, sorted by TokenId. Not
  // stored per entry (8 bytes a token): an update or removal finds the old
  // ones again from the old document's text.
  using TokenRefs = std::vector<std::pair<TokenId, FieldMask>>;
  TokenRefs intern_words(const WordList& words);
  TokenRefs indexed_words(const EntityDoc& doc) const;
  // An entity's entry (phrases, folded filter keys) and its tokens, interned.
  Entry make_entry(const EntityDoc& doc, TokenRefs& tokens);
  Entry finish_entry(const EntityDoc& doc, const WordList& words, PhraseList&& phrases, TokenRefs& tokens);
  void make_keys(const EntityDoc& doc, FilterKeys& keys);
  void insert_entry(Entry entry, const TokenRefs& tokens);
  // Touches only the postings whose token or field mask changed.
  void replace_entry(Slot slot, Entry entry, const TokenRefs& new_tokens, const TokenRefs& old_tokens);

  // A new entity's postings, deferred (bulk building); false: add them now.
  bool defer_postings(Slot slot, const TokenRefs& tokens);

  // Postings of the entities appended since begin_bulk(), in slot order.
  struct Bulk {
    struct Pending {  // 6 bytes, as Posting: the token id in two halves
      std::uint16_t token_lo, token_hi;
      FieldMask fields;
    };
    Slot first_slot = 0;
    std::vector<Pending> postings;
    std::vector<std::uint32_t> per_slot;   // how many postings each slot has in `postings`
    std::vector<std::uint32_t> per_token;  // how many each token gets
  };
  std::unique_ptr<Bulk> bulk_;

  std::vector<Entry> entries_;
  std::vector<SlotSummary> summaries_;  // parallel to entries_
  std::vector<Slot> free_slots_;
  common::IdTable by_id_;  // slots by entity_id (the key is the id in the slot's packed document)
  std::vector<Token> tokens_;
  std::vector<TokenId> free_tokens_;
  common::IdTable token_ids_;  // tokens by text (the key is the token's own text)
  KeyPool keys_;
  KeyLists key_lists_;  // the entries' area/floor/label key lists, each distinct list once
  PlacePool places_;    // each area/floor's packed texts once, shared by its entities' documents
  mutable std::mutex rank_mutex_;
  mutable std::atomic<bool> ranks_valid_{false};
  mutable std::vector<std::uint32_t> ranks_;
};

// Query execution over a store (query_engine.cpp).
Result run_query(const IndexStore& store, const Query& q);

// The entity's domain: doc.domain, else the part of entity_id before the dot.
std::string_view domain_or_derived(const EntityDoc& doc);

// Calls fn(field, value_index, text) for every non-empty indexed text of doc
// (the whole entity_id itself is matched separately, exactly).
template <typename Fn>
void for_each_field_text(const EntityDoc& doc, Fn&& fn) {
  auto one = [&](Field f, const std::string& s) {
    if (!s.empty()) fn(f, std::uint8_t{0}, std::string_view(s));
  };
  auto many = [&](Field f, const std::vector<std::string>& v, std::uint8_t first) {
    for (std::size_t i = 0; i < v.size() && i + first < 255; ++i)
      if (!v[i].empty()) fn(f, static_cast<std::uint8_t>(i + first), std::string_view(v[i]));
  };
  // Names before the object_id, so a name and an identical object_id report the name.
  one(Field::friendly_name, doc.friendly_name);
  one(Field::registry_name, doc.registry_name);
  one(Field::original_name, doc.original_name);
  many(Field::alias, doc.aliases, 0);
  fn(Field::object_id, std::uint8_t{0}, object_id(doc.entity_id));
  one(Field::area, doc.area_name);
  many(Field::area, doc.area_aliases, 1);
  one(Field::floor, doc.floor_name);
  many(Field::floor, doc.floor_aliases, 1);
  one(Field::device, doc.device_name);
  one(Field::manufacturer, doc.manufacturer);
  one(Field::model, doc.model);
  many(Field::label, doc.labels, 0);
  auto domain = domain_or_derived(doc);
  if (!domain.empty()) fn(Field::domain, std::uint8_t{0}, domain);
  one(Field::device_class, doc.device_class);
}

}  // namespace hamcp::search
