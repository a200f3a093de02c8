// libFuzzer target: what a hostile or broken Home Assistant sends over the WebSocket API, read by
// hamcp's real WsClient (src/ha/ws_client.cpp) over an in-memory connection to FakeHa
// (fake_ha.hpp, WsOptions::connector; upgrade and auth run as over TCP): Beast's frame reader, the JSON parse,
// coalesced arrays, result/pong/event dispatch, error results, and (lines "auth ...") the auth phase and the reconnect
// that follows.
//
// One WsClient lives for the whole run, subscribed to subscribe_entities; each input is a Script
// answering one get_states command (and, with auth lines, the handshake of a fresh connection).
// Client and FakeHa share one io_context driven from the fuzzing thread (poll, or a short wait
// when only timers are left, e.g. the reconnect backoff): no thread hand-offs.
//
// Oracles besides the sanitizers:
//   - the client recovers: after any input a well-answered ping succeeds within 10 s (a malformed
//     frame may cost a reconnect, never a wedged client);
//   - the access token never comes back out in an error, even when HA echoes it ($TOKEN).
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "fake_ha.hpp"
#include "ha/connection_config.hpp"
#include "ha/ws_client.hpp"
#include "reconnect_sampling.hpp"

namespace {

using namespace hamcp;
namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kToken = "fuzz-access-token-0123456789";
// 1 input in 4 that would cost the connection (a frame that is not JSON, a scripted handshake)
// runs as written; the others without those frames (reconnect_sampling.hpp says why). Over TCP it
// was 1 in 8; in memory a reconnect costs less (no sockets), so twice as many run as written. (4
// divides 8: the seeds marked #as-written-N stay on the written side.)
constexpr std::uint32_t kConnectionBreakersOneIn = 4;

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

// Runs the shared io_context until done() (false after 10 s: the caller names what hung).
template <class Done>
bool drive(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    if (world->io.poll() == 0) world->io.run_one_for(1ms);  // only timers left: wait for the next
  }
  return true;
}

// Any 12 characters of the token count: an echo that hamcp cuts short (an excerpt of HA's answer)
// still leaks. (WebSocket frames arrive whole, so a cut token can only be hamcp's doing, or the
// input's: see input_names_token.)
bool has_token_part(std::string_view text) {
  const std::string_view token = kToken;
  for (std::size_t at = 0; at + 12 <= token.size(); ++at) {
    if (text.find(token.substr(at, 12)) != std::string_view::npos) return true;
  }
  return false;
}

// Set per input: libFuzzer learns the token's characters from the oracle's own comparisons and
// may write them into an input literally; then the text came from HA, not from hamcp's token.
bool input_names_token = false;

void check_no_token(const std::string& text) {
  if (!input_names_token && has_token_part(text)) fail("(part of) the access token reached an error message: " + text);
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
  std::optional<std::string> error;
  asio::co_spawn(world->io, op(), [&error](std::exception_ptr, std::string e) { error = std::move(e); });
  if (!drive([&] { return error.has_value(); })) fail("a command never completed");
  check_no_token(*error);
  if (auto last = world->ws->last_error()) check_no_token(last->message());
  return *error;
}

void start() {
  spdlog::set_level(spdlog::level::off);
  world = new World();
  world->ha = std::make_unique<fuzz::FakeHa>(world->io.get_executor());
  ha::ConnectionInput input;
  input.url = "http://127.0.0.1:8123";  // never dialled: the connector below is the connection
  input.token = kToken;
  input.timeout = 2000ms;
  auto settings = ha::make_connection_settings(input);
  if (!std::holds_alternative<ha::ConnectionSettings>(settings)) fail("bad connection settings");
  ha::WsOptions options;
  options.command_timeout = 2000ms;
  options.connect_wait = 2000ms;
  options.heartbeat_interval = 1h;  // no pings of our own in the middle of an input
  options.heartbeat_timeout = 1h;
  // A reconnect is cheap in memory: no backoff wait (the backoff timer still runs, due at once).
  options.reconnect_initial = 0ms;
  options.reconnect_max = 0ms;
  options.connector = world->ha->connector();
  world->ws = std::make_shared<ha::WsClient>(world->io.get_executor(),
                                             std::get<ha::ConnectionSettings>(std::move(settings)), options);
  world->ws->start();

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
  bool subscribed = false;
  asio::co_spawn(world->io, subscribe(), [&subscribed](std::exception_ptr e) {
    if (e) fail("subscribe_entities failed");
    subscribed = true;
  });
  if (!drive([&] { return subscribed; })) fail("subscribe_entities never confirmed");
}

// After an input that broke the connection or the auth: a good HA must get a working client back.
// Watches the state instead of letting a command wait: wait_connected polls every 20 ms.
void recover() {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  for (;;) {
    if (std::chrono::steady_clock::now() > deadline) fail("the client did not recover from an input");
    const ha::WsState state = world->ws->state();
    if (state == ha::WsState::waiting_to_reconnect) {
      if (auto last = world->ws->last_error()) check_no_token(last->message());  // why the input failed
      world->ws->reconnect_now();  // a rejected token is retried 3 times, then only after this
    } else if (state == ha::WsState::connected) {
      json::object ping;
      ping["type"] = "ping";
      if (run_command(std::move(ping), 2000ms).empty()) return;
    }
    if (world->io.poll() == 0) world->io.run_one_for(1ms);
  }
}

// Waits (bounded) until FakeHa has accepted the connection after a drop.
void wait_reconnect(std::uint64_t before) {
  if (!drive([&] { return world->ha->connections() > before; })) fail("the client did not reconnect after a drop");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  start();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input_names_token = has_token_part(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::Script script = fuzz::Script::parse(text);
  fuzz::sample_connection_breakers(script, text, kConnectionBreakersOneIn);
  const bool scripted_auth = !script.auth.empty();
  world->ha->set_script(std::move(script));
  if (scripted_auth) {  // the next handshake is the input's
    const std::uint64_t before = world->ha->connections();
    world->ws->drop_connection_for_testing();
    wait_reconnect(before);
    recover();
  }
  json::object get_states;
  get_states["type"] = "get_states";
  std::string error = run_command(std::move(get_states), 2000ms);
  if (!error.empty()) recover();
  return 0;
}
