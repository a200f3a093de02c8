#include "search/index_store.hpp"

#include <algorithm>
#include <cmath>

#include "search/entry_words.hpp"

namespace hamcp::search {
namespace {

bool has_digit(std::u32string_view s) {
  return std::any_of(s.begin(), s.end(), [](char32_t c) { return c >= U'0' && c <= U'9'; });
}

template <typename T>
std::size_t heap_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
std::size_t heap_bytes(const std::u32string& s) { return s.capacity() > 3 ? (s.capacity() + 1) * 4 : 0; }

std::size_t id_hash(std::string_view entity_id) { return std::hash<std::string_view>{}(entity_id); }
std::size_t token_hash(std::u32string_view text) { return std::hash<std::u32string_view>{}(text); }

}  // namespace

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
  auto id = token_ids_.find(token_hash(text), [&](TokenId t) { return tokens_[t].text == text; });
  return id ? &tokens_[*id] : nullptr;
}

std::optional<Slot> IndexStore::slot_of(std::string_view entity_id) const {
  return by_id_.find(id_hash(entity_id), [&](Slot s) { return entries_[s].doc.entity_id() == entity_id; });
}

const std::vector<std::uint32_t>& IndexStore::id_ranks() const {
  if (!ranks_valid_.load(std::memory_order_acquire)) {
    std::lock_guard lock(rank_mutex_);
    if (!ranks_valid_.load(std::memory_order_relaxed)) {
      std::vector<Slot> order;
      order.reserve(by_id_.size());
      by_id_.for_each([&order](Slot slot) { order.push_back(slot); });
      std::sort(order.begin(), order.end(),
                [&](Slot a, Slot b) { return entries_[a].doc.entity_id() < entries_[b].doc.entity_id(); });
      ranks_.assign(entries_.size(), 0);
      for (std::uint32_t i = 0; i < order.size(); ++i) ranks_[order[i]] = i;
      ranks_valid_.store(true, std::memory_order_release);
    }
  }
  return ranks_;
}

std::vector<std::string> IndexStore::entity_ids() const {
  std::vector<std::string> ids;
  ids.reserve(by_id_.size());
  by_id_.for_each([&](Slot s) { ids.emplace_back(entries_[s].doc.entity_id()); });
  return ids;
}

const Entry* IndexStore::find(std::string_view entity_id) const {
  auto slot = slot_of(entity_id);
  return slot ? &entries_[*slot] : nullptr;
}

TokenId IndexStore::intern(std::u32string_view text) {
  const std::size_t hash = token_hash(text);
  if (auto found = token_ids_.find(hash, [&](TokenId t) { return tokens_[t].text == text; })) return *found;
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
  token_ids_.insert(id, hash, [this](TokenId t) { return token_hash(tokens_[t].text); });
  return id;
}

void IndexStore::reserve(std::size_t n) {
  entries_.reserve(n);
  summaries_.reserve(n);
  by_id_.reserve(n, [this](Slot s) { return id_hash(entries_[s].doc.entity_id()); });
}

void IndexStore::shrink_to_fit() {
  end_bulk();
  entries_.shrink_to_fit();
  summaries_.shrink_to_fit();
  tokens_.shrink_to_fit();
  for (auto& t : tokens_) t.postings.shrink_to_fit();
  places_.drop_unused();
}

void IndexStore::add_posting(TokenId t, Slot s, FieldMask m) {
  auto& p = tokens_[t].postings;
  // A build adds slots in ascending order: append without a search.
  if (p.empty() || p.back().slot() < s) {
    p.emplace_back(s, m);
    return;
  }
  auto it = std::lower_bound(p.begin(), p.end(), s, [](const Posting& a, Slot b) { return a.slot() < b; });
  if (it != p.end() && it->slot() == s)
    it->fields = m;
  else
    p.insert(it, Posting{s, m});
}

void IndexStore::remove_posting(TokenId t, Slot s) {
  auto& p = tokens_[t].postings;
  auto it = std::lower_bound(p.begin(), p.end(), s, [](const Posting& a, Slot b) { return a.slot() < b; });
  if (it != p.end() && it->slot() == s) p.erase(it);
  if (p.empty()) release_token(t);
}

