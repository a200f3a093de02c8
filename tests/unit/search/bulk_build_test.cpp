// IndexStore's bulk building (begin_bulk / end_bulk): a fresh index notes its
// postings in one flat list and gives each token its list once, at its final
// size, instead of growing ~13k lists by doubling (which left their old blocks
// as holes in the heap). The result must be the index an insert-by-insert
// build makes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "search/index_store.hpp"
#include "unit/search/doc_json.hpp"

namespace hamcp::search {
namespace {

std::vector<EntityDoc> generated_home() {
  std::ifstream in(std::filesystem::path(HAMCP_SEARCH_TEST_DIR) / "fixtures" / "generated_1000_seed42.jsonl");
  return testing::read_docs_jsonl(in);
}

// Every token's text and postings (slot and fields), in token-id order.
void expect_same_postings(const IndexStore& a, const IndexStore& b) {
  ASSERT_EQ(a.tokens().size(), b.tokens().size());
  for (std::size_t t = 0; t < a.tokens().size(); ++t) {
    const Token& x = a.tokens()[t];
    const Token& y = b.tokens()[t];
    ASSERT_TRUE(x.text == y.text) << "token " << t;
    ASSERT_EQ(x.postings.size(), y.postings.size()) << "token " << t;
    for (std::size_t i = 0; i < x.postings.size(); ++i) {
      EXPECT_EQ(x.postings[i].slot(), y.postings[i].slot());
      EXPECT_EQ(x.postings[i].fields, y.postings[i].fields);
    }
  }
}

TEST(BulkBuild, GivesTheSamePostingsAsInsertingOneByOne) {
  const std::vector<EntityDoc> docs = generated_home();
  IndexStore one_by_one;
  for (const auto& d : docs) one_by_one.upsert(d);
  IndexStore bulk;
  bulk.begin_bulk(docs.size());
  for (const auto& d : docs) bulk.upsert(d);
  bulk.end_bulk();
  expect_same_postings(one_by_one, bulk);
  EXPECT_EQ(bulk.stats().postings, one_by_one.stats().postings);
}

TEST(BulkBuild, AllocatesEveryListAtItsFinalSize) {
  const std::vector<EntityDoc> docs = generated_home();
  IndexStore bulk;
  bulk.begin_bulk(docs.size());
  for (const auto& d : docs) bulk.upsert(d);
  bulk.end_bulk();  // no shrink_to_fit: the lists must already be exact
  std::size_t lists = 0;
  for (const Token& t : bulk.tokens()) {
    if (t.postings.empty()) continue;
    ++lists;
    EXPECT_EQ(t.postings.capacity(), t.postings.size()) << "a list grew by doubling";
  }
  EXPECT_GT(lists, 1000u);
}

// A document for an id already in the store (a replacement) or a removal
// reads postings back: the bulk ends first, and the result stays exact.
TEST(BulkBuild, AReplacementOrRemovalInTheMiddleEndsTheBulkFirst) {
  std::vector<EntityDoc> docs = generated_home();
  EntityDoc renamed = docs[10];
  renamed.friendly_name = "Completely Different Name";
  IndexStore one_by_one, bulk;
  bulk.begin_bulk(docs.size());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    one_by_one.upsert(docs[i]);
    bulk.upsert(docs[i]);
    if (i == 500) {
      one_by_one.upsert(renamed);
      bulk.upsert(renamed);
      EXPECT_TRUE(one_by_one.remove(docs[20].entity_id));
      EXPECT_TRUE(bulk.remove(docs[20].entity_id));
    }
  }
  bulk.end_bulk();
  expect_same_postings(one_by_one, bulk);
  const Token* t = bulk.token(U"completely");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->postings.size(), 1u);
  EXPECT_EQ(t->postings[0].slot(), *bulk.slot_of(renamed.entity_id));
}

// A bulk may begin on a store that has entities: its new slots come after
// theirs, so every list stays sorted by slot.
TEST(BulkBuild, AppendsAfterEntitiesAlreadyThere) {
  const std::vector<EntityDoc> docs = generated_home();
  IndexStore one_by_one, bulk;
  for (std::size_t i = 0; i < 300; ++i) {
    one_by_one.upsert(docs[i]);
    bulk.upsert(docs[i]);
  }
  bulk.begin_bulk(docs.size() - 300);
  for (std::size_t i = 300; i < docs.size(); ++i) {
    one_by_one.upsert(docs[i]);
    bulk.upsert(docs[i]);
  }
  bulk.end_bulk();
  expect_same_postings(one_by_one, bulk);
}

}  // namespace
}  // namespace hamcp::search
