#pragma once
// One MCP session: the negotiated state of one client, and the dispatcher of its
// messages. Transports feed it with deliver(); it answers on Channels.
//
// Threading: a Session and its Server are used from the server's executor only
// (one thread, or a strand). Transports that read on another thread must
// asio::post/dispatch to Server::executor() before calling deliver().

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "mcp/channel.hpp"
#include "mcp/json.hpp"
#include "mcp/log_level.hpp"
#include "mcp/update_queue.hpp"

namespace hamcp::mcp {

namespace modern {
struct RequestMeta;
}
struct TaskRecord;
namespace detail {
struct ServerCore;
struct CallOutcome;
struct InFlightRequest;
struct OutgoingRequest;
}  // namespace detail

// What the client told us at initialize. Plain data, so a transport can persist
// it (to_json) and rebuild a Session after a restart (from_json), and so the
// stateless 2026 era can later build one per request from params._meta.
struct SessionInfo {
  std::string protocol_version;      // negotiated, e.g. "2025-11-25"
  json::object client_info;          // {name, version, title?...}
  json::object client_capabilities;  // {sampling?, elicitation?, roots?...}
  // Writes refused for the whole session (ServerOptions::read_only or a
  // transport's read-only endpoint); once set, never cleared.
  bool read_only = false;
  // The OAuth user whose requests this session serves (HTTP --auth oauth):
  // tool calls reach Home Assistant with that user's own HA grant. Empty:
  // hamcp's configured token (bearer mode, stdio). Not persisted: a rebuilt
  // session takes it from the authenticated request again.
  std::string principal;

  bool client_supports(std::string_view capability) const {  // "sampling", "elicitation", "roots"
    return client_capabilities.contains(capability);
  }
  json::object to_json() const;
  // Tolerant: missing fields stay empty; a missing/unknown version becomes the latest.
  static SessionInfo from_json(const json::object& persisted);
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Handle one inbound message (object or batch array), already parsed.
  //  - request: runs concurrently as its own coroutine; its notifications
  //    (progress, log) and its final response go to `reply`, then reply->close().
  //    A cancelled request sends nothing but still closes `reply`.
  //  - notification, or response to a server->client request: processed;
  //    reply->close() at once.
  //  - batch: every element; one array response, then reply->close().
  //  - invalid: an error response with id null (-32600), then close.
  void deliver(json::value message, std::shared_ptr<Channel> reply);

  // Parse errors are the transport's to detect; this answers them uniformly
  // ({"jsonrpc":"2.0","id":null,"error":{-32700,...}}) on `reply` and closes it.
  static void reply_parse_error(Channel& reply, std::string_view detail);

  // Where unsolicited messages go (list_changed, resources/updated, logs and
  // requests not tied to a client request). stdio: stdout; HTTP: the GET stream.
  // nullptr = drop them.
  void set_standalone_channel(std::shared_ptr<Channel> channel);

  // Cancel every in-flight request (no responses are sent) and fail every
  // pending server->client request. The session refuses further requests.
  void shutdown();

  const std::string& id() const { return id_; }
  bool initialized() const { return state_ != State::awaiting_initialize; }
  bool is_shut_down() const { return state_ == State::shut_down; }
  const SessionInfo& info() const { return info_; }
  LogLevel log_level() const { return log_level_; }
  std::size_t in_flight() const { return in_flight_.size(); }
  std::chrono::steady_clock::time_point last_activity() const { return last_activity_; }

  // Unsolicited notification on the standalone channel.
  void notify(std::string_view method, json::object params = {});
  // From now on the session is read-only (tools/list without write tools;
  // tools see SessionInfo::read_only). There is no way back.
  void make_read_only() { info_.read_only = true; }
  // The transport binds a session to one OAuth user (SessionInfo::principal).
  void set_principal(const std::string& principal) {
    if (info_.principal != principal) info_.principal = principal;
  }
  // notifications/message on the standalone channel, if `level` passes setLevel.
  void log(LogLevel level, json::value data, std::string_view logger = {});
  // resources/updated notifications owed but not yet sent (update_queue.hpp).
  const UpdateQueue& pending_updates() const { return updates_; }
  const std::unordered_set<std::string>& subscriptions() const { return subscriptions_; }

  // What the client chose after initialize and a transport keeps so a session
  // rebuilt after a restart or an eviction keeps it (session_state.cpp):
  //   {"logLevel": "debug", "subscriptions": ["ha://entity/light.x", ...]}
  json::object persistent_state() const;
  // Applies a persistent_state() record; tolerant of missing or bad fields
  // (skipped), and bounded by ServerOptions::max_subscriptions.
  void restore_state(const json::object& state);

 private:
  friend class Server;
  friend struct detail::ServerCore;
  friend class SessionRequestContext;
  enum class State { awaiting_initialize, ready, shut_down };

  Session(std::shared_ptr<detail::ServerCore> core, std::string id);

