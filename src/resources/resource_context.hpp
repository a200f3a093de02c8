#pragma once
// What the home's resources share: the HA client (its live mirror is the only
// source: a read never downloads anything), the cached area/device membership,
// and the JSON pieces every resource kind renders the same way.

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "ha/ha_client.hpp"
#include "resources/membership.hpp"

namespace hamcp::resources {

namespace json = boost::json;

inline constexpr std::string_view kJsonMime = "application/json";
// Entities listed in one area or device read: sized for a model, not a dump.
inline constexpr std::size_t kMaxListedEntities = 200;

class ResourceContext {
 public:
  explicit ResourceContext(ha::HaClient& ha) : ha_(ha) {}

  // A synced snapshot; waits for the first full sync a few seconds, then
  // throws McpError (internal error) with the mirror's diagnosis.
  boost::asio::awaitable<ha::SnapshotPtr> snapshot();
  // The membership for `snap`'s registries (rebuilt only when they changed).
  std::shared_ptr<const Membership> membership(const ha::Snapshot& snap);

 private:
  ha::HaClient& ha_;
  std::mutex mutex_;
  std::shared_ptr<const Membership> membership_;
  std::atomic<bool> ever_synced_{false};
};

// resources/read contents: one application/json text entry.
json::array json_contents(std::string_view uri, const json::object& body);
// -32002 naming the id and where valid ids come from.
[[noreturn]] void throw_not_found(std::string_view kind, std::string_view id, std::string_view uri);
// The string at `key`, "" when absent or not a string.
std::string_view string_at(const json::object& o, std::string_view key);
// Copies the named fields that are present and not null.
void copy_fields(const json::object& from, json::object& to, std::initializer_list<std::string_view> keys);
// {entity_id, state, name?, unit?}: an entity in a list.
json::object entity_line(const ha::EntityState& state);
// entity_line for each id that has a state (at most kMaxListedEntities), into
// body["entities"], with body["entity_count"] and body["truncated"] if cut.
void list_entities(const ha::Snapshot& snap, const std::vector<std::string>& ids, json::object& body);

}  // namespace hamcp::resources
