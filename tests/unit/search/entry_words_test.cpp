// search::WordList::sort_and_merge and prepare_doc's words against the plain
// reference they replace: a std::map<std::u32string, FieldMask> (each text
// once, fields merged, in the texts' order), on the 1,000-entity fixture and
// on generated words (shared prefixes, equal words, non-ASCII and code points
// the sort keys cannot hold).
#include "search/entry_words.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "search/normalize.hpp"
#include "unit/search/doc_json.hpp"

namespace hamcp::search {
namespace {

using Merged = std::vector<std::pair<std::u32string, FieldMask>>;

Merged reference(const WordList& words) {
  std::map<std::u32string, FieldMask> m;
  for (const auto& w : words.words) m[std::u32string(words.view(w))] |= w.fields;
  return {m.begin(), m.end()};
}

Merged merged(const WordList& words) {
  Merged out;
  for (const auto& w : words.words) out.emplace_back(words.view(w), w.fields);
  return out;
}

std::vector<EntityDoc> fixture_docs() {
  std::ifstream in(std::filesystem::path(HAMCP_SEARCH_TEST_DIR) / "fixtures" / "generated_1000_seed42.jsonl");
  return testing::read_docs_jsonl(in);
}

}  // namespace

TEST(EntryWords, PreparedWordsAreTheMapsOrderOnTheFixture) {
  const std::vector<EntityDoc> docs = fixture_docs();
  ASSERT_EQ(docs.size(), 1000u);
  for (const EntityDoc& doc : docs) {
    WordList all;
    PhraseList phrases;
    tokenise_fields(doc, all, phrases);
    const Merged expected = reference(all);
    EXPECT_EQ(merged(prepare_doc(doc).words), expected) << doc.entity_id;
    all.sort_and_merge();  // in place, as the store re-tokenises an old document
    EXPECT_EQ(merged(all), expected) << doc.entity_id;
  }
}

// A bulk build tokenises into a slot that held another document: the words
// and phrases are the new document's alone, as prepare_doc makes them.
TEST(EntryWords, PreparingInPlaceKeepsNothingOfTheSlotsLastDocument) {
  const std::vector<EntityDoc> docs = fixture_docs();
  PreparedDoc slot;
  for (std::size_t i = 0; i < 200; ++i) {
    const EntityDoc& doc = docs[(i * 389) % docs.size()];  // long and short documents in turn
    slot.doc = doc;
    prepare_in_place(slot);
    const PreparedDoc fresh = prepare_doc(doc);
    EXPECT_EQ(merged(slot.words), merged(fresh.words)) << doc.entity_id;
    EXPECT_EQ(slot.words.text, fresh.words.text) << doc.entity_id;
    ASSERT_EQ(slot.phrases.size(), fresh.phrases.size()) << doc.entity_id;
    slot.phrases = PhraseList();  // moved into the store by an insert
  }
}

TEST(EntryWords, SortAndMergeIsTheMapsOrderOnGeneratedWords) {
  // Code points: ASCII, Latin, Cyrillic (all within the sort keys), CJK, an
  // emoji and the last code point (beyond them), so words of both kinds meet.
  const std::u32string alphabet = U"abz09\u00E9\u0436\u6F22\U0001F600\U0010FFFF";
  std::mt19937 rng(42);
  for (int round = 0; round < 300; ++round) {
    WordList words;
    std::vector<std::u32string> made;
    const int n = 1 + static_cast<int>(rng() % 80);
    for (int i = 0; i < n; ++i) {
      std::u32string w;
      if (!made.empty() && rng() % 3 == 0) w = made[rng() % made.size()];  // a repeat or a prefix of one
      if (!w.empty() && rng() % 2 == 0) w.resize(rng() % w.size());
      const std::size_t extra = rng() % 9;
      for (std::size_t k = 0; k < extra; ++k) w.push_back(alphabet[rng() % (k < 6 ? 3 : alphabet.size())]);
      if (rng() % 4 == 0) w.push_back(alphabet[rng() % alphabet.size()]);
      made.push_back(w);
      words.add(w, {}, static_cast<FieldMask>(1u << (rng() % 12)));
    }
    const Merged expected = reference(words);
    WordList out;
    words.sort_and_merge_into(out);
    EXPECT_EQ(merged(out), expected) << "round " << round;
    words.sort_and_merge();
    EXPECT_EQ(merged(words), expected) << "round " << round;
  }
}

// fold_into reads ASCII by table; the same text through the general path
// (each character alone, then joined as fold joins them) must agree.
TEST(EntryWords, AsciiFoldsAsTheDocumentedRule) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const std::size_t n = rng() % 24;
    for (std::size_t i = 0; i < n; ++i) {
      if (rng() % 8 == 0)
        text += "\xC3\xA9";  // é: the general path between ASCII runs
      else
        text.push_back(static_cast<char>(rng() % 128));
    }
    std::u32string expected;  // lower-cased letters and digits; other runs one space, none at the ends
    bool gap = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      char32_t out = 0;
      if (c == 0xC3) {
        out = U'e';
        ++i;
      } else if (c >= 'A' && c <= 'Z') {
        out = c + 32;
      } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        out = c;
      }
      if (!out) {
        gap = !expected.empty();
        continue;
      }
      if (gap) expected.push_back(U' ');
      gap = false;
      expected.push_back(out);
    }
    EXPECT_EQ(fold(text), expected) << text;
  }
}

}  // namespace hamcp::search
