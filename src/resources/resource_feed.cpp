#include "resources/resource_feed.hpp"

#include <boost/asio/post.hpp>

namespace hamcp::resources {

namespace {

void add_registry_ids(const ha::Snapshot& snap, ha::RegistryKind kind, std::string_view prefix,
                      std::unordered_set<std::string>& out) {
  snap.registry(kind).for_each_key([&](std::string_view key) { out.insert(std::string(prefix) + std::string(key)); });
}

bool is_unavailable(const ha::EntityStatePtr& state) { return state && state->state == "unavailable"; }

// Keeps `unavailable` current for one entity; true when it became or stopped
// being unavailable.
bool note_availability(const std::string& id, const ha::Snapshot& snap, std::unordered_set<std::string>& unavailable) {
  const bool now_unavailable = is_unavailable(snap.states.find(id));
  const bool was_unavailable = unavailable.count(id) > 0;
  if (now_unavailable == was_unavailable) return false;
  if (now_unavailable)
    unavailable.insert(id);
  else
    unavailable.erase(id);
  return true;
}

// One entity's uris; true when ha://home changes with it (appeared,
// disappeared, or became / stopped being unavailable).
bool add_entity(const std::string& id, const ha::Snapshot& snap, const Membership& members,
                std::unordered_set<std::string>& unavailable, std::unordered_set<std::string>& out) {
  out.insert("ha://entity/" + id);
  if (const std::string_view area = members.area(id); !area.empty()) out.insert("ha://area/" + std::string(area));
  if (const std::string_view device = members.device(id); !device.empty())
    out.insert("ha://device/" + std::string(device));
  return note_availability(id, snap, unavailable);
}

void add_registries(const ha::ChangeSet& changes, const ha::Snapshot& snap, std::unordered_set<std::string>& out) {
  for (ha::RegistryKind kind : changes.registries_changed) {
    const bool areas = kind == ha::RegistryKind::area || kind == ha::RegistryKind::entity ||
                       kind == ha::RegistryKind::device || kind == ha::RegistryKind::floor;
    if (areas) add_registry_ids(snap, ha::RegistryKind::area, "ha://area/", out);
    if (kind == ha::RegistryKind::floor || kind == ha::RegistryKind::area)
      add_registry_ids(snap, ha::RegistryKind::floor, "ha://floor/", out);
    if (kind == ha::RegistryKind::device || kind == ha::RegistryKind::entity)
      add_registry_ids(snap, ha::RegistryKind::device, "ha://device/", out);
  }
}

}  // namespace

std::vector<std::string> ResourceFeed::updated_uris(const ha::ChangeSet& changes, const ha::Snapshot& snap,
                                                    const Membership& members,
                                                    std::unordered_set<std::string>& unavailable) {
  std::unordered_set<std::string> out;
  bool home = changes.full_resync || changes.config_changed || !changes.states_added.empty() ||
              !changes.states_removed.empty() || !changes.registries_changed.empty();
  if (changes.full_resync) {
    unavailable.clear();
    snap.states.for_each(
        [&](const ha::EntityStatePtr& st) { add_entity(st->entity_id, snap, members, unavailable, out); });
    for (ha::RegistryKind kind : {ha::RegistryKind::area, ha::RegistryKind::floor, ha::RegistryKind::device}) {
      ha::ChangeSet registry_change;
      registry_change.registries_changed.push_back(kind);
      add_registries(registry_change, snap, out);
    }
  }
  for (const auto* list : {&changes.states_added, &changes.states_changed, &changes.states_removed})
    for (const std::string& id : *list)
      if (add_entity(id, snap, members, unavailable, out)) home = true;
  add_registries(changes, snap, out);
  if (home) out.insert("ha://home");
  return {out.begin(), out.end()};
}

void ResourceFeed::track_unavailable(const ha::ChangeSet& changes, const ha::Snapshot& snap,
                                     std::unordered_set<std::string>& unavailable) {
  if (changes.full_resync) {
    // Read from the walk itself: looking each id up again (state table and
    // set) cost a 100k-entity sync ~30 ms after the index was built.
    unavailable.clear();
    snap.states.for_each([&](const ha::EntityStatePtr& st) {
      if (is_unavailable(st)) unavailable.insert(st->entity_id);
    });
  }
  for (const auto* list : {&changes.states_added, &changes.states_changed, &changes.states_removed})
    for (const std::string& id : *list) note_availability(id, snap, unavailable);
}

std::vector<std::string> ResourceFeed::uris_for(Shared& shared, ResourceContext& ctx, const ha::ChangeSet& changes,
                                                const ha::SnapshotPtr& snapshot, bool watched) {
  if (!watched) {
    // Nobody subscribes: the uris would reach no session. Only what the next
    // announcement compares with is kept (the unavailable entities, the
    // snapshot), so updates stay exact once someone does; the area/device
    // membership (~600 B per entity) is not built for nothing.
    std::lock_guard lock(shared.mutex);
    track_unavailable(changes, *snapshot, shared.unavailable);
    shared.previous = snapshot;
    shared.previous_members = nullptr;
    return {};
  }
  const auto members = ctx.membership(*snapshot);
  std::lock_guard lock(shared.mutex);
  std::vector<std::string> uris;
  if (changes.full_resync && shared.previous) {
    if (!shared.previous_members) shared.previous_members = Membership::build(*shared.previous);
    uris = resync_uris(*shared.previous, *shared.previous_members, *snapshot, *members, shared.unavailable);
  } else {
    uris = updated_uris(changes, *snapshot, *members, shared.unavailable);
  }
  shared.previous = snapshot;
  shared.previous_members = members;
  return uris;
}

ResourceFeed::ResourceFeed(ha::HaClient& ha, mcp::Server& server, std::shared_ptr<ResourceContext> ctx) : ha_(ha) {
  shared_->server = &server;
  auto executor = server.executor();
  listener_ =
      ha_.add_change_listener([shared = shared_, ctx = std::move(ctx), executor, watched = server.resources_watched()](
                                  const ha::ChangeSet& changes, const ha::SnapshotPtr& snapshot) {
        if (!snapshot || changes.empty()) return;
        std::vector<std::string> uris = uris_for(*shared, *ctx, changes, snapshot, watched->load());
        if (uris.empty()) return;
        // The MCP core lives on its executor: hand the uris over there.
        boost::asio::post(executor, [shared, uris = std::move(uris)] {
          if (!shared->server) return;
          for (const std::string& uri : uris) shared->server->notify_resource_updated(uri);
        });
      });
}

ResourceFeed::~ResourceFeed() { detach(); }

void ResourceFeed::detach() {
  shared_->server = nullptr;
  if (listener_ == 0) return;
  ha_.remove_change_listener(listener_);
  listener_ = 0;
}

}  // namespace hamcp::resources
