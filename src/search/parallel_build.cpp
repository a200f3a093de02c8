#include "search/parallel_build.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
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

using Batch = std::vector<PreparedDoc>;

// Batches from the worker to the caller, in order.
class BatchQueue {
 public:
  // Blocks while kMaxBatches wait; drops the batch once the consumer gave up.
  void push(Batch batch) {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return batches_.size() < kMaxBatches || abandoned_; });
    if (abandoned_) return;
    batches_.push_back(std::move(batch));
    data_.notify_one();
  }
  // False once the producer finished and every batch was taken.
  bool pop(Batch& out) {
    std::unique_lock lock(mutex_);
    data_.wait(lock, [&] { return !batches_.empty() || finished_; });
    if (batches_.empty()) return false;
    out = std::move(batches_.front());
    batches_.pop_front();
    space_.notify_one();
    return true;
  }
  void finish(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    finished_ = true;
    error_ = std::move(error);
    data_.notify_all();
  }
  void abandon() {
    std::lock_guard lock(mutex_);
    abandoned_ = true;
    batches_.clear();
    space_.notify_all();
  }
  std::exception_ptr error() {
    std::lock_guard lock(mutex_);
    return error_;
  }
  // Inserted batches go back to the worker, which frees their documents:
  // freed by the thread that allocated them, the blocks are reused from its
  // own malloc cache (freed here they cost both threads a trip to the arena).
  void recycle(Batch batch) {
    std::lock_guard lock(mutex_);
    if (!abandoned_) used_.push_back(std::move(batch));
  }
  // An empty batch, with room for kBatch documents.
  Batch fresh_batch() {
    Batch out;
    {
      std::lock_guard lock(mutex_);
      if (!used_.empty()) {
        out = std::move(used_.front());
        used_.pop_front();
      }
    }
    out.clear();
    out.reserve(kBatch);
    return out;
  }

 private:
  std::mutex mutex_;
  std::condition_variable space_, data_;
  std::deque<Batch> batches_;
  std::deque<Batch> used_;
  bool finished_ = false;
  bool abandoned_ = false;
  std::exception_ptr error_;
};

void run_producer(BatchQueue& queue, const std::function<void(const EntityIndex::DocSink&)>& produce) {
  std::exception_ptr error;
  try {
    Batch batch = queue.fresh_batch();
    produce([&](EntityDoc d) {
      if (d.entity_id.empty()) return;
      batch.push_back(prepare_doc(std::move(d)));
      if (batch.size() < kBatch) return;
      queue.push(std::move(batch));
      batch = queue.fresh_batch();
    });
    if (!batch.empty()) queue.push(std::move(batch));
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
    Batch batch;
    while (queue.pop(batch)) {
      for (PreparedDoc& p : batch) store.upsert(std::move(p));
      queue.recycle(std::move(batch));
      batch = Batch();
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
