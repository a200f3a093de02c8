// FakeHa's insides, shared by fake_ha.cpp (the test-facing methods) and
// fake_ha_server.cpp (the HTTP/WebSocket serving coroutines).
#pragma once
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <deque>
#include <future>
#include <map>
#include <set>
#include <thread>

#include "fake_ha.hpp"

namespace hamcp::ha::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = asio::ip::tcp;

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

struct Session : std::enable_shared_from_this<Session> {
  explicit Session(tcp::socket s) : ws(std::move(s)), signal(ws.get_executor()) {}
  websocket::stream<tcp::socket> ws;
  asio::steady_timer signal;
  std::deque<std::string> outbox;
  bool authed = false;
  bool closed = false;
  bool coalesce = false;
  std::uint64_t entities_sub = 0;
  std::uint64_t last_id = 0;
  std::map<std::string, std::set<std::uint64_t>> event_subs;  // event_type -> ids

  void send(std::string text) {
    outbox.push_back(std::move(text));
    signal.cancel();
  }
  void send(const json::value& v) { send(json::serialize(v)); }
  void close_now() {
    closed = true;
    boost::system::error_code ec;
    ws.next_layer().close(ec);
    signal.cancel();
  }
};

struct Entity {
  std::string state;
  json::object attributes;
  double last_changed = 0;
};

struct FakeHa::Impl : std::enable_shared_from_this<FakeHa::Impl> {
  Options options;
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  std::thread thread;
  std::map<std::string, Entity> entities;
  json::array areas;
  std::vector<std::weak_ptr<Session>> sessions;
  std::set<std::string> stalled;
  std::size_t big_registry = 0;
  bool refuse_ws = false;
  std::atomic<std::size_t> authed_sessions{0};
  std::atomic<std::size_t> auth_messages{0};
  std::map<std::string, std::size_t> commands;
  mutable std::mutex commands_mutex;
  int context_counter = 0;

