#pragma once
// The MCP server: options, registry, protocol-version negotiation and the set of
// live sessions. Transport-agnostic: transports create Sessions and feed them.
//
// Lifetime: sessions keep the server's core alive (shared), so a Session may
// outlive the Server object; Server's destructor shuts every session down.

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/log_level.hpp"
#include "mcp/registry.hpp"
#include "mcp/session.hpp"
#include "mcp/task_store.hpp"

namespace hamcp::mcp {

class CallScheduler;  // call_scheduler.hpp

// Newest first. An initialize asking for anything else gets the newest.
inline constexpr std::array<std::string_view, 4> kSupportedProtocolVersions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                                               "2024-11-05"};
inline constexpr std::string_view kLatestProtocolVersion = kSupportedProtocolVersions[0];
bool is_supported_protocol_version(std::string_view version);

struct ServerOptions {
  std::string name = "hamcp";
  std::string version;                                      // serverInfo.version
  std::string title;                                        // serverInfo.title (optional)
  std::string instructions;                                 // InitializeResult.instructions (omitted if empty)
  std::size_t page_size = 100;                              // items per tools/list, resources/list... page
  std::chrono::milliseconds client_request_timeout{60000};  // server->client requests
  LogLevel default_log_level = LogLevel::info;              // before logging/setLevel
  bool read_only = false;                                   // every session read-only (SessionInfo::read_only)
  // resources/subscribe: uris one session may watch; resources/updated owed
  // to one session and not yet sent (coalesced per uri; a session watches at
  // most this many uris, so no update is ever dropped); how long to wait
  // before retrying while the client is not reading (Channel::congested):
  // congested_retry, doubled per retry up to congested_retry_max (the most a
  // client that reads again waits for its updates).
  std::size_t max_subscriptions = 10000;
  std::size_t max_pending_updates = 10000;
  std::chrono::milliseconds congested_retry{20};
  std::chrono::milliseconds congested_retry_max{100};
};

namespace detail {
// Shared by the Server and its Sessions.
struct ServerCore {
  asio::any_io_executor executor;
  ServerOptions options;
  Registry registry;
  std::shared_ptr<CallScheduler> scheduler;  // fair turns for tool work (call_scheduler.hpp)
  std::vector<std::weak_ptr<Session>> sessions;
  // Set once any session subscribes to a resource (never cleared): until then
  // resources/updated reaches nobody, so feeds may skip working out its uris.
  std::shared_ptr<std::atomic<bool>> resources_watched = std::make_shared<std::atomic<bool>>(false);
  // Called after a session's persistent_state() changed (setLevel, subscribe).
  std::function<void(const Session&, const json::object& change)> state_observer;
  TaskStore tasks;  // tools/call run as tasks, every session's (each sees only its own)
  json::object capabilities() const;
  template <class F>
  void for_each_session(F&& f);
};
}  // namespace detail

class Server {
 public:
  Server(asio::any_io_executor executor, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  Registry& registry() { return core_->registry; }
  const ServerOptions& options() const { return core_->options; }
  asio::any_io_executor executor() const { return core_->executor; }

  // A fresh session awaiting `initialize`. `id` is the transport's (e.g.
  // Mcp-Session-Id); stdio passes nothing.
  std::shared_ptr<Session> create_session(std::string id = {});
  // A session rebuilt from persisted SessionInfo: already initialized, so the
  // client can carry on after a server restart (or stateless HTTP, per request).
  std::shared_ptr<Session> restore_session(std::string id, SessionInfo info);
  // Called on the server's executor whenever a session with an id (not stdio,
  // not a stateless or 2026-era request) changes its persistent_state(), so a
  // transport can keep it for a rebuild; `change` says what changed
  // (Session::note_state_changed). One observer; nullptr removes it.
  void set_session_state_observer(std::function<void(const Session&, const json::object& change)> observer);

  // What InitializeResult.capabilities declares (only what is registered).
  json::object capabilities() const { return core_->capabilities(); }

  // list_changed / updated notifications to every initialized session's
  // standalone channel (updated: only sessions subscribed to `uri`, coalesced
  // per session and uri and sent on a later turn: Session::pending_updates).
  void notify_tools_changed();
  void notify_resources_changed();
  void notify_prompts_changed();
  void notify_resource_updated(std::string_view uri);
  // Whether any session has ever subscribed to a resource; readable from any
  // thread, and outlives the server (a feed's listener may hold it).
  std::shared_ptr<const std::atomic<bool>> resources_watched() const { return core_->resources_watched; }

  // The client's session is over for good (stdio's input closed, DELETE, its
  // id expired, a legacy SSE stream ended): it is shut down, and its 2025-era
  // tasks are cancelled and forgotten, since nobody can poll them any more.
  void end_session(const std::shared_ptr<Session>& session);
  // The same by id (HTTP), for several at once (one pass over sessions and
  // tasks): every Session object with such an id (a rebuilt one and an evicted
  // one its tasks still run in), and their tasks even when none is in memory.
  // Empty ids are ignored.
  void end_sessions(const std::vector<std::string>& ids);

  // Every session's tasks (counts for tests and diagnostics).
  const TaskStore& tasks() const { return core_->tasks; }
  // Tasks kept in `file` across restarts (TaskStore::persist_to); before serving.
  bool keep_tasks_in(std::filesystem::path file) { return core_->tasks.persist_to(std::move(file)); }

  // Cancel everything in every session, and every task.
  void shutdown();
  std::size_t session_count() const;

 private:
  std::shared_ptr<detail::ServerCore> core_;
};

}  // namespace hamcp::mcp
