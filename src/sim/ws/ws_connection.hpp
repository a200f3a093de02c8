#pragma once
// One Home Assistant WebSocket API connection, without the network: text
// frames in (on_message), text frames out (the sink). Implements the auth
// phase, id rules, batches, subscriptions and every command the simulator
// knows (commands live in ws_*_commands.cpp and register in a table).

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "sim/core/sim_core.hpp"

namespace hamcp::sim {

class WsConnection : public std::enable_shared_from_this<WsConnection> {
 public:
  using Sink = std::function<void(std::string frame)>;  // thread-safe; queues one message
  using Closer = std::function<void()>;                 // close after queued frames are sent

  WsConnection(SimCore& core, Sink sink, Closer closer);
  ~WsConnection();

  // The first frame the server sends: {"type":"auth_required","ha_version":…}.
  std::string auth_required() const;
  void on_message(std::string_view text);
  // Ends all subscriptions; call before dropping the connection.
  void shutdown();

  bool authenticated() const { return authenticated_; }
  // The HA user this connection authenticated as (the configured token: the owner).
  const std::string& user_name() const { return user_name_; }
  bool admin() const { return admin_; }
  bool coalesce() const { return coalesce_; }

  // --- used by command handlers
  SimCore& core() { return core_; }
  void send_result(int64_t id, const json::value& result);
  void send_result_raw(int64_t id, std::string_view result_json);  // result already serialised
  void send_error(int64_t id, std::string_view code, std::string_view message, json::object extra = {});
  void send_event(int64_t id, const json::value& event);
  void send_event_raw(int64_t id, std::string_view event_json);
  void send_raw(std::string frame) { sink_(std::move(frame)); }
  // Registers a subscription ended by unsubscribe_events{subscription: id} or shutdown.
  void add_subscription(int64_t id, std::function<void()> unsubscribe);
  std::weak_ptr<WsConnection> weak() { return weak_from_this(); }

  using Handler = void (*)(WsConnection&, int64_t id, const json::object& msg);
  static std::map<std::string, Handler, std::less<>>& commands();

 private:
  void handle_auth(const json::value& msg);
  void handle_command(const json::value& msg);

  SimCore& core_;
  Sink sink_;
  Closer closer_;
  bool authenticated_ = false;
  bool admin_ = true;
  std::string user_name_ = "Owner";
  bool coalesce_ = false;
  bool closed_ = false;
  int64_t last_id_ = 0;
  std::mutex subs_mutex_;
  std::map<int64_t, std::function<void()>> subscriptions_;
};

// Command tables, filled once (ws_core_commands.cpp etc.).
void register_core_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_template_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_entity_registry_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_area_registry_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_search_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_helper_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_tag_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_history_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_trace_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_blueprint_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_system_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_lovelace_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_calendar_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_todo_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_backup_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_update_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_hacs_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_zha_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_zwave_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_thread_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_matter_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_energy_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_assist_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);
void register_supervisor_commands(std::map<std::string, WsConnection::Handler, std::less<>>&);

// Message-field helpers shared by the command files. They throw BadMessage,
// which the dispatcher turns into invalid_format.
struct BadMessage {
  std::string message;
};
std::string req_string(const json::object& msg, std::string_view key);
std::optional<std::string> opt_string(const json::object& msg, std::string_view key);
std::vector<std::string> opt_strings(const json::object& msg, std::string_view key);
bool opt_bool(const json::object& msg, std::string_view key, bool fallback);
std::optional<Timestamp> opt_time(const json::object& msg, std::string_view key);

}  // namespace hamcp::sim
