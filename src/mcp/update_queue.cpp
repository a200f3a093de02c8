#include "mcp/update_queue.hpp"

#include <algorithm>

namespace hamcp::mcp {

std::chrono::milliseconds congested_delay(std::chrono::milliseconds base, std::chrono::milliseconds max,
                                          unsigned retries) {
  std::chrono::milliseconds delay = std::max(base, std::chrono::milliseconds(1));
  for (unsigned i = 0; i < retries && delay < max; ++i) delay *= 2;
  return std::min(delay, std::max(max, std::chrono::milliseconds(1)));
}

UpdateQueue::Mark UpdateQueue::mark(std::string_view uri) {
  std::string key(uri);
  if (pending_.count(key)) {
    ++coalesced_;
    return Mark::coalesced;
  }
  if (order_.size() >= max_pending_) {
    ++dropped_;
    return Mark::dropped;
  }
  pending_.insert(key);
  order_.push_back(std::move(key));
  return Mark::queued;
}

std::vector<std::string> UpdateQueue::take(std::size_t max) {
  std::vector<std::string> out;
  while (!order_.empty() && out.size() < max) {
    pending_.erase(order_.front());
    out.push_back(std::move(order_.front()));
    order_.pop_front();
  }
  return out;
}

void UpdateQueue::forget(std::string_view uri) {
  const std::string key(uri);
  if (pending_.erase(key) == 0) return;
  order_.erase(std::find(order_.begin(), order_.end(), key));
}

void UpdateQueue::clear() {
  order_.clear();
  pending_.clear();
}

}  // namespace hamcp::mcp
