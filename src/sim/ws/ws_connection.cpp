#include "sim/ws/ws_connection.hpp"

#include <cctype>

#include "sim/core/json_writer.hpp"
#include "sim/core/time_util.hpp"
#include "sim/ws/ws_admin_only.hpp"

namespace hamcp::sim {
namespace {

// The record of received requests names a service call's service.
void note_command(SimCore& core, std::string_view type, const json::object& msg) {
  std::string what(type);
  if (type == "call_service") {
    const json::value* domain = msg.if_contains("domain");
    const json::value* service = msg.if_contains("service");
    what += ' ';
    if (domain && domain->is_string()) what += domain->get_string();
    what += '.';
    if (service && service->is_string()) what += service->get_string();
  } else if (type == "supervisor/api") {  // "supervisor/api GET /addons": tests judge the proxied request
    const json::value* method = msg.if_contains("method");
    const json::value* endpoint = msg.if_contains("endpoint");
    std::string verb = method && method->is_string() ? std::string(method->get_string()) : "";
    for (char& ch : verb) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    what += " " + verb + " " + (endpoint && endpoint->is_string() ? std::string(endpoint->get_string()) : "");
  }
  core.note_request("ws", std::move(what), core.recording() ? json::serialize(msg) : std::string());
}

}  // namespace

// --- message field helpers -------------------------------------------------

std::string req_string(const json::object& msg, std::string_view key) {
  const json::value* v = msg.if_contains(key);
  if (!v) throw BadMessage{"required key not provided @ data['" + std::string(key) + "']"};
  if (!v->is_string()) throw BadMessage{"expected str for dictionary value @ data['" + std::string(key) + "']"};
  return std::string(v->get_string());
}

std::optional<std::string> opt_string(const json::object& msg, std::string_view key) {
  const json::value* v = msg.if_contains(key);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_string()) throw BadMessage{"expected str for dictionary value @ data['" + std::string(key) + "']"};
  return std::string(v->get_string());
}

std::vector<std::string> opt_strings(const json::object& msg, std::string_view key) {
  std::vector<std::string> out;
  const json::value* v = msg.if_contains(key);
  if (!v || v->is_null()) return out;
  if (v->is_string()) {
    out.emplace_back(v->get_string());
    return out;
  }
  if (!v->is_array()) throw BadMessage{"expected list for dictionary value @ data['" + std::string(key) + "']"};
  for (const auto& x : v->get_array()) {
    if (!x.is_string()) throw BadMessage{"expected str @ data['" + std::string(key) + "'][0]"};
    out.emplace_back(x.get_string());
  }
  return out;
}

bool opt_bool(const json::object& msg, std::string_view key, bool fallback) {
  const json::value* v = msg.if_contains(key);
  if (!v || v->is_null()) return fallback;
  if (!v->is_bool()) throw BadMessage{"expected bool for dictionary value @ data['" + std::string(key) + "']"};
  return v->get_bool();
}

std::optional<Timestamp> opt_time(const json::object& msg, std::string_view key) {
  auto s = opt_string(msg, key);
  if (!s) return std::nullopt;
  auto t = parse_iso_time(*s);
  if (!t) throw BadMessage{"Invalid datetime for dictionary value @ data['" + std::string(key) + "']"};
  return t;
}

// --- connection ------------------------------------------------------------

std::map<std::string, WsConnection::Handler, std::less<>>& WsConnection::commands() {
  static std::map<std::string, Handler, std::less<>> table = [] {
    std::map<std::string, Handler, std::less<>> t;
    register_core_commands(t);
    register_template_commands(t);
    register_entity_registry_commands(t);
    register_area_registry_commands(t);
    register_search_commands(t);
    register_helper_commands(t);
    register_tag_commands(t);
    register_history_commands(t);
    register_trace_commands(t);
    register_blueprint_commands(t);
    register_system_commands(t);
    register_lovelace_commands(t);
    register_calendar_commands(t);
    register_todo_commands(t);
    register_backup_commands(t);
    register_update_commands(t);
    register_hacs_commands(t);
    register_zha_commands(t);
    register_zwave_commands(t);
    register_thread_commands(t);
    register_matter_commands(t);
    register_energy_commands(t);
    register_assist_commands(t);
    register_supervisor_commands(t);
    return t;
  }();
  return table;
}

