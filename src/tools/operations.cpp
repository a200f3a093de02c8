#include "tools/operations.hpp"

namespace hamcp::tools {

std::string OperationStore::create(boost::json::object initial) {
  std::lock_guard lock(mutex_);
  std::string id = "op_" + std::to_string(next_++);
  initial["operation_id"] = id;
  if (!initial.contains("status")) initial["status"] = "pending";
  records_[id] = std::move(initial);
  order_.push_back(id);
  while (order_.size() > capacity_) {
    records_.erase(order_.front());
    order_.pop_front();
  }
  return id;
}

void OperationStore::update(const std::string& id, boost::json::object fields) {
  std::lock_guard lock(mutex_);
  auto it = records_.find(id);
  if (it == records_.end()) return;
  for (auto& kv : fields) it->second[kv.key()] = std::move(kv.value());
}

std::optional<boost::json::object> OperationStore::get(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = records_.find(id);
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

std::size_t OperationStore::size() const {
  std::lock_guard lock(mutex_);
  return records_.size();
}

}  // namespace hamcp::tools
