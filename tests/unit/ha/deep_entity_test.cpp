// An entity whose attributes nest deeply (seen in the wild: 29 levels). Before
// the fix Boost.JSON's default depth limit (32) made every frame carrying it
// "too deep": the mirror dropped the connection, reconnected at once (the
// backoff was reset by each successful connect) and logged ~25 lines a second.
#include <gtest/gtest.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <cstdio>
#include <mutex>
#include <thread>

#include "client_loop.hpp"
#include "ha/ha_client.hpp"
#include "sim/home/home_model.hpp"
#include "sim/server/sim_server.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

const std::string kToken = "deep-test-token-0123456789";

json::object nested(int depth) {
  json::value v = "leaf";
  for (int i = 0; i < depth; ++i) {
    json::object o;
    o["level"] = std::move(v);
    v = std::move(o);
  }
  return std::move(v.as_object());
}

// Counts warn/error lines while installed as the default logger's only sink.
class CountingSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::atomic<int> problems{0};
  std::string seen;  // the lines, for the failure message (under base_sink's mutex)

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    if (msg.level < spdlog::level::warn) return;
    ++problems;
    seen.append(msg.payload.data(), std::min<std::size_t>(msg.payload.size(), 160)).append("\n");
  }
  void flush_() override {}
};

struct LogCounter {
  LogCounter() : sink(std::make_shared<CountingSink>()), saved(spdlog::default_logger()) {
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("count", sink));
  }
  ~LogCounter() { spdlog::set_default_logger(saved); }
  std::shared_ptr<CountingSink> sink;
  std::shared_ptr<spdlog::logger> saved;
};

struct DeepHome {
  explicit DeepHome(int depth) : home(hamcp::sim::generate_home(30, 7)) {
    entity_id = home.states.front().entity_id;
    home.states.front().attributes["deep"] = nested(depth);
  }
  hamcp::sim::Home home;
  std::string entity_id;
};

std::unique_ptr<HaClient> connect(ClientLoop& loop, const std::string& url) {
  HaClientOptions o;
  o.ws.command_timeout = 10s;
  o.ws.connect_wait = 2s;
  o.ws.reconnect_initial = 50ms;
  o.ws.reconnect_max = 800ms;
  ConnectionInput in;
  in.url = url;
  in.token = kToken;
  in.timeout = 10s;
  auto c = HaClient::from_input(loop.executor(), in, o);
  c->start();
  return c;
}

hamcp::sim::SimServerOptions sim_options() {
  hamcp::sim::SimServerOptions o;
  o.token = kToken;
  return o;
}

int depth_of(const json::value& v) {
  int depth = 0;
  const json::value* at = &v;
  while (const json::object* o = at->if_object()) {
    const json::value* next = o->if_contains("level");
    if (!next) break;
    ++depth;
    at = next;
  }
  return depth;
}

}  // namespace

TEST(DeepEntity, MirrorSyncsAnEntityWhoseAttributesNest40Deep) {
  DeepHome deep(40);
  hamcp::sim::SimServer sim(std::move(deep.home), sim_options());
  sim.start();
  ClientLoop loop;
  auto client = connect(loop, sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s))) << "the mirror never synced";
  auto state = client->snapshot()->states.find(deep.entity_id);
  ASSERT_TRUE(state);
  const json::object attributes = state->attributes.parse();
  const json::value* attr = attributes.if_contains("deep");
  ASSERT_TRUE(attr);
  EXPECT_EQ(depth_of(*attr), 40);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(client->ws()->connects(), 1u) << "the connection must stay up";
  client->stop();
}

// Past the (now 256) limit the message really cannot be taken, but only that
// message: before, the whole connection dropped (failing every command in
// flight) and, the frame being the initial subscribe_entities event, every
// reconnect met it again. Now the event is skipped and counted, a command
// whose answer is too deep fails on its own naming the depth, and the same
// connection keeps serving.
TEST(DeepEntity, MessageBeyondTheLimitIsRejectedAloneAndTheConnectionStays) {
  LogCounter log;
  DeepHome deep(400);
  hamcp::sim::SimServer sim(std::move(deep.home), sim_options());
  sim.start();
  ClientLoop loop;
  auto client = connect(loop, sim.url());
  WsClient& ws = *client->ws();
  ASSERT_TRUE(wait_until([&] { return ws.too_deep_events_skipped() >= 1; }))
      << "the initial subscribe_entities event (too deep) was never skipped; connects: " << ws.connects();
  auto get_states = [&]() -> boost::asio::awaitable<std::string> {
    json::object message;
    message["type"] = "get_states";
    try {
      co_await ws.command(std::move(message), 10s);
      co_return std::string("succeeded");
    } catch (const HaException& e) {
      co_return e.error().message();
    }
  };
  const std::string error = loop.run(get_states());
  EXPECT_NE(error.find("nests deeper than 256 levels"), std::string::npos) << error;
  auto ping = [&]() -> boost::asio::awaitable<bool> {
    json::object message;
    message["type"] = "ping";
    co_await ws.command(std::move(message), 10s);
    co_return true;
  };
  EXPECT_TRUE(loop.run(ping())) << "the connection must keep serving";
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(ws.connects(), 1u) << "the connection must stay up";
  EXPECT_EQ(ws.state(), WsState::connected);
  client->stop();
  std::this_thread::sleep_for(50ms);
  EXPECT_LE(log.sink->problems.load(), 6) << "warn/error lines:\n" << log.sink->seen;
}
