// Config search (ha_search's config_results): a generated home with 1,000
// automations, 500 scripts and 200 scenes in the in-process sim, mirrored over
// the real WebSocket client. Measures (server-side, Session::deliver to the
// response on an in-memory channel) how long the config cache takes to warm
// after start, the first search's latency and whether it was complete, then
// warm p50/p99 over 20 queries x 10 rounds.
//
//   bench_config_search [automations scripts scenes]   default: 1000 500 200
// Bounded: sync wait <= 120 s, warm-up wait <= 120 s, 200 timed calls.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/home.hpp"
#include "mcp/server.hpp"
#include "sim/server/sim_server.hpp"

using namespace hamcp;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Sink : mcp::Channel {
  std::vector<json::value> sent;
  bool closed = false;
  void send(json::value m) override { sent.push_back(std::move(m)); }
  void close() override { closed = true; }
};

template <class Pred>
bool run_until(boost::asio::io_context& io, Pred done, std::chrono::milliseconds budget) {
  const auto deadline = Clock::now() + budget;
  while (!done() && Clock::now() < deadline) {
    io.restart();
    io.run_one_for(std::chrono::milliseconds(20));
  }
  return done();
}

struct Call {
  double ms = 0;
  json::object structured;
};

Call call(boost::asio::io_context& io, mcp::Session& session, int id, const std::string& args) {
  json::object req{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}};
  req["params"] = json::object{{"name", "ha_search"}, {"arguments", json::parse(args)}};
  auto sink = std::make_shared<Sink>();
  const auto t0 = Clock::now();
  session.deliver(json::value(std::move(req)), sink);
  run_until(
      io, [&] { return sink->closed || !sink->sent.empty(); }, std::chrono::seconds(30));
  Call c;
  c.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!sink->sent.empty())
    if (const auto* r = sink->sent.back().as_object().if_contains("result"))
      if (const auto* s = r->as_object().if_contains("structuredContent")) c.structured = s->as_object();
  return c;
}

// Adds `n` items of `domain` whose configs mention entities of the home.
void add_items(sim::Home& home, const std::string& domain, std::size_t n, const std::vector<std::string>& ids) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::string key = domain + "_gen_" + std::to_string(i);
    const std::string a = ids[(i * 7) % ids.size()], b = ids[(i * 13 + 5) % ids.size()];
    const std::string alias = "Generated " + domain + " " + std::to_string(i);
    json::object cfg;
    if (domain == "automation") {
      cfg = {
          {"id", key},
          {"alias", alias},
          {"triggers", json::array{json::object{{"trigger", "state"}, {"entity_id", a}, {"to", "on"}}}},
          {"actions", json::array{json::object{{"action", "homeassistant.turn_on"}, {"target", {{"entity_id", b}}}}}}};
      home.automation_configs[key] = cfg;
    } else if (domain == "script") {
      cfg = {
          {"alias", alias},
          {"sequence", json::array{json::object{{"action", "homeassistant.toggle"}, {"target", {{"entity_id", a}}}}}}};
      home.script_configs[key] = cfg;
    } else {
      cfg = {{"id", key}, {"name", alias}, {"entities", json::object{{a, {{"state", "on"}}}, {b, {{"state", "off"}}}}}};
      home.scene_configs[key] = cfg;
    }
    sim::EntityState st;
    st.entity_id = domain + "." + key;
    st.state = domain == "automation" ? "on" : domain == "script" ? "off" : "unknown";
    st.attributes = {{"friendly_name", alias}};
    if (domain != "script") st.attributes["id"] = key;
    home.states.push_back(std::move(st));
  }
}

double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t automations = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
  const std::size_t scripts = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 500;
  const std::size_t scenes = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 200;
  spdlog::set_level(spdlog::level::warn);
  sim::Home home = sim::generate_home(2000, 7);
  std::vector<std::string> ids;
  for (const auto& s : home.states) ids.push_back(s.entity_id);
  add_items(home, "automation", automations, ids);
  add_items(home, "script", scripts, ids);
  add_items(home, "scene", scenes, ids);
  sim::SimServer sim(std::move(home), sim::SimServerOptions{"127.0.0.1", 0, "t"});
  sim.start();

  boost::asio::io_context io{1};
  mcp::ServerOptions so;
  so.version = "bench";
  mcp::Server server(io.get_executor(), so);
  ha::ConnectionInput input;
  input.url = sim.url();
  input.token = "t";
  input.timeout = std::chrono::milliseconds(120000);
  app::Home h(io.get_executor(), input);
  h.register_tools(server.registry());
  auto session = server.create_session();
  session->deliver(
      json::parse(
          R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})"),
      std::make_shared<Sink>());
  session->deliver(json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), std::make_shared<Sink>());
  const auto t_start = Clock::now();
  h.start();
  run_until(
      io, [&] { return h.ha().status().state == ha::MirrorState::synced; }, std::chrono::seconds(120));
  const double synced_ms = std::chrono::duration<double, std::milli>(Clock::now() - t_start).count();
  const std::string probe = ids[(std::size_t{7} * 3) % ids.size()];
  Call first = call(io, *session, 1, R"({"query":")" + probe + R"("})");
  const bool first_complete = !first.structured.contains("config_status");
  run_until(
      io, [&] { return h.tools_env().configs.status().ready; }, std::chrono::seconds(120));
  const auto st = h.tools_env().configs.status();
  std::vector<double> warm;
  for (int round = 0; round < 10; ++round)
    for (int q = 0; q < 20; ++q) {
      const std::string query = ids[(static_cast<std::size_t>(q) * 131 + 17) % ids.size()];
      warm.push_back(call(io, *session, 100 + round * 20 + q, R"({"query":")" + query + R"("})").ms);
    }
  std::printf("items: %zu automations, %zu scripts, %zu scenes (home of 2000 entities)\n", automations, scripts,
              scenes);
  std::printf("mirror synced after start: %.0f ms\n", synced_ms);
  std::printf("config cache warm (first full pass): %.0f ms; %zu indexed, %zu failed\n", st.warm_ms, st.loaded,
              st.failed);
  std::printf("first search after sync: %.2f ms, config results %s\n", first.ms,
              first_complete ? "complete" : "partial (config_status: loading)");
  std::printf("warm ha_search with config results: p50 %.2f ms, p99 %.2f ms (200 calls)\n", pct(warm, 0.5),
              pct(warm, 0.99));
  h.stop();
  sim.stop();
  return 0;
}
