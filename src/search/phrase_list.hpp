#pragma once
// An entity's whole field values kept folded for phrase scoring ("kitchen
// ceiling light"), all in one buffer of 32-bit words: per phrase a 3-word
// header (field and value, weight, length) and its text, 4 ASCII characters
// per word when it is pure ASCII (most homes), else one character per word.
// A vector of phrases, each with a std::string and a std::u32string, took
// ~72 bytes per phrase before any text; this takes 12.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "search/types.hpp"

namespace hamcp::search {

struct PhraseView {
  Field field = Field::friendly_name;
  std::uint8_t value = 0;  // index among the field's values (aliases)
  float weight = 0;        // how much a whole-phrase match on this text counts
  std::string_view ascii;  // the folded text if it is pure ASCII, else empty
  std::u32string_view wide;

  std::size_t size() const noexcept { return ascii.empty() ? wide.size() : ascii.size(); }
  bool equals(std::u32string_view text) const;
};

class PhraseListBuilder;

class PhraseList {
 public:
  std::size_t size() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }
  // Walks the buffer: entities have a handful of phrases.
  PhraseView operator[](std::size_t i) const;
  bool contains(std::u32string_view folded) const;
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (std::size_t at = 0, i = 0; i < count_; ++i) fn(view_at(words_.get(), at));
  }
  std::size_t heap_bytes() const noexcept { return size_ * sizeof(char32_t); }

  // The phrase starting at word `at` of a list's words; moves `at` to the next one.
  static PhraseView view_at(const char32_t* words, std::size_t& at);

 private:
  friend class PhraseListBuilder;

  // char32_t so wide text is read as what it is; exactly sized (an entity's
  // phrases are added once, when it is indexed): 16 bytes inline, not 32.
  std::unique_ptr<char32_t[]> words_;
  std::uint32_t size_ = 0;
  std::uint8_t count_ = 0;  // at most 255 phrases (an entity has ~3-8)
};

// Builds a PhraseList in a buffer the caller reuses from list to list, then
// gives the list one block of its exact size. (Adding to the exact block
// itself reallocated and copied it per phrase, ~5 times per entity, on the
// thread that makes a bulk build's documents.)
class PhraseListBuilder {
 public:
  explicit PhraseListBuilder(std::vector<char32_t>& buffer) : words_(buffer) { words_.clear(); }
  void add(Field f, std::uint8_t value, float weight, std::u32string_view folded);
  std::size_t size() const noexcept { return count_; }
  PhraseView operator[](std::size_t i) const;
  bool contains(std::u32string_view folded) const;
  PhraseList finish() const;

 private:
  std::vector<char32_t>& words_;
  std::uint8_t count_ = 0;
};

}  // namespace hamcp::search
