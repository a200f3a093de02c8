#include "search/phrase_list.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace hamcp::search {
namespace {

constexpr std::size_t kHeaderWords = 3;
constexpr std::uint32_t kWideFlag = 1u << 16;

std::size_t text_words(std::size_t len, bool wide) { return wide ? len : (len + 3) / 4; }

}  // namespace

bool PhraseView::equals(std::u32string_view text) const {
  if (ascii.empty()) return wide == text;
  return ascii.size() == text.size() && std::equal(ascii.begin(), ascii.end(), text.begin(),
                                                   [](char a, char32_t b) { return static_cast<char32_t>(a) == b; });
}

void PhraseListBuilder::add(Field f, std::uint8_t value, float weight, std::u32string_view folded) {
  if (count_ == 255) return;
  const bool wide = !std::all_of(folded.begin(), folded.end(), [](char32_t c) { return c < 0x80; });
  const std::size_t at = words_.size();
  words_.resize(at + kHeaderWords + text_words(folded.size(), wide), 0);  // zeroed: the ASCII tail's padding too
  words_[at] = static_cast<char32_t>(static_cast<std::uint32_t>(f) | (static_cast<std::uint32_t>(value) << 8) |
                                     (wide ? kWideFlag : 0));
  words_[at + 1] = static_cast<char32_t>(std::bit_cast<std::uint32_t>(weight));
  words_[at + 2] = static_cast<char32_t>(folded.size());
  char32_t* text = words_.data() + at + kHeaderWords;
  if (wide) {
    std::copy(folded.begin(), folded.end(), text);
  } else {
    auto* bytes = reinterpret_cast<unsigned char*>(text);  // char types may alias any object
    for (std::size_t i = 0; i < folded.size(); ++i) bytes[i] = static_cast<unsigned char>(folded[i]);
  }
  ++count_;
}

PhraseView PhraseListBuilder::operator[](std::size_t i) const {
  std::size_t at = 0;
  PhraseView v;
  for (std::size_t k = 0; k <= i && k < count_; ++k) v = PhraseList::view_at(words_.data(), at);
  return v;
}

bool PhraseListBuilder::contains(std::u32string_view folded) const {
  for (std::size_t at = 0, i = 0; i < count_; ++i)
    if (PhraseList::view_at(words_.data(), at).equals(folded)) return true;
  return false;
}

PhraseList PhraseListBuilder::finish() const {
  PhraseList list;
  if (words_.empty()) return list;
  list.words_ = std::make_unique_for_overwrite<char32_t[]>(words_.size());
  std::copy(words_.begin(), words_.end(), list.words_.get());
  list.size_ = static_cast<std::uint32_t>(words_.size());
  list.count_ = count_;
  return list;
}

PhraseView PhraseList::view_at(const char32_t* words, std::size_t& at) {
  const auto head = static_cast<std::uint32_t>(words[at]);
  PhraseView v;
  v.field = static_cast<Field>(head & 0xffu);
  v.value = static_cast<std::uint8_t>((head >> 8) & 0xffu);
  v.weight = std::bit_cast<float>(static_cast<std::uint32_t>(words[at + 1]));
  const std::size_t len = words[at + 2];
  const bool wide = (head & kWideFlag) != 0;
  const char32_t* text = words + at + kHeaderWords;
  if (wide)
    v.wide = std::u32string_view(text, len);
  else
    v.ascii = std::string_view(reinterpret_cast<const char*>(text), len);
  at += kHeaderWords + text_words(len, wide);
  return v;
}

PhraseView PhraseList::operator[](std::size_t i) const {
  std::size_t at = 0;
  PhraseView v;
  for (std::size_t k = 0; k <= i && k < count_; ++k) v = view_at(words_.get(), at);
  return v;
}

bool PhraseList::contains(std::u32string_view folded) const {
  bool found = false;
  for_each([&](const PhraseView& p) { found = found || p.equals(folded); });
  return found;
}

}  // namespace hamcp::search
