// The heap an index holds per entity, measured with mallinfo2 around a build
// of the frozen 1,000-entity generated home (documents freed as they are
// indexed, so what remains is the index alone). Before the compact layout
// (issue 9) it held 1,628 bytes per entity here; ~800 with it; ~730 since a
// posting takes 6 bytes and an entry 72 (was 104); ~707 since the entities of a
// room share one list of area/floor keys (KeyLists). The bound catches a return to
// per-entity std::strings, node maps keyed by copies of the ids or tokens, a token
// list per entity, phrases with two strings each, 8-byte postings, or a key list per entity.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "search/entity_index.hpp"
#include "unit/heap_in_use.hpp"
#include "unit/search/doc_json.hpp"

namespace hamcp::search {
namespace {

using hamcp::testing::heap_in_use;
using hamcp::testing::kSanitized;

std::vector<EntityDoc> generated_home() {
  std::ifstream in(std::filesystem::path(HAMCP_SEARCH_TEST_DIR) / "fixtures" / "generated_1000_seed42.jsonl");
  return testing::read_docs_jsonl(in);
}

TEST(IndexMemory, HoldsAboutHalfItsFormerHeapPerEntity) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  std::vector<EntityDoc> docs = generated_home();
  ASSERT_GE(docs.size(), 1000u);
  const std::size_t n = docs.size();
  const std::size_t before = heap_in_use();
  auto copy = std::make_unique<std::vector<EntityDoc>>(docs);
  EntityIndex index(std::move(*copy));
  copy.reset();
  const std::size_t held = heap_in_use() - before;
  const double per_entity = static_cast<double>(held) / static_cast<double>(n);
  RecordProperty("bytes_per_entity", static_cast<int>(per_entity));
  std::printf("index heap: %zu bytes for %zu entities, %.0f per entity\n", held, n, per_entity);
  EXPECT_EQ(index.size(), n);
  EXPECT_LT(per_entity, 720.0);
  // Still answers after the compaction (the quality tests check the answers themselves).
  Query q;
  q.text = "living room ceiling light";
  EXPECT_FALSE(index.query(q).hits.empty());
}

// Heap of an index of n entities that all have the same friendly name.
std::size_t heap_of_index(std::size_t n, const std::string& friendly_name) {
  const std::size_t before = heap_in_use();
  std::vector<EntityDoc> docs(n);
  for (std::size_t i = 0; i < n; ++i) {
    docs[i].entity_id = "light.l" + std::to_string(i);
    docs[i].friendly_name = friendly_name;
  }
  EntityIndex index(std::move(docs));
  EXPECT_EQ(index.size(), n);
  return heap_in_use() - before;
}

// What one posting (an entity holding a token) costs: two homes whose
// entities differ only in their names' word count, names of equal length
// (same packed document and phrase size). 15 words make 29 tokens (the words
// and the 14 joined neighbour pairs), one 29-letter word one token: 28 more
// postings per entity. A {u32 slot, u16 fields} posting padded to 8 bytes.
TEST(IndexMemory, APostingCostsSixBytes) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  constexpr std::size_t kEntities = 20000;
  const std::string one_word(29, 'q');
  const std::string fifteen_words = "a b c d e f g h i j k l m n o";
  ASSERT_EQ(one_word.size(), fifteen_words.size());
  const std::size_t few = heap_of_index(kEntities, one_word);
  const std::size_t many = heap_of_index(kEntities, fifteen_words);
  ASSERT_GT(many, few);
  const double per_posting = static_cast<double>(many - few) / static_cast<double>(kEntities * 28);
  std::printf("%.2f bytes per posting\n", per_posting);
  EXPECT_GT(per_posting, 5.5);  // the 28 postings are really there
  EXPECT_LT(per_posting, 7.0);
}

}  // namespace
}  // namespace hamcp::search
