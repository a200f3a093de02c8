#include "search/index_store.hpp"

#include <algorithm>
#include <map>

namespace hamcp::search {
namespace {

// Long texts are capped so one pathological name cannot bloat the vocabulary.
constexpr std::size_t kMaxWordsPerValue = 32;

// Weight of a whole-phrase match per field; 0 = not a phrase field. The
// device name counts less: every entity of a device shares it, and the entity
// whose own name is the device name ("Coffee Machine", not "Coffee Machine
// Power") is the one people mean.
float phrase_weight(Field f) {
  switch (f) {
    case Field::friendly_name:
    case Field::registry_name:
    case Field::alias:
      return 1.0f;
    case Field::object_id:
      return 0.95f;
    case Field::original_name:
      return 0.9f;
    case Field::device:
      return 0.85f;
    default:
      return 0.0f;
  }
}

bool has_digit(std::u32string_view s) {
  return std::any_of(s.begin(), s.end(), [](char32_t c) { return c >= U'0' && c <= U'9'; });
}

template <typename T>
std::size_t heap_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
std::size_t heap_bytes(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }
std::size_t heap_bytes(const std::u32string& s) { return s.capacity() > 3 ? (s.capacity() + 1) * 4 : 0; }

}  // namespace

Phrase::Phrase(Field f, std::uint8_t v, float w, const std::u32string& text) : field(f), value(v), weight(w) {
  if (std::all_of(text.begin(), text.end(), [](char32_t c) { return c < 0x80; }))
    ascii.assign(text.begin(), text.end());
  else
    wide = text;
}

bool Phrase::equals(std::u32string_view text) const {
  if (ascii.empty()) return wide == text;
  return ascii.size() == text.size() && std::equal(ascii.begin(), ascii.end(), text.begin(),
                                                   [](char a, char32_t b) { return static_cast<char32_t>(a) == b; });
}

int char_class(char32_t c) {
  if (c >= U'a' && c <= U'z') return static_cast<int>(c - U'a');
  if (c >= U'0' && c <= U'9') return 26;
  if (c == U' ') return 27;
  return 28;
}

std::uint32_t char_class_mask(std::u32string_view text) {
  std::uint32_t m = 0;
  for (char32_t c : text) m |= 1u << char_class(c);
  return m;
}

std::string_view domain_or_derived(const EntityDoc& doc) {
  return doc.domain.empty() ? domain_of(doc.entity_id) : std::string_view(doc.domain);
}

const Token* IndexStore::token(std::u32string_view text) const {
  auto it = token_ids_.find(std::u32string(text));
  return it == token_ids_.end() ? nullptr : &tokens_[it->second];
}

std::optional<Slot> IndexStore::slot_of(std::string_view entity_id) const {
  auto it = by_id_.find(std::string(entity_id));
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

const std::vector<std::uint32_t>& IndexStore::id_ranks() const {
  if (!ranks_valid_.load(std::memory_order_acquire)) {
    std::lock_guard lock(rank_mutex_);
    if (!ranks_valid_.load(std::memory_order_relaxed)) {
      std::vector<Slot> order;
      order.reserve(by_id_.size());
      for (const auto& [id, slot] : by_id_) order.push_back(slot);
      std::sort(order.begin(), order.end(),
                [&](Slot a, Slot b) { return entries_[a].doc.entity_id() < entries_[b].doc.entity_id(); });
      ranks_.assign(entries_.size(), 0);
      for (std::uint32_t i = 0; i < order.size(); ++i) ranks_[order[i]] = i;
      ranks_valid_.store(true, std::memory_order_release);
    }
  }
  return ranks_;
}

const Entry* IndexStore::find(std::string_view entity_id) const {
  auto slot = slot_of(entity_id);
  return slot ? &entries_[*slot] : nullptr;
}

TokenId IndexStore::intern(const std::u32string& text) {
  auto it = token_ids_.find(text);
  if (it != token_ids_.end()) return it->second;
  TokenId id;
  if (!free_tokens_.empty()) {
    id = free_tokens_.back();
    free_tokens_.pop_back();
  } else {
    id = static_cast<TokenId>(tokens_.size());
    tokens_.emplace_back();
  }
  tokens_[id].text = text;
  tokens_[id].has_digit = has_digit(text);
  token_ids_.emplace(text, id);
  return id;
}

void IndexStore::reserve(std::size_t n) {
  entries_.reserve(n);
  summaries_.reserve(n);
  by_id_.reserve(n);
}

void IndexStore::shrink_to_fit() {
  entries_.shrink_to_fit();
  summaries_.shrink_to_fit();
  tokens_.shrink_to_fit();
  for (auto& t : tokens_) t.postings.shrink_to_fit();
  for (auto& e : entries_) e.phrases.shrink_to_fit();
}

void IndexStore::add_posting(TokenId t, Slot s, FieldMask m) {
  auto& p = tokens_[t].postings;
  auto it = std::lower_bound(p.begin(), p.end(), s, [](const Posting& a, Slot b) { return a.slot < b; });
  if (it != p.end() && it->slot == s)
    it->fields = m;
  else
    p.insert(it, Posting{s, m});
}

void IndexStore::remove_posting(TokenId t, Slot s) {
  auto& p = tokens_[t].postings;
  auto it = std::lower_bound(p.begin(), p.end(), s, [](const Posting& a, Slot b) { return a.slot < b; });
  if (it != p.end() && it->slot == s) p.erase(it);
  if (p.empty()) release_token(t);
}

void IndexStore::release_token(TokenId t) {
  token_ids_.erase(tokens_[t].text);
  tokens_[t].text.clear();
  tokens_[t].text.shrink_to_fit();
  tokens_[t].postings.shrink_to_fit();
  free_tokens_.push_back(t);
}

namespace {
// True when a and b index identically (only state/flags may differ).
bool same_indexed_text(const EntityDoc& a, const EntityDoc& b) {
  return a.entity_id == b.entity_id && a.domain == b.domain && a.friendly_name == b.friendly_name &&
         a.registry_name == b.registry_name && a.original_name == b.original_name && a.aliases == b.aliases &&
         a.area_id == b.area_id && a.area_name == b.area_name && a.area_aliases == b.area_aliases &&
         a.floor_id == b.floor_id && a.floor_name == b.floor_name && a.floor_aliases == b.floor_aliases &&
         a.device_name == b.device_name && a.manufacturer == b.manufacturer && a.model == b.model &&
         a.labels == b.labels && a.device_class == b.device_class;
}
}  // namespace

namespace {

// Every field's words plus joined neighbour pairs ("bed light" also yields
// "bedlight") so either spelling finds the other; and the phrases to score.
void tokenise_fields(const EntityDoc& doc, std::map<std::u32string, FieldMask>& words, std::vector<Phrase>& phrases) {
  std::u32string display;  // folded name shown to people, for the "area + name" phrase
  for_each_field_text(doc, [&](Field f, std::uint8_t value, std::string_view text) {
    std::u32string folded = fold(text);
    auto toks = split_tokens(folded);
    if (toks.size() > kMaxWordsPerValue) toks.resize(kMaxWordsPerValue);
    for (std::size_t i = 0; i < toks.size(); ++i) {
      words[toks[i]] |= bit(f);
      if (i + 1 < toks.size()) words[toks[i] + toks[i + 1]] |= bit(f);
    }
    if (float w = phrase_weight(f); w > 0 && !folded.empty()) {
      bool dup = std::any_of(phrases.begin(), phrases.end(), [&](const Phrase& p) { return p.equals(folded); });
      if (!dup) phrases.push_back(Phrase{f, value, w, folded});
      if (display.empty() && f != Field::object_id) display = folded;
    }
  });
  // "Ceiling Light" in area "Kitchen" should score as the phrase "kitchen ceiling light".
  if (doc.area_name.empty() || display.empty()) return;
  std::u32string area = fold(doc.area_name);
  if (area.empty() || display.compare(0, area.size(), area) == 0) return;
  Field f = Field::friendly_name;
  std::uint8_t value = 0;
  for (const auto& p : phrases)
    if (p.equals(display)) {
      f = p.field;
      value = p.value;
      break;
    }
  phrases.push_back(Phrase{f, value, 1.0f, area + U' ' + display});
}

void add_key(std::vector<std::string>& keys, std::string_view s) {
  if (s.empty()) return;
  std::string k = fold_key(s);
  if (!k.empty() && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(std::move(k));
}

}  // namespace

Entry IndexStore::make_entry(const EntityDoc& doc) {
  std::map<std::u32string, FieldMask> words;
  Entry entry;
  tokenise_fields(doc, words, entry.phrases);
  entry.live = true;
  entry.tokens.reserve(words.size());
  for (const auto& [w, mask] : words) entry.tokens.emplace_back(intern(w), mask);
  std::sort(entry.tokens.begin(), entry.tokens.end());
  entry.domain_key = fold_key(domain_or_derived(doc));
  entry.state_key = fold_key(doc.state);
  entry.device_class_key = fold_key(doc.device_class);
  add_key(entry.area_keys, doc.area_id);
  add_key(entry.area_keys, doc.area_name);
  for (const auto& a : doc.area_aliases) add_key(entry.area_keys, a);
  add_key(entry.floor_keys, doc.floor_id);
  add_key(entry.floor_keys, doc.floor_name);
  for (const auto& a : doc.floor_aliases) add_key(entry.floor_keys, a);
  for (const auto& l : doc.labels) add_key(entry.label_keys, l);
  entry.doc = PackedDoc(doc);
  return entry;
}

void IndexStore::insert_entry(const std::string& entity_id, Entry entry) {
  Slot slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<Slot>(entries_.size());
    entries_.emplace_back();
    summaries_.emplace_back();
  }
  for (const auto& [t, mask] : entry.tokens) add_posting(t, slot, mask);
  by_id_.emplace(entity_id, slot);
  ranks_valid_.store(false, std::memory_order_release);  // writers hold the exclusive lock
  entries_[slot] = std::move(entry);
  summarise(slot);
}

void IndexStore::replace_entry(Slot slot, Entry entry) {
  const auto& old_tokens = entries_[slot].tokens;
  std::vector<TokenId> dropped;
  auto o = old_tokens.begin();
  auto n = entry.tokens.begin();
  while (o != old_tokens.end() || n != entry.tokens.end()) {
    if (n == entry.tokens.end() || (o != old_tokens.end() && o->first < n->first)) {
      dropped.push_back(o->first);
      ++o;
    } else if (o == old_tokens.end() || n->first < o->first) {
      add_posting(n->first, slot, n->second);
      ++n;
    } else {
      if (o->second != n->second) add_posting(n->first, slot, n->second);
      ++o;
      ++n;
    }
  }
  for (TokenId t : dropped) remove_posting(t, slot);
  entries_[slot] = std::move(entry);
  summarise(slot);
}

void IndexStore::upsert(EntityDoc doc) {
  auto existing = by_id_.find(doc.entity_id);
  // The common mirror update is a state change: no re-tokenising needed.
  if (existing != by_id_.end() && same_indexed_text(entries_[existing->second].doc.unpack(), doc)) {
    Entry& e = entries_[existing->second];
    e.state_key = fold_key(doc.state);
    e.doc = PackedDoc(doc);
    summarise(existing->second);
    return;
  }
  Entry entry = make_entry(doc);
  if (existing == by_id_.end())
    insert_entry(doc.entity_id, std::move(entry));
  else
    replace_entry(existing->second, std::move(entry));
}

void IndexStore::summarise(Slot s) {
  const Entry& e = entries_[s];
  SlotSummary sum;
  sum.live = e.live;
  sum.skipped_by_default = e.doc.hidden() || e.doc.disabled();
  sum.phrase_count = static_cast<std::uint8_t>(std::min<std::size_t>(e.phrases.size(), 255));
  for (std::size_t i = 0; i < e.phrases.size() && i < SlotSummary::kMaxPhrases; ++i) {
    sum.phrase_len[i] = static_cast<std::uint16_t>(std::min<std::size_t>(e.phrases[i].size(), 65535));
    sum.phrase_weight[i] = e.phrases[i].weight;
    const Phrase& p = e.phrases[i];
    std::uint32_t m = 0;
    if (p.ascii.empty())
      m = char_class_mask(p.wide);
    else
      for (char c : p.ascii) m |= 1u << char_class(static_cast<char32_t>(c));
    sum.phrase_chars[i] = m;
  }
  summaries_[s] = sum;
}

bool IndexStore::remove(std::string_view entity_id) {
  auto it = by_id_.find(std::string(entity_id));
  if (it == by_id_.end()) return false;
  Slot slot = it->second;
  for (const auto& [t, mask] : entries_[slot].tokens) remove_posting(t, slot);
  entries_[slot] = Entry{};
  summaries_[slot] = SlotSummary{};
  free_slots_.push_back(slot);
  by_id_.erase(it);
  ranks_valid_.store(false, std::memory_order_release);
  return true;
}

IndexStats IndexStore::stats() const {
  IndexStats s;
  s.entities = by_id_.size();
  s.tokens = token_ids_.size();
  std::size_t bytes = heap_bytes(entries_) + heap_bytes(summaries_) + heap_bytes(tokens_) + heap_bytes(free_slots_) +
                      heap_bytes(free_tokens_);
  for (const auto& e : entries_) {
    if (!e.live) continue;
    bytes += e.doc.heap_bytes() + heap_bytes(e.tokens) + heap_bytes(e.phrases);
    for (const auto& p : e.phrases) bytes += heap_bytes(p.ascii) + heap_bytes(p.wide);
    bytes += heap_bytes(e.domain_key) + heap_bytes(e.state_key) + heap_bytes(e.device_class_key);
    for (const auto* keys : {&e.area_keys, &e.floor_keys, &e.label_keys}) {
      bytes += heap_bytes(*keys);
      for (const auto& k : *keys) bytes += heap_bytes(k);
    }
  }
  for (const auto& t : tokens_) {
    s.postings += t.postings.size();
    bytes += heap_bytes(t.text) + heap_bytes(t.postings);
  }
  // Hash-map nodes: key + value + next pointer + cached hash, plus bucket array.
  for (const auto& [k, v] : token_ids_) bytes += sizeof(std::u32string) + heap_bytes(k) + 24;
  bytes += token_ids_.bucket_count() * sizeof(void*);
  for (const auto& [k, v] : by_id_) bytes += sizeof(std::string) + heap_bytes(k) + 24;
  bytes += by_id_.bucket_count() * sizeof(void*);
  s.approx_bytes = bytes;
  return s;
}

}  // namespace hamcp::search
