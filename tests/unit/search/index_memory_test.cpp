// The heap an index holds per entity, measured with mallinfo2 around a build
// of the frozen 1,000-entity generated home (documents freed as they are
// indexed, so what remains is the index alone). Before the compact layout
// (issue 9) it held 1,628 bytes per entity here; now ~800. The bound catches a
// return to per-entity std::strings, node maps keyed by copies of the ids or
// tokens, a token list per entity, or phrases with two strings each.
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
  EXPECT_LT(per_entity, 850.0);
  // Still answers after the compaction (the quality tests check the answers themselves).
  Query q;
  q.text = "living room ceiling light";
  EXPECT_FALSE(index.query(q).hits.empty());
}

}  // namespace
}  // namespace hamcp::search