WsConnection::WsConnection(SimCore& core, Sink sink, Closer closer)
    : core_(core), sink_(std::move(sink)), closer_(std::move(closer)) {}

WsConnection::~WsConnection() { shutdown(); }

std::string WsConnection::auth_required() const {
  return to_json(json::object{{"type", "auth_required"}, {"ha_version", core_.ha_version()}});
}

void WsConnection::shutdown() {
  std::map<int64_t, std::function<void()>> subs;
  {
    std::lock_guard lock(subs_mutex_);
    subs.swap(subscriptions_);
  }
  std::lock_guard lock(core_.store().mutex());
  for (auto& [id, unsub] : subs) unsub();
}

void WsConnection::add_subscription(int64_t id, std::function<void()> unsubscribe) {
  std::lock_guard lock(subs_mutex_);
  subscriptions_[id] = std::move(unsubscribe);
}

void WsConnection::send_result(int64_t id, const json::value& result) {
  sink_(to_json(json::object{{"id", id}, {"type", "result"}, {"success", true}, {"result", result}}));
}

void WsConnection::send_result_raw(int64_t id, std::string_view result_json) {
  std::string frame;
  frame.reserve(result_json.size() + 64);
  frame += "{\"id\":";
  frame += std::to_string(id);
  frame += ",\"type\":\"result\",\"success\":true,\"result\":";
  frame += result_json;
  frame += '}';
  sink_(std::move(frame));
}

void WsConnection::send_error(int64_t id, std::string_view code, std::string_view message, json::object extra) {
  json::object err{{"code", code}, {"message", message}};
  for (auto& kv : extra) err[kv.key()] = kv.value();
  sink_(to_json(json::object{{"id", id}, {"type", "result"}, {"success", false}, {"error", std::move(err)}}));
}

void WsConnection::send_event(int64_t id, const json::value& event) {
  sink_(to_json(json::object{{"id", id}, {"type", "event"}, {"event", event}}));
}

void WsConnection::send_event_raw(int64_t id, std::string_view event_json) {
  std::string frame;
  frame.reserve(event_json.size() + 48);
  frame += "{\"id\":";
  frame += std::to_string(id);
  frame += ",\"type\":\"event\",\"event\":";
  frame += event_json;
  frame += '}';
  sink_(std::move(frame));
}

void WsConnection::on_message(std::string_view text) {
  if (closed_) return;
  boost::system::error_code ec;
  json::value msg = json::parse(text, ec);
  if (!authenticated_) {
    if (ec) {
      sink_(to_json(
          json::object{{"type", "auth_invalid"}, {"message", "Auth message incorrectly formatted: expected JSON"}}));
      closed_ = true;
      closer_();
      return;
    }
    handle_auth(msg);
    return;
  }
  if (ec) {
    // HA closes the connection on a frame that is not JSON.
    send_error(0, "invalid_format", "Message incorrectly formatted.");
    return;
  }
  std::lock_guard lock(core_.store().mutex());
  if (msg.is_array()) {
    for (const auto& m : msg.get_array()) handle_command(m);
  } else {
    handle_command(msg);
  }
}

namespace {

bool refused_to_non_admin(std::string_view type, const json::object& msg) {
  if (ws_command_requires_admin(type)) return true;
  if (type != "call_service") return false;
  const json::value* domain = msg.if_contains("domain");
  const json::value* service = msg.if_contains("service");
  return domain && service && domain->is_string() && service->is_string() &&
         service_requires_admin(domain->get_string(), service->get_string());
}

}  // namespace

