#pragma once
// Recent service calls and their verification, so a model can ask later
// (ha_get_operation_status) what a call without `wait`, or a bulk run, did.
// Bounded: the oldest records are dropped beyond `capacity`.

#include <boost/json/object.hpp>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace hamcp::tools {

class OperationStore {
 public:
  explicit OperationStore(std::size_t capacity = 1000) : capacity_(capacity) {}

  // New record {operation_id, status:"pending", ...initial}; returns its id ("op_1", ...).
  std::string create(boost::json::object initial);
  // Replaces members of an existing record (no-op for an unknown/evicted id).
  void update(const std::string& id, boost::json::object fields);
  std::optional<boost::json::object> get(const std::string& id) const;
  std::size_t size() const;

 private:
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::uint64_t next_ = 1;
  std::deque<std::string> order_;
  std::unordered_map<std::string, boost::json::object> records_;
};

}  // namespace hamcp::tools