void IndexStore::release_token(TokenId t) {
  token_ids_.erase(t, token_hash(tokens_[t].text));
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

// Adds the folded key of s to the list [begin, end) of keys unless it is there.
void add_key(KeyPool& pool, std::vector<KeyId>& keys, std::size_t begin, std::string_view s) {
  if (s.empty()) return;
  const std::string folded = fold_key(s);
  if (folded.empty()) return;
  const KeyId k = pool.acquire(folded);
  if (std::find(keys.begin() + static_cast<std::ptrdiff_t>(begin), keys.end(), k) != keys.end())
    pool.release(k);
  else
    keys.push_back(k);
}

// Adds a list's keys, at most 255 of them (the count is a byte).
template <typename Values>
std::uint8_t add_keys(KeyPool& pool, std::vector<KeyId>& keys, std::string_view id, std::string_view name,
                      const Values& more) {
  const std::size_t begin = keys.size();
  add_key(pool, keys, begin, id);
  add_key(pool, keys, begin, name);
  for (const auto& v : more)
    if (keys.size() - begin < 255) add_key(pool, keys, begin, v);
  return static_cast<std::uint8_t>(keys.size() - begin);
}

}  // namespace

void IndexStore::make_keys(const EntityDoc& doc, FilterKeys& keys) {
  keys.domain = keys_.acquire(fold_key(domain_or_derived(doc)));
  keys.state = keys_.acquire(fold_key(doc.state));
  keys.device_class = keys_.acquire(fold_key(doc.device_class));
  std::vector<KeyId> lists;
  const std::uint8_t areas = add_keys(keys_, lists, doc.area_id, doc.area_name, doc.area_aliases);
  const std::uint8_t floors = add_keys(keys_, lists, doc.floor_id, doc.floor_name, doc.floor_aliases);
  add_keys(keys_, lists, {}, {}, doc.labels);
  keys.set_lists(key_lists_, lists, areas, floors);
}

IndexStore::TokenRefs IndexStore::intern_words(const WordList& words) {
  TokenRefs refs;
  refs.reserve(words.words.size());
  for (const auto& w : words.words) refs.emplace_back(intern(words.view(w)), w.fields);
  std::sort(refs.begin(), refs.end());
  return refs;
}

IndexStore::TokenRefs IndexStore::indexed_words(const EntityDoc& doc) const {
  WordList words;
  PhraseList unused;
  tokenise_fields(doc, words, unused);
  words.sort_and_merge();
  TokenRefs refs;
  refs.reserve(words.words.size());
  for (const auto& w : words.words)
    if (const Token* t = token(words.view(w))) refs.emplace_back(static_cast<TokenId>(t - tokens_.data()), w.fields);
  std::sort(refs.begin(), refs.end());
  return refs;
}

Entry IndexStore::make_entry(const EntityDoc& doc, TokenRefs& tokens) {
  WordList words;
  PhraseList phrases;
  tokenise_fields(doc, words, phrases);
  words.sort_and_merge();
  return finish_entry(doc, words, std::move(phrases), tokens);
}

Entry IndexStore::finish_entry(const EntityDoc& doc, const WordList& words, PhraseList&& phrases, TokenRefs& tokens) {
  Entry entry;
  entry.phrases = std::move(phrases);
  entry.live = true;
  tokens = intern_words(words);
  make_keys(doc, entry.keys);
  entry.doc = PackedDoc(doc, &places_);
  return entry;
}

void IndexStore::upsert(PreparedDoc&& p) {
  if (slot_of(p.doc.entity_id)) {  // a replacement: compared with the old document first
    upsert(std::move(p.doc));
    return;
  }
  TokenRefs tokens;
  Entry entry = finish_entry(p.doc, p.words, std::move(p.phrases), tokens);
  insert_entry(std::move(entry), tokens);
}

void IndexStore::insert_entry(Entry entry, const TokenRefs& tokens) {
  Slot slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<Slot>(entries_.size());
    entries_.emplace_back();
    summaries_.emplace_back();
  }
  if (!defer_postings(slot, tokens))
    for (const auto& [t, mask] : tokens) add_posting(t, slot, mask);
  entries_[slot] = std::move(entry);
  // After the entry is in place: the table reads ids from the entries when it grows.
  by_id_.insert(slot, id_hash(entries_[slot].doc.entity_id()),
                [this](Slot s) { return id_hash(entries_[s].doc.entity_id()); });
  ranks_valid_.store(false, std::memory_order_release);  // writers hold the exclusive lock
  summarise(slot);
}