void WsConnection::handle_auth(const json::value& msg) {
  const json::object* o = msg.if_object();
  const json::value* type = o ? o->if_contains("type") : nullptr;
  const json::value* token = o ? o->if_contains("access_token") : nullptr;
  if (!type || !type->is_string() || type->get_string() != "auth" || !token || !token->is_string()) {
    std::string why = !o       ? "expected a dictionary"
                      : !type  ? "required key not provided @ data['type']"
                      : !token ? "required key not provided @ data['access_token']"
                               : "value must be one of ['auth']";
    sink_(to_json(json::object{{"type", "auth_invalid"}, {"message", "Auth message incorrectly formatted: " + why}}));
    closed_ = true;
    closer_();
    return;
  }
  if (!core_.token_ok(token->get_string())) {
    sink_(to_json(json::object{{"type", "auth_invalid"}, {"message", "Invalid access token or password"}}));
    closed_ = true;
    closer_();
    return;
  }
  authenticated_ = true;
  if (auto user = core_.auth().user_of(token->get_string())) {  // a user's own token (HA's OAuth2)
    admin_ = user->is_admin;
    user_name_ = user->name;
  }
  sink_(to_json(json::object{{"type", "auth_ok"}, {"ha_version", core_.ha_version()}}));
}

void WsConnection::handle_command(const json::value& msg) {
  const json::object* o = msg.if_object();
  const json::value* idv = o ? o->if_contains("id") : nullptr;
  const json::value* type = o ? o->if_contains("type") : nullptr;
  if (!o || !idv || !idv->is_int64() || !type || !type->is_string()) {
    int64_t id = idv && idv->is_int64() ? idv->get_int64() : 0;
    send_error(id, "invalid_format", "Message incorrectly formatted.");
    return;
  }
  int64_t id = idv->get_int64();
  if (id <= last_id_) {
    send_error(id, "id_reuse", "Identifier values have to increase.");
    return;
  }
  last_id_ = id;
  std::string_view t = type->get_string();
  if (t == "ping") {
    sink_(to_json(json::object{{"id", id}, {"type", "pong"}}));
    return;
  }
  if (t == "supported_features") {
    const json::value* f = o->if_contains("features");
    if (f && f->is_object())
      if (const json::value* c = f->get_object().if_contains("coalesce_messages"))
        coalesce_ = c->is_number() ? c->to_number<double>() != 0 : c->is_bool() && c->get_bool();
    send_result(id, nullptr);
    return;
  }
  if (t == "unsubscribe_events") {
    const json::value* sub = o->if_contains("subscription");
    if (!sub || !sub->is_int64()) {
      send_error(id, "invalid_format",
                 "Message incorrectly formatted: required key not provided @ data['subscription']");
      return;
    }
    std::function<void()> unsub;
    {
      std::lock_guard lock(subs_mutex_);
      auto it = subscriptions_.find(sub->get_int64());
      if (it != subscriptions_.end()) {
        unsub = std::move(it->second);
        subscriptions_.erase(it);
      }
    }
    if (!unsub) {
      send_error(id, "not_found", "Subscription not found.");
      return;
    }
    unsub();
    send_result(id, nullptr);
    return;
  }
  note_command(core_, t, *o);
  if (!admin_ && refused_to_non_admin(t, *o)) {
    send_error(id, "unauthorized", "Unauthorized");  // HA: websocket_api.require_admin / admin services
    return;
  }
  auto& table = commands();
  auto it = table.find(t);
  if (it == table.end()) {
    send_error(id, "unknown_command", "Unknown command.");
    return;
  }
  try {
    it->second(*this, id, *o);
  } catch (const BadMessage& e) {
    send_error(id, "invalid_format", "Message incorrectly formatted: " + e.message);
  } catch (const std::exception& e) {
    send_error(id, "unknown_error", e.what());
  }
}

}  // namespace hamcp::sim
