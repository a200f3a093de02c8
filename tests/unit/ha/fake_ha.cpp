#include "fake_ha_impl.hpp"

namespace hamcp::ha::testing {

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
