#pragma once
// A bulk build on two threads: the documents are made on a worker thread,
// tokenised (prepare_doc: no shared state) by whichever thread is free (the
// caller while it would wait, the worker while the queue is full), and
// interned and inserted by the calling thread in the order produced, so the
// store ends up exactly as a one-thread build leaves it. Making ~0.3 s,
// tokenising ~0.3 s, inserting ~0.45 s of CPU at 100k entities
// (bench/search/bench_doc_producer): with the worker making and tokenising
// alone, the caller waited ~40 % of the build.
// Threading: produce runs on the worker only, store is touched by the caller
// only; batches and their counters cross between them under one mutex; the
// worker frees the documents it made, and the slots' word lists are reused
// rather than freed (one malloc arena: see Batch::add).
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
