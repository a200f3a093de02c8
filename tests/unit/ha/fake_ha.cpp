#include "fake_ha.hpp"

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

namespace hamcp::ha::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = asio::ip::tcp;

namespace {
double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

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

  asio::awaitable<void> writer(std::shared_ptr<Session> s) {
    while (!s->closed) {
      if (s->outbox.empty()) {
        s->signal.expires_at(asio::steady_timer::time_point::max());
        boost::system::error_code ec;
        co_await s->signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        continue;
      }
      std::string text;
      if (s->coalesce && s->outbox.size() > 1 && s->outbox.front().size() < 65536) {
        // Batch small queued messages into one array frame, like HA does.
        text = "[";
        while (!s->outbox.empty() && s->outbox.front().size() < 65536) {
          if (text.size() > 1) text += ',';
          text += s->outbox.front();
          s->outbox.pop_front();
        }
        text += "]";
      } else {
        text = std::move(s->outbox.front());
        s->outbox.pop_front();
      }
      boost::system::error_code ec;
      s->ws.text(true);
      co_await s->ws.async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        s->closed = true;
        co_return;
      }
    }
  }

  asio::awaitable<void> serve_ws(std::shared_ptr<Session> s) {
    boost::system::error_code ec;
    s->ws.read_message_max(std::size_t{64} * 1024 * 1024);
    asio::co_spawn(ioc, writer(s), asio::detached);
    s->send(json::object{{"type", "auth_required"}, {"ha_version", "2026.1.0"}});
    for (;;) {
      beast::flat_buffer buffer;
      co_await s->ws.async_read(buffer, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || s->closed) break;
      json::value v = json::parse(beast::buffers_to_string(buffer.data()), ec);
      if (ec || !v.is_object()) break;
      auto& o = v.as_object();
      if (!s->authed) {
        ++auth_messages;
        if (o["type"] == "auth" && o["access_token"].is_string() && o["access_token"].as_string() == options.token) {
          s->authed = true;
          ++authed_sessions;
          s->send(json::object{{"type", "auth_ok"}, {"ha_version", "2026.1.0"}});
        } else {
          s->send(json::object{{"type", "auth_invalid"}, {"message", "Invalid access token or password"}});
          // Give the writer a moment to flush, then close.
          asio::steady_timer t(ioc, std::chrono::milliseconds(50));
          co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
          break;
        }
        continue;
      }
      handle(s, o);
    }
    s->close_now();
  }

  asio::awaitable<void> serve_http(tcp::socket socket) {
    beast::flat_buffer buffer;
    boost::system::error_code ec;
    http::request<http::string_body> req;
    co_await http::async_read(socket, buffer, req, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    if (websocket::is_upgrade(req) && !refuse_ws) {
      auto s = std::make_shared<Session>(std::move(socket));
      sessions.push_back(s);
      co_await s->ws.async_accept(req, asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return;
      co_await serve_ws(s);
      co_return;
    }
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::content_type, "application/json");
    const std::string auth(req[http::field::authorization]);
    if (auth != "Bearer " + options.token) {
      res.result(http::status::unauthorized);
      res.set(http::field::content_type, "text/plain");
      res.body() = "401: Unauthorized";
    } else if (req.target() == "/api/") {
      res.body() = R"({"message":"API running."})";
    } else if (req.target() == "/api/states") {
      res.body() = json::serialize(all_states());
    } else if (req.target() == "/api/config") {
      res.body() = R"({"version":"2026.1.0","location_name":"Fake Home"})";
    } else if (req.target() == "/api/services") {
      res.body() = R"([{"domain":"light","services":{"turn_on":{"name":"Turn on"}}}])";
    } else if (req.target() == "/api/core/state") {
      res.body() = R"({"state":"RUNNING"})";
    } else {
      res.result(http::status::not_found);
      res.body() = "404: Not Found";
    }
    res.keep_alive(false);
    res.prepare_payload();
    co_await http::async_write(socket, res, asio::redirect_error(asio::use_awaitable, ec));
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket s = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return;
      asio::co_spawn(ioc, serve_http(std::move(s)), asio::detached);
    }
  }
};

FakeHa::FakeHa() : FakeHa(Options{}) {}

FakeHa::FakeHa(Options options) : impl_(std::make_shared<Impl>()) {
  impl_->options = std::move(options);
  impl_->seed();
  asio::co_spawn(impl_->ioc, impl_->accept_loop(), asio::detached);
  impl_->thread = std::thread([impl = impl_] { impl->ioc.run(); });
}

FakeHa::~FakeHa() {
  impl_->ioc.stop();
  impl_->thread.join();
}

std::uint16_t FakeHa::port() const { return impl_->acceptor.local_endpoint().port(); }
std::string FakeHa::url() const { return "http://127.0.0.1:" + std::to_string(port()); }
const std::string& FakeHa::token() const { return impl_->options.token; }

void FakeHa::set_state(const std::string& id, const std::string& state) {
  impl_->on_thread([&] { impl_->change_state(id, state); });
}

void FakeHa::remove_entity(const std::string& id) {
  impl_->on_thread([&] {
    impl_->entities.erase(id);
    for (auto& s : impl_->live_sessions()) {
      if (s->entities_sub) {
        s->send(
            json::object{{"id", s->entities_sub}, {"type", "event"}, {"event", json::object{{"r", json::array{id}}}}});
      }
    }
  });
}

void FakeHa::add_area(const std::string& area_id, const std::string& name) {
  impl_->on_thread([&] {
    impl_->areas.push_back(json::object{{"area_id", area_id}, {"name", name}, {"floor_id", nullptr}});
    impl_->emit_event("area_registry_updated", json::object{{"action", "create"}, {"area_id", area_id}});
  });
}

void FakeHa::drop_connections() {
  impl_->on_thread([&] {
    for (auto& w : impl_->sessions) {
      if (auto s = w.lock()) s->close_now();
    }
  });
}

void FakeHa::send_raw_to_all(const std::string& text) {
  impl_->on_thread([&] {
    for (auto& s : impl_->live_sessions()) s->send(text);
  });
}

void FakeHa::revoke_token() {
  impl_->on_thread([&] {
    impl_->options.token = "revoked-" + impl_->options.token;
    for (auto& w : impl_->sessions) {
      if (auto s = w.lock()) s->close_now();
    }
  });
}

void FakeHa::stall_command(const std::string& type) {
  impl_->on_thread([&] { impl_->stalled.insert(type); });
}

void FakeHa::set_big_entity_registry_bytes(std::size_t bytes) {
  impl_->on_thread([&] {
    impl_->big_registry = bytes;
    impl_->build_big_registry();
  });
}

void FakeHa::set_refuse_websocket(bool refuse) {
  impl_->on_thread([&] { impl_->refuse_ws = refuse; });
}

std::size_t FakeHa::websocket_sessions() const { return impl_->authed_sessions.load(); }
std::size_t FakeHa::auth_attempts() const { return impl_->auth_messages.load(); }

std::size_t FakeHa::command_count(const std::string& type) const {
  std::lock_guard lock(impl_->commands_mutex);
  auto it = impl_->commands.find(type);
  return it == impl_->commands.end() ? 0 : it->second;
}

boost::json::value FakeHa::states_json() const {
  return impl_->on_thread([&] { return json::value(impl_->all_states()); });
}

}  // namespace hamcp::ha::testing
