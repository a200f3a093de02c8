#pragma once
// Recent service calls and their verification, so a model can ask later
// (ha_get_operation_status) what a call without `wait`, or a bulk run, did.
// Bounded: the oldest records are dropped beyond `capacity`.
//
// Ids are 128 random bits ("op_" + 32 hex digits): never reused, so after a
// restart (the store is in memory; HTTP sessions survive) an old id finds
// nothing rather than another operation, and no id can be guessed. Each
// record belongs to the session that made it (its `scope`); another session
// asking for it is told the id is unknown, exactly as for a made-up one.

#include <boost/json/object.hpp>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hamcp::home {

class OperationStore {
 public:
  explicit OperationStore(std::size_t capacity = 1000) : capacity_(capacity) {}

  // New record {operation_id, status:"pending", ...initial} owned by `scope`
  // (the MCP session id; "" for stdio); returns its id.
  std::string create(std::string_view scope, boost::json::object initial);
  // Replaces members of an existing record (no-op for an unknown/evicted id).
  void update(const std::string& id, boost::json::object fields);
  // The record, only when `scope` made it.
  std::optional<boost::json::object> get(std::string_view scope, const std::string& id) const;
  std::size_t size() const;

 private:
  struct Record {
    std::string scope;
    boost::json::object body;
  };
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::deque<std::string> order_;
  std::unordered_map<std::string, Record> records_;
};

// "op_" + 32 lowercase hex digits from OpenSSL's CSPRNG.
std::string random_operation_id();

}  // namespace hamcp::home