  // Implementation pieces live in session.cpp (lifecycle, routing) and
  // methods.cpp (what each MCP method does).
  struct Batch;
  // Returns true when a coroutine was started that will answer later.
  bool handle_one(json::value message, const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch);
  void respond(const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch, json::value response);
  bool handle_request(json::value id, std::string_view method, json::object params,
                      const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch);
  void spawn_request(json::value id, std::string method, json::object params, const std::shared_ptr<Channel>& reply,
                     const std::shared_ptr<Batch>& batch);
  json::object initialize(const json::object& params);
  json::object set_log_level(const json::object& params);  // logging/setLevel; McpError for a bad level
  void handle_notification(std::string_view method, const json::object& params);
  void handle_response(json::object& message);
  asio::awaitable<json::value> send_request(std::string method, json::object params, std::shared_ptr<Channel> via,
                                            std::chrono::milliseconds timeout);
  void send_unsolicited(json::value message);
  // resources/updated for a subscribed uri, coalesced and bounded
  // (session_updates.cpp); sent on a later turn of the executor.
  void queue_resource_update(std::string_view uri);
  void schedule_update_flush(std::chrono::milliseconds delay);
  void flush_updates();
  // Tells the server's state observer (Server::set_session_state_observer)
  // that persistent_state() changed, and how: {"logLevel": level},
  // {"subscribe": uri} or {"unsubscribe": uri} (a store may append just that).
  void note_state_changed(json::object change);

  // The 2026-07-28 era (session_modern.cpp). A modern request is served by a
  // child Session built from its own _meta, so nothing of this session's
  // negotiated state leaks into it (and on stdio both eras share one process).
  bool handle_modern(json::value id, std::string_view method, json::object params,
                     const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch);
  std::shared_ptr<Session> modern_child(const modern::RequestMeta& meta);
  json::object discover_result() const;
  json::object server_info() const;
  // subscriptions/listen: this (child) session becomes the listener; the
  // stream stays open until the client cancels it or the parent shuts down.
  bool start_listen(json::value id, const json::object& params, const std::shared_ptr<Channel>& reply);
  bool cancel_modern(const std::string& key);  // notifications/cancelled for a child's request

  // Tasks (session_tasks.cpp, task_store.hpp). A tools/call the client asked to
  // run as a task (2025: params.task; 2026: the tasks extension declared) is
  // answered at once with a CreateTaskResult and goes on in the background;
  // true when this answered the call (the task, or why it cannot be one).
  bool call_as_task(json::value& id, json::object& params, const std::shared_ptr<Channel>& reply,
                    const std::shared_ptr<Batch>& batch);
  void start_task(json::value id, json::object params, const std::shared_ptr<Channel>& reply,
                  const std::shared_ptr<Batch>& batch);
  void run_task_work(TaskRecord& task, json::value id, json::object params);
  void resume_task(TaskRecord& task, const json::object& params);
  void finish_task(const std::string& task_id, detail::CallOutcome outcome);
  // tasks/get, tasks/result, tasks/list, tasks/cancel (2025); tasks/get,
  // tasks/update, tasks/cancel (2026). True while the answer is still owed.
  bool handle_task_method(json::value id, std::string_view method, const json::object& params,
                          const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch);
  bool answer_task_result(json::value id, TaskRecord& task, const std::shared_ptr<Channel>& reply,
                          const std::shared_ptr<Batch>& batch);
  void notify_task_status(const TaskRecord& task);  // 2025: notifications/tasks/status
  std::string task_owner() const;                   // whose tasks this session sees
  bool tasks_declared() const;                      // 2026: the client declared io.modelcontextprotocol/tasks

  // What a subscriptions/listen stream asked for and was granted.
  struct Listen {
    json::value id;  // the listen request's id = the subscriptionId
    bool tools = false, prompts = false, resources = false;
    bool wants(std::string_view method) const;
  };

  std::shared_ptr<detail::ServerCore> core_;
  std::string id_;
  State state_ = State::awaiting_initialize;
  SessionInfo info_;
  LogLevel log_level_;
  std::shared_ptr<Channel> standalone_;
  // Keyed by the compact serialisation of the request id, so 1 and "1" differ.
  std::unordered_map<std::string, std::shared_ptr<detail::InFlightRequest>> in_flight_;
  std::unordered_map<std::int64_t, std::shared_ptr<detail::OutgoingRequest>> outgoing_;
  std::int64_t next_outgoing_id_ = 1;
  std::unordered_set<std::string> subscriptions_;  // resources/subscribe uris
  bool modern_ = false;                            // a 2026-era child: one request (or one listen stream)
  bool silent_logs_ = false;                       // modern request without _meta logLevel: no notifications/message
  std::optional<Listen> listen_;
  // Modern children with requests in flight (for notifications/cancelled on
  // stdio) and the listen streams this session keeps open.
  std::vector<std::weak_ptr<Session>> modern_children_;
  std::vector<std::shared_ptr<Session>> listeners_;
  UpdateQueue updates_;  // resources/updated owed to the client
  std::chrono::steady_clock::time_point last_activity_;
};

}  // namespace hamcp::mcp
