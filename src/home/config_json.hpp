#pragma once
// JSON operations the configuration tools build on, with no MCP and no HA:
// a stable hash of a config (optimistic locking: two reads of the same config
// give the same hash whatever the key order), RFC 6902 JSON Patch (apply,
// diff) and a short diff a model can read. Patch and diff use nlohmann::json
// (Debian's nlohmann-json3-dev, a maintained RFC 6902 implementation) behind
// this Boost.JSON interface; its insertion-ordered variant keeps the config's
// key order.

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace hamcp::home {

namespace json = boost::json;

// The value as compact JSON with every object's keys sorted (recursively).
std::string canonical_json(const json::value& value);

// First 16 hex digits of the SHA-256 of canonical_json(value).
std::string config_hash(const json::value& value);

// A patch that cannot be applied: which operation (0-based), its path, and why.
struct PatchError : std::runtime_error {
  PatchError(std::size_t op_index, std::string path, const std::string& reason);
  std::size_t op_index;
  std::string path;
};

// Applies RFC 6902 operations (add, remove, replace, move, copy, test) in
// order to a copy of `document`. Throws PatchError naming the first operation
// that is malformed or does not apply; `document` is never changed.
json::value apply_json_patch(const json::value& document, const json::array& operations);

// RFC 6902 operations that turn `from` into `to` ([] when equal).
json::array json_diff(const json::value& from, const json::value& to);

// json_diff cut for a model to read: at most `max_ops` operations, each value
// shown as compact JSON of at most `max_value_bytes` (longer ones end in "…"),
// and a final {"op":"…","more":N} when operations were left out.
json::array short_diff(const json::value& from, const json::value& to, std::size_t max_ops = 20,
                       std::size_t max_value_bytes = 160);

}  // namespace hamcp::home
