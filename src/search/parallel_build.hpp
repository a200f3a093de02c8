#pragma once
// A bulk build on two threads: the documents are made and tokenised on a
// worker thread (prepare_doc: no shared state) while the calling thread
// interns and inserts them, in the order produced, so the store ends up
// exactly as a one-thread build leaves it. The two halves cost about the same
// (a 100k-entity rebuild, bench/search/bench_doc_producer: making the
// documents plus tokenising ~0.6 s of CPU, interning and inserting ~0.5 s).
// Threading: produce runs on the worker only, store is touched by the caller
// only; batches cross between them through one mutex.
#include <functional>

#include "search/entity_index.hpp"

namespace hamcp::search {

class IndexStore;

// Below this many expected documents a build stays on the calling thread: a
// 10k home builds in ~0.15 s, and the batches in flight left ~1.7 MB of RSS
// behind there (bench/RESULTS-ha.md, step 12-sync).
inline constexpr std::size_t kParallelBuildMin = 50000;

// Exceptions from produce are rethrown here after the worker has finished.
void build_in_parallel(IndexStore& store, const std::function<void(const EntityIndex::DocSink&)>& produce);

}  // namespace hamcp::search
