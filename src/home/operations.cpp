#include "home/operations.hpp"

#include <openssl/rand.h>

#include <stdexcept>

namespace hamcp::home {

std::string random_operation_id() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("OpenSSL RAND_bytes failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "op_";
  for (unsigned char b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 0x0f];
  }
  return id;
}

std::string OperationStore::create(std::string_view scope, boost::json::object initial) {
  std::string id = random_operation_id();
  initial["operation_id"] = id;
  if (!initial.contains("status")) initial["status"] = "pending";
  std::lock_guard lock(mutex_);
  records_[id] = Record{std::string(scope), std::move(initial)};
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
  for (auto& kv : fields) it->second.body[kv.key()] = std::move(kv.value());
}

std::optional<boost::json::object> OperationStore::get(std::string_view scope, const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = records_.find(id);
  if (it == records_.end() || it->second.scope != scope) return std::nullopt;
  return it->second.body;
}

std::size_t OperationStore::size() const {
  std::lock_guard lock(mutex_);
  return records_.size();
}

}  // namespace hamcp::home
