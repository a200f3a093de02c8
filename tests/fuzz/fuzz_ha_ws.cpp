// libFuzzer target: what a hostile or broken Home Assistant sends over the WebSocket API, read by
// hamcp's real WsClient (src/ha/ws_client.cpp) over a real loopback connection to FakeHa
// (fake_ha.hpp): Beast's frame reader, the JSON parse, coalesced arrays, result/pong/event
// dispatch, error results, and (lines "auth ...") the auth phase and the reconnect that follows.
//
// One WsClient lives for the whole run, subscribed to subscribe_entities; each input is a Script
// answering one get_states command (and, with auth lines, the handshake of a fresh connection).
//
// Oracles besides the sanitizers:
//   - the client recovers: after any input a well-answered ping succeeds within 10 s (a malformed
//     frame may cost a reconnect, never a wedged client);
//   - the access token never comes back out in an error, even when HA echoes it ($TOKEN).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/serialize.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "fake_ha.hpp"
#include "ha/connection_config.hpp"
#include "ha/ws_client.hpp"

namespace {

using namespace hamcp;
namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kToken = "fuzz-access-token-0123456789";

struct World {
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> guard = asio::make_work_guard(io);
  std::unique_ptr<fuzz::FakeHa> ha;
  std::shared_ptr<ha::WsClient> ws;
  std::uint64_t events = 0;  // client thread only
};
World* world = nullptr;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_ha_ws oracle failed: %s\n", what.c_str());
  std::abort();
}

void check_no_token(const std::string& text) {
  if (text.find(kToken) != std::string::npos) fail("the access token reached an error message: " + text);
}

// Runs one command on the client's thread; returns the error message, or "" on success.
std::string run_command(json::object message, std::chrono::milliseconds timeout) {
  auto op = [message = std::move(message), timeout]() mutable -> asio::awaitable<std::string> {
    try {
      json::value result = co_await world->ws->command(std::move(message), timeout);
      (void)json::serialize(result);  // touch every byte of what HA returned
      co_return std::string();
    } catch (const ha::HaException& e) {
      co_return std::string("error: ") + e.what();
    }
  };
  std::future<std::string> done = asio::co_spawn(world->io, op(), asio::use_future);
  if (done.wait_for(timeout + 5s) != std::future_status::ready) fail("a command never completed");
  std::string error = done.get();
  check_no_token(error);
  if (auto last = world->ws->last_error()) check_no_token(last->message());
  return error;
}

void start() {
  spdlog::set_level(spdlog::level::off);
  world = new World();
  world->ha = std::make_unique<fuzz::FakeHa>();
  ha::ConnectionInput input;
  input.url = "http://127.0.0.1:" + std::to_string(world->ha->port());
  input.token = kToken;
  input.timeout = 2000ms;
  auto settings = ha::make_connection_settings(input);
  if (!std::holds_alternative<ha::ConnectionSettings>(settings)) fail("bad connection settings");
  ha::WsOptions options;
  options.command_timeout = 2000ms;
  options.connect_wait = 2000ms;
  options.heartbeat_interval = 1h;  // no pings of our own in the middle of an input
  options.heartbeat_timeout = 1h;
  options.reconnect_initial = 1ms;
  options.reconnect_max = 4ms;
  world->ws = std::make_shared<ha::WsClient>(world->io.get_executor(),
                                             std::get<ha::ConnectionSettings>(std::move(settings)), options);
  world->ws->start();
  std::thread([] { world->io.run(); }).detach();

  auto subscribe = []() -> asio::awaitable<void> {
    json::object message;
    message["type"] = "subscribe_entities";
    ha::WsClient::EventHandler handler = [](json::value& event, bool) {
      ++world->events;
      if (auto* o = event.if_object()) {
        if (auto* a = o->if_contains("a"); a && a->is_object()) world->events += a->as_object().size();
      }
    };
    co_await world->ws->subscribe(std::move(message), std::move(handler));
  };
  std::future<void> subscribed = asio::co_spawn(world->io, subscribe(), asio::use_future);
  if (subscribed.wait_for(10s) != std::future_status::ready) fail("subscribe_entities never confirmed");
  subscribed.get();
}

// After an input that broke the connection or the auth: a good HA must get a working client back.
// Polls the state (thread-safe) instead of letting a command wait: wait_connected polls every 20 ms.
void recover() {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  for (;;) {
    if (std::chrono::steady_clock::now() > deadline) fail("the client did not recover from an input");
    const ha::WsState state = world->ws->state();
    if (state == ha::WsState::waiting_to_reconnect) {
      world->ws->reconnect_now();  // a rejected token is retried 3 times, then only after this
    } else if (state == ha::WsState::connected) {
      json::object ping;
      ping["type"] = "ping";
      if (run_command(std::move(ping), 2000ms).empty()) return;
    }
    std::this_thread::sleep_for(50us);
  }
}

// Waits (bounded) until FakeHa has answered the handshake of the connection after a drop.
void wait_handshake(std::uint64_t before) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (world->ha->handshakes() <= before) {
    if (std::chrono::steady_clock::now() > deadline) fail("the client did not reconnect after a drop");
    std::this_thread::sleep_for(50us);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  start();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Script script = fuzz::Script::parse(std::string_view(reinterpret_cast<const char*>(data), size));
  const bool scripted_auth = !script.auth.empty();
  world->ha->set_script(std::move(script));
  if (scripted_auth) {  // the next handshake is the input's
    const std::uint64_t before = world->ha->handshakes();
    world->ws->drop_connection_for_testing();
    wait_handshake(before);
    recover();
  }
  json::object get_states;
  get_states["type"] = "get_states";
  std::string error = run_command(std::move(get_states), 2000ms);
  if (!error.empty()) recover();
  return 0;
}
