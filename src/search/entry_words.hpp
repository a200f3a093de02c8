#pragma once
// What an entity contributes to the vocabulary and the phrase scorer: the
// words of every indexed field (plus joined neighbour pairs) and the whole
// folded names. Built per upsert, so it works on slices of one buffer rather
// than a string per word.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "search/index_store.hpp"
#include "search/phrase_list.hpp"

namespace hamcp::search {

// The words of one entity, as slices of one buffer (no string per word).
struct WordList {
  std::u32string text;
  struct Word {
    std::uint32_t at, len;
    FieldMask fields;
  };
  std::vector<Word> words;

  std::u32string_view view(const Word& w) const { return std::u32string_view(text).substr(w.at, w.len); }
  // Adds the word a + b (b empty for a single word).
  void add(std::u32string_view a, std::u32string_view b, FieldMask f);
  // Sorted by text, each text once with the union of its fields: the order a
  // std::map<std::u32string, FieldMask> gave, so tokens get the same ids.
  void sort_and_merge();
  // The same words, written compactly into out (replacing its content): only
  // the merged words' texts, each of out's buffers allocated once at its size.
  // out is not this.
  void sort_and_merge_into(WordList& out) const;
};

// Every field's words plus joined neighbour pairs ("bed light" also yields
// "bedlight") so either spelling finds the other; and the phrases to score
// (phrases is replaced: built in this thread's buffer, then one exact block).
void tokenise_fields(const EntityDoc& doc, WordList& words, PhraseList& phrases);

// A document with its words (sorted and merged) and phrases: the part of an
// insert that needs nothing from the store, so any thread can make it.
struct PreparedDoc {
  EntityDoc doc;
  WordList words;
  PhraseList phrases;
};
PreparedDoc prepare_doc(EntityDoc doc);
// The same for p.doc, in place: p.words keeps its buffers when they are big
// enough (a bulk build reuses its slots' word lists: no allocation per
// document); p.phrases is replaced.
void prepare_in_place(PreparedDoc& p);

}  // namespace hamcp::search
