#include "mcp/http/buffer_budget.hpp"

#include <vector>

#include "mcp/http/admission.hpp"

namespace hamcp::mcp::http {

bool BufferAccount::reserve(std::size_t bytes) {
  // Each pass frees one stream; bounded so a budget nothing can satisfy fails fast.
  for (int pass = 0; pass < 4096; ++pass) {
    if (try_take(used_, bytes, max_)) {
      if (!parent_ || parent_->reserve(bytes)) return true;
      used_ -= bytes;
      return false;
    }
    if (!evict_one()) return false;
  }
  return false;
}

void BufferAccount::force(std::size_t bytes) {
  used_ += bytes;
  if (parent_) parent_->force(bytes);
}

void BufferAccount::release(std::size_t bytes) {
  used_ -= bytes;
  if (parent_) parent_->release(bytes);
}

void BufferAccount::finished(const std::shared_ptr<EventStream>& stream) {
  {
    std::lock_guard lock(mutex_);
    // Streams forgotten by their session leave expired entries behind.
    if (finished_.size() >= 4096) std::erase_if(finished_, [](const auto& w) { return w.expired(); });
    finished_.push_back(stream);
  }
  if (parent_) parent_->finished(stream);
}

bool BufferAccount::evict_one() {
  std::vector<std::shared_ptr<EventStream>> candidates;
  {
    std::lock_guard lock(mutex_);
    std::erase_if(finished_, [](const auto& w) { return w.expired(); });
    for (auto& w : finished_) {
      if (auto s = w.lock()) candidates.push_back(std::move(s));
    }
  }
  // Outside our lock: evicting releases bytes into this and other accounts.
  for (auto& s : candidates) {
    if (!s->evict()) continue;  // still being read
    std::lock_guard lock(mutex_);
    std::erase_if(finished_, [&](const auto& w) { return w.lock() == s; });
    return true;
  }
  return false;
}

}  // namespace hamcp::mcp::http
