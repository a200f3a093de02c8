#include "resources/resource_context.hpp"

#include <boost/json/serialize.hpp>

#include "mcp/errors.hpp"
#include "mcp/registry.hpp"

namespace hamcp::resources {

namespace {
constexpr std::chrono::milliseconds kFirstSyncWait{3000};
}

boost::asio::awaitable<ha::SnapshotPtr> ResourceContext::snapshot() {
  ha::SnapshotPtr snap = ha_.snapshot();
  // As for the tools (ToolEnv::snapshot): once fully synced, the mirror's data
  // is the answer even while it reconnects. Before that a published snapshot
  // may hold config and registries but not yet the states, and reading it
  // would call a real entity "not found": wait (bounded) for the first sync.
  if (ever_synced_.load() && snap->version > 0) co_return snap;
  const ha::MirrorState state = ha_.status().state;
  if (state == ha::MirrorState::synced || (state == ha::MirrorState::degraded && snap->version > 0)) {
    ever_synced_.store(true);
    co_return snap;
  }
  const bool synced = co_await ha_.wait_synced(kFirstSyncWait);
  if (synced) ever_synced_.store(true);
  snap = ha_.snapshot();
  if (snap->version > 0) co_return snap;
  const ha::MirrorStatus status = ha_.status();
  std::string why = status.detail.empty() ? std::string("no connection yet") : status.detail;
  throw mcp::McpError(mcp::error_code::internal_error,
                      "Home Assistant's state is not available yet (" + why + "); try again shortly");
}

std::shared_ptr<const Membership> ResourceContext::membership(const ha::Snapshot& snap) {
  std::lock_guard lock(mutex_);
  if (!membership_ || !membership_->matches(snap)) membership_ = Membership::build(snap);
  return membership_;
}

json::array json_contents(std::string_view uri, const json::object& body) {
  json::array contents;
  contents.emplace_back(mcp::text_contents(uri, json::serialize(body), kJsonMime));
  return contents;
}

void throw_not_found(std::string_view kind, std::string_view id, std::string_view uri) {
  json::object data;
  data.emplace("uri", uri);
  throw mcp::McpError(mcp::error_code::resource_not_found,
                      "Resource not found: no " + std::string(kind) + " '" + std::string(id) +
                          "' in Home Assistant (complete the id with completion/complete, or list with ha://home)",
                      json::value(std::move(data)));
}

std::string_view string_at(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

void copy_fields(const json::object& from, json::object& to, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    const json::value* v = from.if_contains(key);
    if (!v || v->is_null()) continue;
    if (v->is_array() && v->get_array().empty()) continue;
    to[key] = *v;
  }
}

json::object entity_line(const ha::EntityState& state) {
  json::object line;
  line.emplace("entity_id", state.entity_id);
  line.emplace("state", state.state);
  const std::string name = state.attributes.string_of("friendly_name");
  if (!name.empty()) line.emplace("name", name);
  const std::string unit = state.attributes.string_of("unit_of_measurement");
  if (!unit.empty()) line.emplace("unit", unit);
  return line;
}

void list_entities(const ha::Snapshot& snap, const std::vector<std::string>& ids, json::object& body) {
  json::array lines;
  std::size_t with_state = 0;
  for (const std::string& id : ids) {
    const ha::EntityStatePtr state = snap.states.find(id);
    if (!state) continue;
    ++with_state;
    if (lines.size() < kMaxListedEntities) lines.emplace_back(entity_line(*state));
  }
  body["entity_count"] = with_state;
  if (with_state > lines.size()) body["truncated"] = true;
  body["entities"] = std::move(lines);
}

}  // namespace hamcp::resources
