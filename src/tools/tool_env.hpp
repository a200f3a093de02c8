#pragma once
// What every entity tool needs: the HA client (mirror + writes), the search
// index, the state watch (wait-for-change) and the operation log. One per
// server; shared by the handlers.

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "ha/ha_client.hpp"
#include "home/audit_log.hpp"
#include "home/config_cache.hpp"
#include "home/edit_journal.hpp"
#include "home/operations.hpp"
#include "home/overview_feed.hpp"
#include "home/state_watch.hpp"
#include "search/entity_index.hpp"
#include "tools/gate/ha_gate.hpp"
#include "tools/gate/redactor.hpp"
#include "tools/gate/visibility.hpp"
#include "tools/response.hpp"

namespace hamcp::mcp {
struct SessionInfo;
}

namespace hamcp::tools {

// The tools are MCP adapters over the home services (src/home/): their names
// are used unqualified in the tool families.
using namespace hamcp::home;

struct EntityToolsOptions {
  std::size_t response_budget = kDefaultResponseBudget;  // bytes of structuredContent
  std::chrono::milliseconds default_wait{10000};         // ha_call_service wait timeout
  std::chrono::milliseconds max_wait{60000};
  std::chrono::milliseconds first_sync_wait{3000};  // how long a read waits for the first sync
  std::size_t bulk_parallelism = 16;                // ha_bulk_control calls in flight
  EditJournalOptions journal;                       // config writes' journal (dir empty: in memory)
  AuditLogOptions audit;                            // one line per call of a tool that can write
  bool read_only = false;                           // every session read-only (--read-only)
  bool redact_secrets = true;                       // mask secrets in every result (gate/redactor.hpp)
  VisibilityRules visibility;                       // entities hidden from the model (gate/visibility.hpp)
};

// The home services the tools share; one set per server, whatever the mode.
struct ToolServices {
  ToolServices(ha::HaClient& ha, const EntityToolsOptions& options);
  StateWatch watch;
  OperationStore ops;
  OverviewFeed overview;
  EditJournal journal;
  ConfigCache configs;
  Redactor redactor;
  AuditLog audit;
  std::shared_ptr<Visibility> visibility;  // null: every entity visible
  std::atomic<bool> ever_synced{false};
};

// Tools reach Home Assistant only through `ha` (the gate): a read-only
// session's calls run with the read-only view (for_session), whose gate
// refuses every request not known as a read. Both views share the services.
class ToolEnv {
 public:
  ToolEnv(ha::HaClient& ha, search::EntityIndex& index, EntityToolsOptions options = {});
  ToolEnv(const ToolEnv&) = delete;
  ToolEnv& operator=(const ToolEnv&) = delete;

 private:
  struct ReadOnlyView {};
  ToolEnv(ToolEnv& base, ReadOnlyView);
  ToolEnv(ToolEnv& base, HaGate user_gate);  // a signed-in user's view
  std::shared_ptr<ToolServices> services_;

 public:
  HaGate ha;
  search::EntityIndex& index;
  EntityToolsOptions options;
  StateWatch& watch;
  OperationStore& ops;
  OverviewFeed& overview;  // ha_get_overview aggregates, kept current from the mirror
  EditJournal& journal;    // every config write hamcp makes, restorable
  ConfigCache& configs;    // automation/script/scene configs for ha_search (started by app::Home)
  Redactor& redactor;      // secrets seen in results, masked wherever they show up again
  AuditLog& audit;         // calls of tools that can write (gate/audit_line.hpp)

  bool read_only() const noexcept { return ha.read_only(); }
  // The environment a call of a session runs with: this one, or (read-only
  // session) the view whose gate refuses writes.
  ToolEnv& for_session(bool read_only) { return read_only && read_only_view_ ? *read_only_view_ : *this; }
  // The same, for a session with an OAuth user (SessionInfo::principal): a view
  // whose gate sends every HA request as that user (HaGate::as_user). A call
  // holds its view (the pointer) while it runs; views are kept per user for
  // later calls, like the users' HA connections: closed after kUserViewIdle
  // unused, the least recently used first past kMaxUserViews. Without a
  // principal: this environment or its read-only view (not owned).
  std::shared_ptr<ToolEnv> for_session(const mcp::SessionInfo& session);
  static constexpr std::chrono::minutes kUserViewIdle{10};
  static constexpr std::size_t kMaxUserViews = 64;
  std::size_t user_view_count();
  // hamcp --auth oauth: the users' own HA connections.
  void set_user_connections(std::shared_ptr<home::UserConnections> users);

  // A synced snapshot for reads. If the mirror has never synced it waits up to
  // first_sync_wait, then throws ToolException with HA's diagnosis
  // (explanation + fix) so every read tool reports the same reason.
  boost::asio::awaitable<ha::SnapshotPtr> snapshot();

  // Stop listening to the HA client (before it is destroyed; handlers may keep
  // this object alive longer).
  void detach() {
    watch.detach();
    overview.detach();
    configs.detach();
  }

 private:
  std::unique_ptr<ToolEnv> read_only_view_;  // null in a read-only environment
  std::shared_ptr<home::UserConnections> users_;
  std::mutex user_views_mutex_;
  struct UserView {
    std::shared_ptr<ToolEnv> env;
    std::chrono::steady_clock::time_point last_used;
  };
  void evict_user_views_locked(std::chrono::steady_clock::time_point now);
  std::map<std::pair<std::string, bool>, UserView> user_views_;  // (user, read-only)
};

}  // namespace hamcp::tools
