#pragma once
// Memory budget of buffered SSE events (answers waiting to be written, and
// finished streams kept for Last-Event-ID resumption). Each session has an
// account chained to one global account; an event is stored only once both
// have room. Room is made by evicting the oldest finished streams (their
// answers were already written; only resumption is lost), first the session's
// own, then, for the global budget, anyone's. See EventAccount.

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>

#include "mcp/http/event_stream.hpp"

namespace hamcp::mcp::http {

class BufferAccount final : public EventAccount {
 public:
  BufferAccount(std::size_t max_bytes, std::shared_ptr<BufferAccount> parent = nullptr)
      : max_(max_bytes), parent_(std::move(parent)) {}

  bool reserve(std::size_t bytes) override;
  void force(std::size_t bytes) override;
  void release(std::size_t bytes) override;
  void finished(const std::shared_ptr<EventStream>& stream) override;

  std::size_t used() const { return used_.load(); }
  std::size_t max() const { return max_; }

 private:
  // Evicts the oldest finished stream nobody is reading. False if none.
  bool evict_one();
  const std::size_t max_;
  const std::shared_ptr<BufferAccount> parent_;
  std::atomic<std::size_t> used_{0};
  std::mutex mutex_;
  std::deque<std::weak_ptr<EventStream>> finished_;  // oldest first
};

}  // namespace hamcp::mcp::http
