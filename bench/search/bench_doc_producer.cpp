// The producer side of a bulk index build (search::build_in_parallel's
// worker): making every entity's document from the mirror's snapshot
// (home::for_each_doc) and tokenising it (search::prepare_doc), on a
// generated home (sim::generate_home(n, 42)) packed as the mirror packs it.
//   BM_ForEachDoc/<n>  documents only
//   BM_PrepareDocs/<n> prepare_doc over the documents made beforehand (their copy not timed)
//   BM_Producer/<n>    both, as the worker runs them (the results dropped at once)
//   BM_Consumer/<n>    the other half: IndexStore::upsert of the prepared documents (made beforehand)
//   BM_EndBulk/<n>     IndexStore::end_bulk after a bulk of inserts (those not timed)
//   BM_IndexBuild/<n>  EntityIndex::build as SearchFeed runs it (two threads at 100k; wall time)
// Uses only the public API, so the same source builds against an older tree
// for a before/after. Run: build-*/bench/search/bench_doc_producer --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <vector>

#include "home/entity_docs.hpp"
#include "search/entity_index.hpp"
#include "search/entry_words.hpp"
#include "search/index_store.hpp"
#include "unit/home/sim_snapshot.hpp"

namespace {

using namespace hamcp;

const ha::Snapshot& snapshot_for(std::size_t n) {
  static std::map<std::size_t, ha::SnapshotPtr> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, home::testing::snapshot_of(sim::generate_home(n, 42))).first;
  return *it->second;
}

void BM_ForEachDoc(benchmark::State& state) {
  const ha::Snapshot& snap = snapshot_for(static_cast<std::size_t>(state.range(0)));
  std::size_t docs = 0;
  for (auto _ : state) {
    home::for_each_doc(snap, [&](search::EntityDoc d) {
      benchmark::DoNotOptimize(d.entity_id.data());
      ++docs;
    });
  }
  state.counters["docs"] = static_cast<double>(docs) / static_cast<double>(state.iterations());
}

void BM_PrepareDocs(benchmark::State& state) {
  const std::vector<search::EntityDoc> docs =
      home::make_all_docs(snapshot_for(static_cast<std::size_t>(state.range(0))));
  std::size_t words = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<search::EntityDoc> copy = docs;
    state.ResumeTiming();
    for (auto& d : copy) {
      search::PreparedDoc p = search::prepare_doc(std::move(d));
      words += p.words.words.size();
    }
  }
  state.counters["words_per_doc"] = static_cast<double>(words) / static_cast<double>(state.iterations() * docs.size());
}

void BM_Producer(benchmark::State& state) {
  const ha::Snapshot& snap = snapshot_for(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    home::for_each_doc(snap, [&](search::EntityDoc d) {
      search::PreparedDoc p = search::prepare_doc(std::move(d));
      benchmark::DoNotOptimize(p.words.words.data());
    });
  }
}

void BM_Consumer(benchmark::State& state) {
  const ha::Snapshot& snap = snapshot_for(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<search::PreparedDoc> prepared;
    prepared.reserve(home::doc_count_hint(snap));
    home::for_each_doc(snap, [&](search::EntityDoc d) { prepared.push_back(search::prepare_doc(std::move(d))); });
    auto store = std::make_unique<search::IndexStore>();
    store->reserve(prepared.size());
    state.ResumeTiming();
    for (auto& p : prepared) store->upsert(std::move(p));
    state.PauseTiming();
    store.reset();
    prepared.clear();
    state.ResumeTiming();
  }
}

// The end of a bulk build alone: every token's posting list given its final
// size and filled from the deferred postings (IndexStore::end_bulk), after
// the inserts (not timed). It runs on one thread once both are done.
void BM_EndBulk(benchmark::State& state) {
  const ha::Snapshot& snap = snapshot_for(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    auto store = std::make_unique<search::IndexStore>();
    store->reserve(home::doc_count_hint(snap));
    store->begin_bulk(home::doc_count_hint(snap));
    home::for_each_doc(snap, [&](search::EntityDoc d) { store->upsert(search::prepare_doc(std::move(d))); });
    state.ResumeTiming();
    store->end_bulk();
    state.PauseTiming();
    store.reset();
    state.ResumeTiming();
  }
}

void BM_IndexBuild(benchmark::State& state) {
  const ha::Snapshot& snap = snapshot_for(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto index = std::make_unique<search::EntityIndex>();
    index->build(home::doc_count_hint(snap), [&](const search::EntityIndex::DocSink& sink) {
      home::for_each_doc(snap, [&](search::EntityDoc d) { sink(std::move(d)); });
    });
    state.PauseTiming();  // the index's destruction is not the build
    index.reset();
    state.ResumeTiming();
  }
}

BENCHMARK(BM_ForEachDoc)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PrepareDocs)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Producer)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Consumer)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EndBulk)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IndexBuild)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
