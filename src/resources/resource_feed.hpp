#pragma once
// Turns the mirror's change sets into resources/updated: a changed entity
// updates ha://entity/<id>, its area and its device; registry changes update
// the areas, floors and devices they may touch; entities appearing,
// disappearing or becoming (un)available update ha://home; a full resync
// (reconnect, REST poll) updates only what differs from before. One mirror
// listener (the mirror's own subscription; nothing more is asked of HA). The
// MCP core coalesces and bounds what each session is owed (mcp/update_queue.hpp).

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "ha/ha_client.hpp"
#include "mcp/server.hpp"
#include "resources/resource_context.hpp"

namespace hamcp::resources {

class ResourceFeed {
 public:
  ResourceFeed(ha::HaClient& ha, mcp::Server& server, std::shared_ptr<ResourceContext> ctx);
  ~ResourceFeed();
  ResourceFeed(const ResourceFeed&) = delete;
  ResourceFeed& operator=(const ResourceFeed&) = delete;

  // Stops listening and notifying (idempotent); on the server's executor,
  // before the client or the server goes away.
  void detach();

  // The uris a change set updates (exposed for tests). `unavailable` is the
  // feed's memory of which entities were unavailable, kept current here.
  static std::vector<std::string> updated_uris(const ha::ChangeSet& changes, const ha::Snapshot& snap,
                                               const Membership& members, std::unordered_set<std::string>& unavailable);
  // What updated_uris does to `unavailable`, without the uris: while no
  // session watches any resource (mcp::Server::resources_watched).
  static void track_unavailable(const ha::ChangeSet& changes, const ha::Snapshot& snap,
                                std::unordered_set<std::string>& unavailable);
  // A full resync's uris against the snapshot before it: only what differs
  // (resync_uris.cpp).
  static std::vector<std::string> resync_uris(const ha::Snapshot& before, const Membership& before_members,
                                              const ha::Snapshot& now, const Membership& members,
                                              std::unordered_set<std::string>& unavailable);

 private:
  struct Shared {
    std::mutex mutex;                             // the listener's state (HA client's thread)
    std::unordered_set<std::string> unavailable;  // entity ids whose state is "unavailable"
    // The last snapshot announced and its membership: what a full resync is
    // compared with (the mirror's current one, so holding it costs nothing extra).
    ha::SnapshotPtr previous;
    // Null while nobody watched when `previous` was taken: built from it on
    // the next full resync that has a subscriber.
    std::shared_ptr<const Membership> previous_members;
    mcp::Server* server = nullptr;  // null once detached; used on the server's executor only
  };
  // One change set, on the HA client's thread: the uris to announce (none
  // while nobody watches any resource).
  static std::vector<std::string> uris_for(Shared& shared, ResourceContext& ctx, const ha::ChangeSet& changes,
                                           const ha::SnapshotPtr& snapshot, bool watched);
  ha::HaClient& ha_;
  std::size_t listener_ = 0;
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

}  // namespace hamcp::resources
