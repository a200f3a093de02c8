#include "search/parallel_build.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "search/entry_words.hpp"
#include "search/index_store.hpp"

namespace hamcp::search {
namespace {

constexpr std::size_t kBatch = 64;      // documents handed over at once
constexpr std::size_t kMaxBatches = 4;  // in flight: bounds the memory of a fast producer
constexpr std::size_t kClaim = 4;       // documents tokenised per claim (~10 us: one lock per claim)

// Documents in the order made. The worker makes them (only it can walk the
// snapshot); tokenising them (prepare_in_place) is claimed by either thread, so
// the caller tokenises while it would otherwise wait and the worker while the
// queue is full. Counters are guarded by the queue's mutex.
struct Batch {
  // docs [0, size): docs[i].doc only (its words still the slot's last
  // document's) until docs[i] is prepared; past size: a recycled batch's
  // documents, freed one by one as their slots are reused.
  std::vector<PreparedDoc> docs;
  std::size_t size = 0;
  std::size_t claimed = 0;  // docs [0, claimed) are being or have been prepared
  std::size_t prepared = 0;
  bool ready() const { return prepared == size; }
  // The worker's next document. The slot's previous one is freed here, not
  // with the whole batch: freed one document at a time between allocations
  // of the same sizes, its blocks are reused from this thread's malloc cache
  // (tcache: 7 blocks per size). Freeing 64 at once overflowed it, and every
  // allocation and free then took the one arena's lock, against the other
  // thread (M_ARENA_MAX=1). The slot's word list is kept: tokenising into it
  // (prepare_in_place) reuses its buffers, on either thread.
  void add(EntityDoc doc) {
    if (size == docs.size()) {
      docs.emplace_back();
    } else {
      EntityDoc gone = std::move(docs[size].doc);
    }
    docs[size++].doc = std::move(doc);
  }
};
using BatchPtr = std::unique_ptr<Batch>;

// A claim: docs [from, to) of one batch, prepared outside the lock.
struct Claim {
  Batch* batch = nullptr;
  std::size_t from = 0, to = 0;
};

class BatchQueue {
 public:
  // Drops the batch once the caller gave up.
  void push(BatchPtr batch) {
    std::lock_guard lock(mutex_);
    if (abandoned_) return;
    batches_.push_back(std::move(batch));
    data_.notify_one();
  }
  // The worker, after a push: tokenises queued documents while kMaxBatches
  // wait (the caller is the slower side then), returns once there is room.
  void help_while_full() {
    std::unique_lock lock(mutex_);
    while (!abandoned_ && batches_.size() >= kMaxBatches)
      if (!help_once(lock)) space_.wait(lock);
  }
  // The worker, when every document was made: tokenises what is unclaimed.
  void help_to_end() {
    std::unique_lock lock(mutex_);
    while (!abandoned_ && help_once(lock)) {
    }
  }
  // The caller: the oldest batch once all its documents are prepared
  // (tokenising queued documents itself meanwhile); null once the worker
  // finished and every batch was taken, or it failed.
  Batch* next_ready() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (error_) return nullptr;
      if (!batches_.empty() && batches_.front()->ready()) return batches_.front().get();
      if (batches_.empty() && finished_) return nullptr;
      if (!help_once(lock)) data_.wait(lock);
    }
  }
  // The caller, after inserting the front batch: it goes back to the worker,
  // which frees its documents as it reuses their slots (Batch::add): freed by
  // the thread that allocated them, the blocks are reused from its own malloc
  // cache (freed here they cost both threads a trip to the arena).
  void pop_front() {
    std::lock_guard lock(mutex_);
    used_.push_back(std::move(batches_.front()));
    batches_.pop_front();
    space_.notify_one();
  }
  // A batch to fill (a recycled one keeps its old documents until their slots are reused).
  BatchPtr fresh_batch() {
    BatchPtr out;
    {
      std::lock_guard lock(mutex_);
      if (!used_.empty()) {
        out = std::move(used_.front());
        used_.pop_front();
      }
    }
    if (!out) {
      out = std::make_unique<Batch>();
      out->docs.reserve(kBatch);
    }
    out->size = out->claimed = out->prepared = 0;
    return out;
  }
  void finish(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    finished_ = true;
    error_ = std::move(error);
    data_.notify_all();
  }
  // The batches stay until the queue is destroyed, after the worker joined:
  // it may be tokenising one of them.
  void abandon() {
    std::lock_guard lock(mutex_);
    abandoned_ = true;
    space_.notify_all();
  }
  std::exception_ptr error() {
    std::lock_guard lock(mutex_);
    return error_;
  }

 private:
  // The oldest unclaimed documents: the caller needs the front batch first.
  Claim claim() {
    for (const BatchPtr& b : batches_) {
      if (b->claimed == b->size) continue;
      Claim c{b.get(), b->claimed, std::min(b->claimed + kClaim, b->size)};
      b->claimed = c.to;
      return c;
    }
    return {};
  }
  // Claims the oldest unclaimed documents and tokenises them; false when
  // none was left to claim (the caller then waits or stops).
  bool help_once(std::unique_lock<std::mutex>& lock) {
    const Claim c = claim();
    if (!c.batch) return false;
    prepare(lock, c);
    return true;
  }
  // Tokenises c's documents outside the lock. A throw leaves them unprepared:
  // the caller then waits for nothing (the worker's failure ends the build,
  // the caller's own throw abandons it).
  void prepare(std::unique_lock<std::mutex>& lock, const Claim& c) {
    lock.unlock();
    for (std::size_t i = c.from; i < c.to; ++i) prepare_in_place(c.batch->docs[i]);
    lock.lock();
    c.batch->prepared += c.to - c.from;
    if (c.batch->ready()) data_.notify_one();
  }

  std::mutex mutex_;
  std::condition_variable space_, data_;
  std::deque<BatchPtr> batches_;
  std::deque<BatchPtr> used_;
  bool finished_ = false;
  bool abandoned_ = false;
  std::exception_ptr error_;
};

void run_producer(BatchQueue& queue, const std::function<void(const EntityIndex::DocSink&)>& produce) {
  std::exception_ptr error;
  try {
    BatchPtr batch = queue.fresh_batch();
    produce([&](EntityDoc d) {
      if (d.entity_id.empty()) return;
      batch->add(std::move(d));
      if (batch->size < kBatch) return;
      queue.push(std::move(batch));
      queue.help_while_full();
      batch = queue.fresh_batch();
    });
    if (batch->size > 0) queue.push(std::move(batch));
    queue.help_to_end();
  } catch (...) {
    error = std::current_exception();
  }
  queue.finish(error);
}

}  // namespace

void build_in_parallel(IndexStore& store, const std::function<void(const EntityIndex::DocSink&)>& produce) {
  BatchQueue queue;
  std::thread producer([&queue, &produce] { run_producer(queue, produce); });
  try {
    while (Batch* batch = queue.next_ready()) {
      for (std::size_t i = 0; i < batch->size; ++i) store.upsert(std::move(batch->docs[i]));
      queue.pop_front();
    }
  } catch (...) {
    queue.abandon();
    producer.join();
    throw;
  }
  producer.join();
  if (std::exception_ptr error = queue.error()) std::rethrow_exception(error);
}

}  // namespace hamcp::search
