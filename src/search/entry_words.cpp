#include "search/entry_words.hpp"

#include <algorithm>
#include <cstring>

#include "search/normalize.hpp"

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

// The space-separated words of folded text, at most kMaxWordsPerValue, into out.
void word_views(std::u32string_view folded, std::vector<std::u32string_view>& out) {
  out.clear();
  std::size_t start = 0;
  while (start < folded.size() && out.size() < kMaxWordsPerValue) {
    std::size_t end = folded.find(U' ', start);
    if (end == std::u32string_view::npos) end = folded.size();
    if (end > start) out.push_back(folded.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

void WordList::add(std::u32string_view a, std::u32string_view b, FieldMask f) {
  words.push_back({static_cast<std::uint32_t>(text.size()), static_cast<std::uint32_t>(a.size() + b.size()), f});
  text.append(a);
  text.append(b);
}

namespace {

// A word's first five code points in one integer, each + 1 (so a shorter
// word sorts first) in 12 bits: comparing keys compares those code points as
// the texts do. Bit 63 marks a word with a code point past U+0FFE in them
// (CJK, say): the key cannot order it, so it is compared as text.
constexpr std::size_t kKeyChars = 5;
constexpr std::uint64_t kUnkeyed = std::uint64_t{1} << 63;
std::uint64_t prefix_key(std::u32string_view w) {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < kKeyChars; ++i) {
    const std::uint64_t c = i < w.size() ? std::uint64_t{w[i]} + 1 : 0;
    if (c > 0xFFF) return kUnkeyed;
    key = (key << 12) | c;
  }
  return key;
}

struct Keyed {
  std::uint64_t key;
  std::uint32_t index;
};

// Equality by bytes: char_traits<char32_t> compares one code point at a time.
bool same_text(std::u32string_view a, std::u32string_view b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(char32_t)) == 0;
}

// Out of the comparison's fast path: keys equal (the first five code points
// are, or both words are equal and shorter) or a word without a key.
[[gnu::noinline]] bool text_less(std::u32string_view a, std::u32string_view b, std::uint64_t ka, std::uint64_t kb) {
  if (((ka | kb) & kUnkeyed) != 0) return a < b;
  const std::size_t skip = std::min(kKeyChars, std::min(a.size(), b.size()));
  return a.substr(skip) < b.substr(skip);
}

// Each text once, with the union of its fields, in first-seen order: half
// of a document's words repeat (the area's and the device's words are in the
// names too), and equal words are the sort's slowest comparisons. An
// open-addressing table by key, length and last code point. Returns this
// thread's buffer, valid until its next call.
const std::vector<Keyed>& unique_words(const WordList& list, std::vector<WordList::Word>& unique) {
  thread_local std::vector<Keyed> keyed;
  thread_local std::vector<std::uint32_t> slots;  // 1 + index into unique; 0: free
  keyed.clear();
  unique.clear();
  std::size_t capacity = 16;
  while (capacity < 2 * list.words.size()) capacity *= 2;
  slots.assign(capacity, 0);
  for (const WordList::Word& w : list.words) {
    const std::u32string_view text = list.view(w);
    const std::uint64_t key = prefix_key(text);
    std::uint64_t h = (key ^ (std::uint64_t{w.len} << 48) ^ (text.empty() ? 0 : text.back())) * 0x9E3779B97F4A7C15u;
    for (std::size_t at = h >> 40;; ++at) {
      std::uint32_t& slot = slots[at & (capacity - 1)];
      if (slot == 0) {
        slot = static_cast<std::uint32_t>(unique.size() + 1);
        keyed.push_back({key, static_cast<std::uint32_t>(unique.size())});
        unique.push_back(w);
        break;
      }
      if (keyed[slot - 1].key == key && same_text(list.view(unique[slot - 1]), text)) {
        unique[slot - 1].fields |= w.fields;
        break;
      }
    }
  }
  return keyed;
}

}  // namespace

void WordList::sort_and_merge() {
  WordList merged;
  sort_and_merge_into(merged);
  *this = std::move(merged);
}

// Sorting ~40 words per document by text was most of a bulk build's
// tokenising (u32string compares, character by character). Now equal words
// are merged first, and the keys decide nearly every comparison of the rest
// with one integer compare. The order is exactly the texts' order.
void WordList::sort_and_merge_into(WordList& out) const {
  thread_local std::vector<Word> unique;  // at: into this->text
  const std::vector<Keyed>& keyed = unique_words(*this, unique);
  thread_local std::vector<Keyed> order;
  order.assign(keyed.begin(), keyed.end());
  std::size_t chars = 0;
  for (const Word& w : unique) chars += w.len;
  auto unique_view = [&](const Keyed& k) { return view(unique[k.index]); };
  std::sort(order.begin(), order.end(), [&](const Keyed& x, const Keyed& y) {
    if (x.key != y.key && ((x.key | y.key) & kUnkeyed) == 0) return x.key < y.key;
    return text_less(unique_view(x), unique_view(y), x.key, y.key);
  });
  out.text.clear();
  out.text.reserve(chars);
  out.words.clear();
  out.words.reserve(order.size());
  for (const Keyed& k : order) out.add(unique_view(k), {}, unique[k.index].fields);
}

PreparedDoc prepare_doc(EntityDoc doc) {
  PreparedDoc p;
  p.doc = std::move(doc);
  prepare_in_place(p);
  return p;
}

void prepare_in_place(PreparedDoc& p) {
  // The words are collected in this thread's list (its buffers grow once for
  // the whole build) and only the merged ones are copied into the document.
  thread_local WordList all;
  all.text.clear();
  all.words.clear();
  tokenise_fields(p.doc, all, p.phrases);
  all.sort_and_merge_into(p.words);
}

namespace {
// "Ceiling Light" in area "Kitchen" should score as the phrase "kitchen ceiling light".
void add_area_phrase(const EntityDoc& doc, std::u32string_view display, std::u32string& area,
                     PhraseListBuilder& phrases) {
  if (doc.area_name.empty() || display.empty()) return;
  fold_into(doc.area_name, area);
  if (area.empty() || display.compare(0, area.size(), area) == 0) return;
  Field f = Field::friendly_name;
  std::uint8_t value = 0;
  for (std::size_t i = 0; i < phrases.size(); ++i)
    if (const PhraseView p = phrases[i]; p.equals(display)) {
      f = p.field;
      value = p.value;
      break;
    }
  area += U' ';
  area += display;
  phrases.add(f, value, 1.0f, area);
}
}  // namespace

void tokenise_fields(const EntityDoc& doc, WordList& words, PhraseList& phrases) {
  // This thread's buffers, reused from document to document (a bulk build
  // tokenises every entity of the home): no allocation once they have grown.
  struct Scratch {
    std::u32string display;  // folded name shown to people, for the "area + name" phrase
    std::u32string folded;   // each field's text in turn
    std::u32string area;
    std::vector<std::u32string_view> toks;
    std::vector<char32_t> phrases;
  };
  thread_local Scratch scratch;
  std::u32string& display = scratch.display;
  std::u32string& folded = scratch.folded;
  std::vector<std::u32string_view>& toks = scratch.toks;
  PhraseListBuilder built(scratch.phrases);
  display.clear();
  for_each_field_text(doc, [&](Field f, std::uint8_t value, std::string_view text) {
    fold_into(text, folded);
    word_views(folded, toks);
    for (std::size_t i = 0; i < toks.size(); ++i) {
      words.add(toks[i], {}, bit(f));
      if (i + 1 < toks.size()) words.add(toks[i], toks[i + 1], bit(f));
    }
    if (float w = phrase_weight(f); w > 0 && !folded.empty()) {
      if (!built.contains(folded)) built.add(f, value, w, folded);
      if (display.empty() && f != Field::object_id) display = folded;
    }
  });
  add_area_phrase(doc, display, scratch.area, built);
  phrases = built.finish();
}

}  // namespace hamcp::search
