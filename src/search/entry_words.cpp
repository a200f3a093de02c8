#include "search/entry_words.hpp"

#include <algorithm>

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

void WordList::sort_and_merge() {
  std::sort(words.begin(), words.end(), [this](const Word& x, const Word& y) { return view(x) < view(y); });
  std::size_t out = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (out > 0 && view(words[out - 1]) == view(words[i]))
      words[out - 1].fields |= words[i].fields;
    else
      words[out++] = words[i];
  }
  words.resize(out);
}

PreparedDoc prepare_doc(EntityDoc doc) {
  PreparedDoc p;
  p.doc = std::move(doc);
  tokenise_fields(p.doc, p.words, p.phrases);
  p.words.sort_and_merge();
  return p;
}

void tokenise_fields(const EntityDoc& doc, WordList& words, PhraseList& phrases) {
  std::u32string display;  // folded name shown to people, for the "area + name" phrase
  std::u32string folded;   // reused for every field: no allocation per text
  std::vector<std::u32string_view> toks;
  for_each_field_text(doc, [&](Field f, std::uint8_t value, std::string_view text) {
    fold_into(text, folded);
    word_views(folded, toks);
    for (std::size_t i = 0; i < toks.size(); ++i) {
      words.add(toks[i], {}, bit(f));
      if (i + 1 < toks.size()) words.add(toks[i], toks[i + 1], bit(f));
    }
    if (float w = phrase_weight(f); w > 0 && !folded.empty()) {
      if (!phrases.contains(folded)) phrases.add(f, value, w, folded);
      if (display.empty() && f != Field::object_id) display = folded;
    }
  });
  // "Ceiling Light" in area "Kitchen" should score as the phrase "kitchen ceiling light".
  if (doc.area_name.empty() || display.empty()) return;
  std::u32string area = fold(doc.area_name);
  if (area.empty() || display.compare(0, area.size(), area) == 0) return;
  Field f = Field::friendly_name;
  std::uint8_t value = 0;
  for (std::size_t i = 0; i < phrases.size(); ++i)
    if (const PhraseView p = phrases[i]; p.equals(display)) {
      f = p.field;
      value = p.value;
      break;
    }
  phrases.add(f, value, 1.0f, area + U' ' + display);
}

}  // namespace hamcp::search
