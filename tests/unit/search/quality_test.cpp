// Search quality on the labelled query set (queries.tsv) over frozen snapshots
// of simulated homes (fixtures/*.jsonl). Prints Recall@1, Recall@5 and MRR per
// category and overall, lists the misses, and fails below the thresholds that
// bench/search/RESULTS.md records (set from measured values, with a margin).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>

#include "search/entity_index.hpp"
#include "unit/search/doc_json.hpp"

namespace hamcp::search {
namespace {

// Thresholds (see bench/search/RESULTS.md for the measured values).
constexpr double kMinRecall1 = 0.95;
constexpr double kMinRecall5 = 0.99;
constexpr double kMinMrr = 0.97;

const std::filesystem::path kDir = HAMCP_SEARCH_TEST_DIR;

struct Labelled {
  std::string home, category, text;
  std::vector<std::string> expected;
  int line = 0;
};

std::vector<Labelled> load_queries() {
  std::ifstream in(kDir / "queries.tsv");
  EXPECT_TRUE(in.good()) << "cannot open " << (kDir / "queries.tsv");
  std::vector<Labelled> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) cols.push_back(col);
    EXPECT_EQ(cols.size(), 4u) << "queries.tsv line " << n;
    if (cols.size() != 4) continue;
    Labelled q{cols[0], cols[1], cols[2], {}, n};
    std::stringstream ids(cols[3]);
    while (std::getline(ids, col, ','))
      if (!col.empty()) q.expected.push_back(col);
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<EntityDoc> load_home(const std::string& name) {
  std::string file = name == "demo" ? "demo_home.jsonl" : "generated_1000_seed42.jsonl";
  std::ifstream in(kDir / "fixtures" / file);
  EXPECT_TRUE(in.good()) << "cannot open fixture " << file;
  return testing::read_docs_jsonl(in);
}

struct Tally {
  int n = 0, r1 = 0, r5 = 0;
  double rr = 0;
};

TEST(SearchQuality, LabelledQueries) {
  auto queries = load_queries();
  ASSERT_GE(queries.size(), 100u);
  std::map<std::string, std::unique_ptr<EntityIndex>> homes;
  std::map<std::string, std::unordered_set<std::string>> known;
  for (const char* h : {"demo", "gen"}) {
    auto docs = load_home(h);
    for (const auto& d : docs) known[h].insert(d.entity_id);
    homes[h] = std::make_unique<EntityIndex>(std::move(docs));
  }
  ASSERT_GE(known["gen"].size(), 1000u);

  std::map<std::string, Tally> by_cat;
  Tally all, tuned, holdout;
  std::ostringstream misses;
  for (const auto& q : queries) {
    ASSERT_TRUE(homes.count(q.home)) << "unknown home on line " << q.line;
    for (const auto& id : q.expected)
      ASSERT_TRUE(known[q.home].count(id)) << "line " << q.line << ": " << id << " is not in home " << q.home;
    Query query;
    query.text = q.text;
    query.limit = 10;
    auto r = homes[q.home]->query(query);
    int rank = 0;
    for (std::size_t i = 0; i < r.hits.size() && !rank; ++i)
      for (const auto& id : q.expected)
        if (r.hits[i].entity_id == id) rank = static_cast<int>(i) + 1;
    Tally& split = q.category.rfind("holdout", 0) == 0 ? holdout : tuned;
    for (Tally* t : {&all, &by_cat[q.category], &split}) {
      ++t->n;
      t->r1 += rank == 1;
      t->r5 += rank >= 1 && rank <= 5;
      t->rr += rank ? 1.0 / rank : 0.0;
    }
    if (rank != 1) {
      misses << "  [" << q.home << "/" << q.category << "] \"" << q.text << "\" expected " << q.expected[0]
             << (q.expected.size() > 1 ? " (or others)" : "") << ", rank " << (rank ? std::to_string(rank) : "-")
             << "; top: ";
      for (std::size_t i = 0; i < std::min<std::size_t>(3, r.hits.size()); ++i)
        misses << r.hits[i].entity_id << " (" << r.hits[i].score << ") ";
      misses << "\n";
    }
  }
  auto line = [](const std::string& name, const Tally& t) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(3) << "  " << std::left << std::setw(20) << name << " n=" << std::setw(4)
      << t.n << " R@1=" << double(t.r1) / t.n << " R@5=" << double(t.r5) / t.n << " MRR=" << t.rr / t.n << "\n";
    return o.str();
  };
  std::cout << "Search quality (" << all.n << " labelled queries):\n";
  for (const auto& [cat, t] : by_cat) std::cout << line(cat, t);
  std::cout << line("TUNED", tuned) << line("HOLDOUT", holdout) << line("ALL", all);
  std::cout << "Queries not ranked first:\n" << misses.str();

  double r1 = double(all.r1) / all.n, r5 = double(all.r5) / all.n, mrr = all.rr / all.n;
  EXPECT_GE(r1, kMinRecall1);
  EXPECT_GE(r5, kMinRecall5);
  EXPECT_GE(mrr, kMinMrr);
}

}  // namespace
}  // namespace hamcp::search