void IndexStore::replace_entry(Slot slot, Entry entry, const TokenRefs& new_tokens, const TokenRefs& old_tokens) {
  std::vector<TokenId> dropped;
  auto o = old_tokens.begin();
  auto n = new_tokens.begin();
  while (o != old_tokens.end() || n != new_tokens.end()) {
    if (n == new_tokens.end() || (o != old_tokens.end() && o->first < n->first)) {
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
  entries_[slot].keys.release(keys_, key_lists_);
  entries_[slot] = std::move(entry);
  summarise(slot);
}

void IndexStore::upsert(EntityDoc doc) {
  const std::optional<Slot> existing = slot_of(doc.entity_id);
  if (existing) {
    end_bulk();  // the old postings are read back below
    const EntityDoc old = entries_[*existing].doc.unpack();
    // The common mirror update is a state change: no re-tokenising needed.
    if (same_indexed_text(old, doc)) {
      Entry& e = entries_[*existing];
      const KeyId old_state = e.keys.state;
      e.keys.state = keys_.acquire(fold_key(doc.state));
      keys_.release(old_state);  // after acquiring: an unchanged state keeps its key
      e.doc = PackedDoc(doc, &places_);
      summarise(*existing);
      return;
    }
    // The old tokens before interning the new ones (a token both share must
    // not look new), found again from the old document's text.
    const TokenRefs old_tokens = indexed_words(old);
    TokenRefs tokens;
    Entry entry = make_entry(doc, tokens);
    replace_entry(*existing, std::move(entry), tokens, old_tokens);
    return;
  }
  TokenRefs tokens;
  Entry entry = make_entry(doc, tokens);
  insert_entry(std::move(entry), tokens);
}

void IndexStore::summarise(Slot s) {
  const Entry& e = entries_[s];
  SlotSummary sum;
  sum.live = e.live;
  sum.skipped_by_default = e.doc.hidden() || e.doc.disabled();
  sum.phrase_count = static_cast<std::uint8_t>(std::min<std::size_t>(e.phrases.size(), 255));
  std::size_t i = 0;
  e.phrases.for_each([&](const PhraseView& p) {
    if (i >= SlotSummary::kMaxPhrases) return;
    sum.phrase_len[i] = static_cast<std::uint16_t>(std::min<std::size_t>(p.size(), 65535));
    sum.phrase_percent[i] = static_cast<std::uint8_t>(std::lround(p.weight * 100.0f));
    std::uint32_t m = 0;
    if (p.ascii.empty())
      m = char_class_mask(p.wide);
    else
      for (char c : p.ascii) m |= 1u << char_class(static_cast<char32_t>(c));
    sum.phrase_chars[i] = m;
    ++i;
  });
  summaries_[s] = sum;
}

bool IndexStore::remove(std::string_view entity_id) {
  const std::optional<Slot> found = slot_of(entity_id);
  if (!found) return false;
  end_bulk();
  const Slot slot = *found;
  by_id_.erase(slot, id_hash(entity_id));
  for (const auto& [t, mask] : indexed_words(entries_[slot].doc.unpack())) remove_posting(t, slot);
  entries_[slot].keys.release(keys_, key_lists_);
  entries_[slot] = Entry{};
  summaries_[slot] = SlotSummary{};
  free_slots_.push_back(slot);
  ranks_valid_.store(false, std::memory_order_release);
  return true;
}

IndexStats IndexStore::stats() const {
  IndexStats s;
  s.entities = by_id_.size();
  s.tokens = token_ids_.size();
  std::size_t bytes = heap_bytes(entries_) + heap_bytes(summaries_) + heap_bytes(tokens_) + heap_bytes(free_slots_) +
                      heap_bytes(free_tokens_) + by_id_.heap_bytes() + token_ids_.heap_bytes() + keys_.heap_bytes() +
                      key_lists_.heap_bytes() + places_.heap_bytes();
  for (const auto& e : entries_) {
    if (!e.live) continue;
    bytes += e.doc.heap_bytes() + e.phrases.heap_bytes();
  }
  for (const auto& t : tokens_) {
    s.postings += t.postings.size();
    bytes += heap_bytes(t.text) + heap_bytes(t.postings);
  }
  s.approx_bytes = bytes;
  return s;
}

}  // namespace hamcp::search
