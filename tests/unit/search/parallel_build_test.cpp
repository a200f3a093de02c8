// EntityIndex::build on two threads (search/parallel_build.hpp): documents are
// made on a worker, tokenised by either thread, inserted by the caller, and
// the index is the same as one built document by document.
#include "search/parallel_build.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "search/entity_index.hpp"
#include "unit/search/doc_json.hpp"

namespace hamcp::search {
namespace {

// The 1,000-entity fixture, repeated under new ids until the build is big
// enough to go parallel.
std::vector<EntityDoc> big_home() {
  std::ifstream in(std::filesystem::path(HAMCP_SEARCH_TEST_DIR) / "fixtures" / "generated_1000_seed42.jsonl");
  const std::vector<EntityDoc> base = testing::read_docs_jsonl(in);
  std::vector<EntityDoc> docs;
  for (int copy = 0; docs.size() < kParallelBuildMin + 500; ++copy) {
    for (EntityDoc d : base) {
      if (copy > 0) d.entity_id += "_" + std::to_string(copy);
      docs.push_back(std::move(d));
    }
  }
  return docs;
}

std::vector<std::string> ids(const Result& r) {
  std::vector<std::string> out;
  for (const auto& h : r.hits) out.push_back(h.entity_id);
  return out;
}

}  // namespace

TEST(ParallelBuild, MakesTheDocumentsOnASecondThread) {
  const std::vector<EntityDoc> docs = big_home();
  EntityIndex index;
  std::thread::id produced_on;
  index.build(docs.size(), [&](const EntityIndex::DocSink& sink) {
    produced_on = std::this_thread::get_id();
    for (const auto& d : docs) sink(d);
  });
  EXPECT_NE(produced_on, std::this_thread::get_id());
  std::set<std::string> distinct;
  for (const auto& d : docs) distinct.insert(d.entity_id);
  EXPECT_EQ(index.size(), distinct.size());
}

TEST(ParallelBuild, ASmallBuildStaysOnTheCallingThread) {
  EntityIndex index;
  std::thread::id produced_on;
  index.build(10, [&](const EntityIndex::DocSink& sink) {
    produced_on = std::this_thread::get_id();
    EntityDoc d;
    d.entity_id = "light.a";
    sink(std::move(d));
  });
  EXPECT_EQ(produced_on, std::this_thread::get_id());
  EXPECT_EQ(index.size(), 1u);
}

// Same entities, tokens, postings and answers as inserting one by one (with
// a duplicate id: the last document wins, as before).
TEST(ParallelBuild, EqualsBuildingDocumentByDocument) {
  std::vector<EntityDoc> docs = big_home();
  EntityDoc renamed = docs[7];
  renamed.friendly_name = "Completely Different Name";
  docs.push_back(renamed);
  EntityIndex one_by_one;
  for (const auto& d : docs) one_by_one.upsert(d);
  EntityIndex built;
  built.build(docs);
  const IndexStats a = one_by_one.stats(), b = built.stats();
  EXPECT_EQ(a.entities, b.entities);
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(a.postings, b.postings);
  for (const char* text : {"kitchen light", "temperature", "completely different", "garage door", "bed"}) {
    Query q;
    q.text = text;
    q.limit = 50;
    const Result x = one_by_one.query(q), y = built.query(q);
    EXPECT_EQ(ids(x), ids(y)) << text;
    EXPECT_EQ(x.total, y.total) << text;
  }
  ASSERT_TRUE(built.find(renamed.entity_id));
  EXPECT_EQ(built.find(renamed.entity_id)->friendly_name, "Completely Different Name");
}

// Either thread may tokenise a document (the caller does while it would
// wait): the index is the same one the calling thread alone builds from the
// same documents, down to the slots' order, the stored documents and scores.
TEST(ParallelBuild, EqualsTheOneThreadBuild) {
  const std::vector<EntityDoc> docs = big_home();
  auto produce = [&docs](const EntityIndex::DocSink& sink) {
    for (const auto& d : docs) sink(d);
  };
  EntityIndex one_thread, two_threads;
  one_thread.build(1, produce);  // below kParallelBuildMin: no worker
  two_threads.build(docs.size(), produce);
  const std::vector<std::string> order = one_thread.entity_ids();
  ASSERT_EQ(order, two_threads.entity_ids());
  for (std::size_t i = 0; i < order.size(); i += 97) {
    const std::optional<EntityDoc> a = one_thread.find(order[i]), b = two_threads.find(order[i]);
    ASSERT_TRUE(a && b) << order[i];
    EXPECT_EQ(a->friendly_name, b->friendly_name) << order[i];
    EXPECT_EQ(a->area_name, b->area_name) << order[i];
    EXPECT_EQ(a->labels, b->labels) << order[i];
  }
  EXPECT_EQ(one_thread.stats().tokens, two_threads.stats().tokens);
  EXPECT_EQ(one_thread.stats().postings, two_threads.stats().postings);
  for (const char* text : {"kitchen light", "temperature", "garage door", "bed", "motion"}) {
    Query q;
    q.text = text;
    q.limit = 100;
    const Result x = one_thread.query(q), y = two_threads.query(q);
    ASSERT_EQ(x.hits.size(), y.hits.size()) << text;
    for (std::size_t i = 0; i < x.hits.size(); ++i) {
      EXPECT_EQ(x.hits[i].entity_id, y.hits[i].entity_id) << text;
      EXPECT_EQ(x.hits[i].score, y.hits[i].score) << text;
      EXPECT_EQ(x.hits[i].matched_text, y.hits[i].matched_text) << text;
    }
  }
}

// The worker's exception reaches the caller; the previous content stays.
TEST(ParallelBuild, AFailingProducerLeavesThePreviousIndex) {
  const std::vector<EntityDoc> docs = big_home();
  EntityIndex index;
  EntityDoc d;
  d.entity_id = "light.kept";
  index.upsert(d);
  EXPECT_THROW(index.build(docs.size(),
                           [&](const EntityIndex::DocSink& sink) {
                             for (std::size_t i = 0; i < docs.size(); ++i) {
                               if (i == 3000) throw std::runtime_error("registry went away");
                               sink(docs[i]);
                             }
                           }),
               std::runtime_error);
  EXPECT_EQ(index.size(), 1u);
  EXPECT_TRUE(index.find("light.kept"));
}

}  // namespace hamcp::search