  template <class F>
  auto on_thread(F f) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto fut = task.get_future();
    asio::post(ioc, [&task] { task(); });
    return fut.get();
  }

  void seed() {
    const double t = now_seconds() - 60;
    entities["light.kitchen"] = {"on", json::object{{"friendly_name", "Kitchen Light"}, {"brightness", 255}}, t};
    entities["light.bedroom"] = {"off", json::object{{"friendly_name", "Bedroom Light"}}, t};
    entities["sensor.temperature"] = {"21.5",
                                      json::object{{"friendly_name", "Temperature"}, {"unit_of_measurement", "°C"}}, t};
    entities["switch.fan"] = {"off", json::object{{"friendly_name", "Fan"}}, t};
    for (std::size_t i = 0; i < options.extra_sensors; ++i) {
      entities["sensor.extra_" + std::to_string(i)] = {
          std::to_string(i), json::object{{"friendly_name", "Extra " + std::to_string(i)}}, t};
    }
    areas.push_back(json::object{{"area_id", "kitchen"}, {"name", "Kitchen"}, {"floor_id", nullptr}});
  }

  std::string next_context() { return "ctx" + std::to_string(++context_counter); }

  json::object state_json(const std::string& id, const Entity& e) const {
    auto iso = [](double) { return std::string("2026-01-01T00:00:00+00:00"); };
    return json::object{{"entity_id", id},
                        {"state", e.state},
                        {"attributes", e.attributes},
                        {"last_changed", iso(e.last_changed)},
                        {"last_updated", iso(e.last_changed)},
                        {"context", json::object{{"id", "c0"}, {"parent_id", nullptr}, {"user_id", nullptr}}}};
  }

  json::array all_states() const {
    json::array a;
    for (const auto& [id, e] : entities) a.push_back(state_json(id, e));
    return a;
  }

  std::vector<std::shared_ptr<Session>> live_sessions() {
    std::vector<std::shared_ptr<Session>> out;
    for (auto& w : sessions) {
      if (auto s = w.lock(); s && !s->closed && s->authed) out.push_back(s);
    }
    return out;
  }

  void emit_event(const std::string& type, json::object data) {
    for (auto& s : live_sessions()) {
      auto it = s->event_subs.find(type);
      if (it == s->event_subs.end()) continue;
      for (auto id : it->second) {
        s->send(json::object{{"id", id},
                             {"type", "event"},
                             {"event", json::object{{"event_type", type},
                                                    {"data", data},
                                                    {"origin", "LOCAL"},
                                                    {"time_fired", "2026-01-01T00:00:00+00:00"}}}});
      }
    }
  }

  void change_state(const std::string& id, const std::string& state, json::object attrs_changed = {}) {
    auto& e = entities[id];
    const bool existed = !e.state.empty();
    e.state = state;
    for (auto& kv : attrs_changed) e.attributes[kv.key()] = kv.value();
    e.last_changed = now_seconds();
    const std::string ctx = next_context();
    for (auto& s : live_sessions()) {
      if (!s->entities_sub) continue;
      json::object ev;
      if (existed) {
        json::object plus{{"s", state}, {"lc", e.last_changed}, {"c", ctx}};
        if (!attrs_changed.empty()) plus["a"] = attrs_changed;
        ev["c"] = json::object{{id, json::object{{"+", plus}}}};
      } else {
        ev["a"] =
            json::object{{id, json::object{{"s", state}, {"a", e.attributes}, {"c", ctx}, {"lc", e.last_changed}}}};
      }
      s->send(json::object{{"id", s->entities_sub}, {"type", "event"}, {"event", ev}});
    }
  }

  json::value entity_registry() const {
    json::array a;
    for (const auto& [id, e] : entities) {
      a.push_back(json::object{{"entity_id", id},
                               {"id", "reg-" + id},
                               {"platform", "fake"},
                               {"area_id", nullptr},
                               {"name", nullptr},
                               {"labels", json::array{}}});
    }
    return a;
  }

  std::string big_registry_body;  // built once when the size is set

  void build_big_registry() {
    std::string out = "[";
    const std::string pad(900, 'x');
    for (std::size_t n = 0; out.size() < big_registry; ++n) {
      if (n) out += ',';
      out += R"({"entity_id":"sensor.big_)" + std::to_string(n) + R"(","id":"r)" + std::to_string(n) +
             R"(","platform":"fake","pad":")" + pad + R"("})";
    }
    out += "]";
    big_registry_body = std::move(out);
  }

  std::string big_registry_result(std::uint64_t id) const {
    return R"({"id":)" + std::to_string(id) + R"(,"type":"result","success":true,"result":)" + big_registry_body + "}";
  }

  static void send_ok(const std::shared_ptr<Session>& s, std::uint64_t id, json::value result) {
    s->send(json::object{{"id", id}, {"type", "result"}, {"success", true}, {"result", std::move(result)}});
  }

  static void send_fail(const std::shared_ptr<Session>& s, std::uint64_t id, const char* code, std::string message) {
    s->send(json::object{{"id", id},
                         {"type", "result"},
                         {"success", false},
                         {"error", json::object{{"code", code}, {"message", message}}}});
  }

  // turn_on / turn_off of a known entity; anything else is "not found".
  void call_service(const std::shared_ptr<Session>& s, std::uint64_t id, const json::object& msg) {
    const std::string domain(msg.at("domain").as_string());
    const std::string service(msg.at("service").as_string());
    std::string target;
    for (const char* key : {"service_data", "target"}) {
      if (const auto* d = msg.if_contains(key); d && d->is_object()) {
        if (const auto* e = d->as_object().if_contains("entity_id"); e && e->is_string())
          target = std::string(e->as_string());
      }
    }
    if ((service != "turn_on" && service != "turn_off") || !entities.count(target)) {
      return send_fail(s, id, "not_found", "Service " + domain + "." + service + " not found.");
    }
    send_ok(s, id, json::object{{"context", json::object{{"id", next_context()}}}});
    change_state(target, service == "turn_on" ? "on" : "off");
  }

  void handle(const std::shared_ptr<Session>& s, const json::object& msg) {
    const std::string type =
        msg.contains("type") && msg.at("type").is_string() ? std::string(msg.at("type").as_string()) : "";
    std::uint64_t id = 0;
    if (const auto* v = msg.if_contains("id"); v && v->is_int64()) id = static_cast<std::uint64_t>(v->as_int64());
    {
      std::lock_guard lock(commands_mutex);
      ++commands[type];
    }
    if (id <= s->last_id) {
      s->send(json::object{
          {"id", id},
          {"type", "result"},
          {"success", false},
          {"error", json::object{{"code", "id_reuse"}, {"message", "Identifier values have to increase."}}}});
      return;
    }
    s->last_id = id;
    if (stalled.count(type)) return;
    auto ok = [&](json::value result) { send_ok(s, id, std::move(result)); };
    auto fail = [&](const char* code, std::string message) { send_fail(s, id, code, std::move(message)); };
    if (type == "ping") {
      s->send(json::object{{"id", id}, {"type", "pong"}});
    } else if (type == "supported_features") {
      s->coalesce = true;
      ok(nullptr);
    } else if (type == "get_config") {
      ok(json::object{{"version", "2026.1.0"}, {"location_name", "Fake Home"}, {"state", "RUNNING"}});
    } else if (type == "get_services") {
      ok(json::object{{"light", json::object{{"turn_on", json::object{{"name", "Turn on"}}},
                                             {"turn_off", json::object{{"name", "Turn off"}}}}}});
    } else if (type == "get_states") {
      ok(all_states());
    } else if (type == "subscribe_entities") {
      s->entities_sub = id;
      ok(nullptr);
      json::object a;
      for (const auto& [eid, e] : entities) {
        a[eid] = json::object{{"s", e.state}, {"a", e.attributes}, {"c", "c0"}, {"lc", e.last_changed}};
      }
      s->send(json::object{{"id", id}, {"type", "event"}, {"event", json::object{{"a", a}}}});
    } else if (type == "subscribe_events") {
      const auto* et = msg.if_contains("event_type");
      s->event_subs[et && et->is_string() ? std::string(et->as_string()) : "*"].insert(id);
      ok(nullptr);
    } else if (type == "unsubscribe_events") {
      ok(nullptr);
    } else if (type == "config/entity_registry/list") {
      if (big_registry) {
        s->send(big_registry_result(id));
      } else {
        ok(entity_registry());
      }
    } else if (type == "config/device_registry/list") {
      ok(json::array{});
    } else if (type == "config/area_registry/list") {
      ok(areas);
    } else if (type == "config/floor_registry/list" || type == "config/label_registry/list" ||
               type == "config/category_registry/list") {
      if (!options.has_floor_label_category) return fail("unknown_command", "Unknown command.");
      ok(json::array{});
    } else if (type == "call_service") {
      call_service(s, id, msg);
    } else {
      fail("unknown_command", "Unknown command.");
    }
  }

  asio::awaitable<void> writer(std::shared_ptr<Session> s);
  asio::awaitable<void> serve_ws(std::shared_ptr<Session> s);
  asio::awaitable<void> serve_http(tcp::socket socket);
  asio::awaitable<void> accept_loop();
};

}  // namespace hamcp::ha::testing
