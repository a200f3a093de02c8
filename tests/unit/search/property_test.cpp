// Randomised (fixed-seed, bounded) checks of invariants that must hold for any
// input: incremental updates equal a rebuild, results are well-formed for
// arbitrary bytes, normalisation is idempotent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "search/entity_index.hpp"
#include "search/normalize.hpp"
#include "unit/search/doc_json.hpp"

namespace hamcp::search {
namespace {

std::vector<EntityDoc> generated_home() {
  std::ifstream in(std::filesystem::path(HAMCP_SEARCH_TEST_DIR) / "fixtures" / "generated_1000_seed42.jsonl");
  return testing::read_docs_jsonl(in);
}

std::vector<std::string> ids(const Result& r) {
  std::vector<std::string> out;
  for (const auto& h : r.hits) out.push_back(h.entity_id);
  return out;
}

TEST(SearchProperties, RandomUpdatesEqualRebuild) {
  auto docs = generated_home();
  ASSERT_GE(docs.size(), 1000u);
  EntityIndex inc(docs);
  std::map<std::string, EntityDoc> truth;
  for (const auto& d : docs) truth[d.entity_id] = d;
  std::mt19937 rng(12345);
  const std::vector<std::string> words = {"Lamp", "Küche", "Sensor", "Garage", "Blue", "Ceiling", "Wohnzimmer", "TV"};
  for (int op = 0; op < 600; ++op) {
    const EntityDoc& pick = docs[rng() % docs.size()];
    switch (rng() % 5) {
      case 0:  // remove
        inc.remove(pick.entity_id);
        truth.erase(pick.entity_id);
        break;
      case 1: {  // (re)insert the original
        inc.upsert(pick);
        truth[pick.entity_id] = pick;
        break;
      }
      case 2: {  // rename
        EntityDoc d = truth.count(pick.entity_id) ? truth[pick.entity_id] : pick;
        d.friendly_name = words[rng() % words.size()] + " " + words[rng() % words.size()];
        inc.upsert(d);
        truth[d.entity_id] = d;
        break;
      }
      case 3: {  // aliases/labels/area change
        EntityDoc d = truth.count(pick.entity_id) ? truth[pick.entity_id] : pick;
        d.aliases = {words[rng() % words.size()]};
        d.labels = {words[rng() % words.size()]};
        d.area_name = words[rng() % words.size()];
        inc.upsert(d);
        truth[d.entity_id] = d;
        break;
      }
      default: {  // state/flags only
        EntityDoc d = truth.count(pick.entity_id) ? truth[pick.entity_id] : pick;
        d.state = (rng() % 2) ? "on" : "off";
        d.hidden = rng() % 7 == 0;
        inc.upsert(d);
        truth[d.entity_id] = d;
        break;
      }
    }
  }
  std::vector<EntityDoc> final_docs;
  for (auto& [id, d] : truth) final_docs.push_back(d);
  EntityIndex fresh(final_docs);
  EXPECT_EQ(inc.size(), fresh.size());
  EXPECT_EQ(inc.stats().tokens, fresh.stats().tokens);
  EXPECT_EQ(inc.stats().postings, fresh.stats().postings);
  for (const char* text : {"lamp", "küche", "garage door", "blue ceiling", "wohnzimmer tv", "sensor", "light",
                           "kitchen temperature", "livng room", ""}) {
    Query q;
    q.text = text;
    q.limit = 25;
    auto a = inc.query(q);
    auto b = fresh.query(q);
    EXPECT_EQ(ids(a), ids(b)) << text;
    EXPECT_EQ(a.total, b.total) << text;
    q.state = "off";
    q.include_hidden = true;
    EXPECT_EQ(ids(inc.query(q)), ids(fresh.query(q))) << text << " (filtered)";
  }
}

TEST(SearchProperties, ArbitraryBytesGiveWellFormedResults) {
  EntityIndex idx(generated_home());
  std::mt19937 rng(777);
  const std::string alphabet =
      "abcdefghijklmnopqrstuvwxyz _.-\xC3\xBC\xC3\x9F\xCE\xA9\xD0\x96\xE2\x80\x94\xF0\x9F\x92\xA1\xFF\x80";
  for (int i = 0; i < 400; ++i) {
    std::string text;
    const std::size_t len = rng() % 40;
    for (std::size_t k = 0; k < len; ++k) text.push_back(alphabet[rng() % alphabet.size()]);
    Query q;
    q.text = text;
    q.limit = rng() % 12;
    q.offset = rng() % 5;
    Result r = idx.query(q);
    ASSERT_LE(r.hits.size(), q.limit) << text;
    EXPECT_EQ(r.has_more, q.offset + r.hits.size() < r.total) << text;
    for (std::size_t k = 0; k < r.hits.size(); ++k) {
      EXPECT_GE(r.hits[k].score, 0.0);
      EXPECT_LE(r.hits[k].score, 100.0);
      if (k > 0) {
        EXPECT_GE(r.hits[k - 1].score, r.hits[k].score) << text;
        if (r.hits[k - 1].score == r.hits[k].score) {
          EXPECT_LT(r.hits[k - 1].entity_id, r.hits[k].entity_id) << text;
        }
      }
    }
    // Normalisation is idempotent: folding folded text changes nothing.
    std::string once = fold_key(text);
    EXPECT_EQ(fold_key(once), once) << text;
  }
}

}  // namespace
}  // namespace hamcp::search
