// Server-side latency of the entity tools: a tools/call from Session::deliver
// to the response on an in-memory channel (MCP core + argument validation +
// handler + response shaping), against a generated home served by the
// in-process sim and mirrored over the real WebSocket client.
//
//   bench_tools [entity counts...]      default: 1000 10000 100000
// Bounded: 20 queries x 10 rounds per size; sync wait <= 180 s; overview:
// 1 + 5 x 30 calls per size. HAMCP_BENCH_OVERVIEW_ONLY=1 skips everything
// but the overview section.
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/home.hpp"
#include "home/overview_data.hpp"
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
    io.run_one_for(std::chrono::milliseconds(20));  // returns as soon as one handler ran
  }
  return done();
}

struct Call {
  double ms = 0;
  std::size_t bytes = 0;  // the JSON-RPC response as sent on the wire
  bool error = false;
};

Call call(boost::asio::io_context& io, mcp::Session& session, int id, const std::string& tool,
          const std::string& args) {
  json::object req{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}};
  req["params"] = json::object{{"name", tool}, {"arguments", json::parse(args)}};
  auto sink = std::make_shared<Sink>();
  const auto t0 = Clock::now();
  session.deliver(json::value(std::move(req)), sink);
  run_until(
      io, [&] { return sink->closed; }, std::chrono::seconds(30));
  Call c;
  c.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!sink->sent.empty()) {
    c.bytes = json::serialize(sink->sent.back()).size();
    const json::value* r = sink->sent.back().as_object().if_contains("result");
    c.error = !r || r->as_object().contains("isError");
  } else {
    c.error = true;
  }
  return c;
}

double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(
      std::min<double>(static_cast<double>(v.size() - 1), std::ceil(p / 100.0 * static_cast<double>(v.size())) - 1));
  return v[i];
}

const char* kQueries[] = {"kitchen light", "temperature", "motion",   "door",  "bedroom lamp", "living room", "heating",
                          "window",        "garage",      "humidity", "power", "battery",      "tv",          "speaker",
                          "vacuum",        "lock",        "blind",    "fan",   "office",       "kitchn lihgt"};

bool overview_only() {
  const char* v = std::getenv("HAMCP_BENCH_OVERVIEW_ONLY");
  return v && std::string(v) == "1";
}

// VmRSS of this process in MB (Linux), 0 if unknown.
double rss_mb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  double kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %lf kB", &kb) == 1) break;
  std::fclose(f);
  return kb / 1024.0;
}

std::size_t structured_bytes(const Sink& sink) {
  if (sink.sent.empty()) return 0;
  const json::value* r = sink.sent.back().as_object().if_contains("result");
  const json::value* s = r ? r->as_object().if_contains("structuredContent") : nullptr;
  return s ? json::serialize(*s).size() : 0;
}

// ha_get_overview: the first call (builds the aggregates), then 30 calls per
// variant; and, for reference on the same machine and load, the from-scratch
// walk over every state that each call used to do.
std::size_t bench_overview(boost::asio::io_context& io, mcp::Session& session, ha::HaClient& ha, int& id,
                           std::size_t entities) {
  std::size_t errors = 0;
  const double rss_before = rss_mb();
  Call first = call(io, session, id++, "ha_get_overview", "{}");
  errors += first.error;
  std::printf("|   %zu | ha_get_overview {} first call (builds aggregates) | %.2f ms | RSS %.1f -> %.1f MB |\n",
              entities, first.ms, rss_before, rss_mb());
  std::string area;
  for (const boost::json::value& a : ha.snapshot()->registry(ha::RegistryKind::area).items()) {
    area = std::string(a.at("name").as_string());
    break;
  }
  const std::string variants[] = {R"({})", R"({"detail":"standard"})", R"({"detail":"full"})",
                                  R"({"detail":"standard","area":")" + area + "\"}",
                                  R"({"detail":"full","domains":["light"],"limit":1000})"};
  for (const auto& args : variants) {
    std::vector<double> t;
    std::size_t bytes = 0, sbytes = 0;
    for (int i = 0; i < 30; ++i) {
      json::object req{{"jsonrpc", "2.0"}, {"id", id++}, {"method", "tools/call"}};
      req["params"] = json::object{{"name", "ha_get_overview"}, {"arguments", json::parse(args)}};
      auto sink = std::make_shared<Sink>();
      const auto t0 = Clock::now();
      session.deliver(json::value(std::move(req)), sink);
      run_until(
          io, [&] { return sink->closed; }, std::chrono::seconds(30));
      t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      if (sink->sent.empty()) {
        ++errors;
        continue;
      }
      bytes = json::serialize(sink->sent.back()).size();
      sbytes = structured_bytes(*sink);
    }
    std::printf("|   %zu | ha_get_overview %s | p50 %.2f ms | p99 %.2f ms | %zu bytes wire, %zu structured |\n",
                entities, args.c_str(), pct(t, 50), pct(t, 99), bytes, sbytes);
  }
  std::vector<double> walk;
  home::overview::Query q;
  q.list_entities = true;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = Clock::now();
    home::overview::Summary s = home::overview::summarize_from_scratch(ha.snapshot(), q);
    walk.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (s.domains.empty()) ++errors;
  }
  std::printf("|   %zu | reference: from-scratch walk of every state (the old per-call cost) | p50 %.2f ms |\n",
              entities, pct(walk, 50));
  std::fflush(stdout);
  return errors;
}

// Typical responses: latency and size on the wire (JSON-RPC response incl. text + structuredContent).
void bench_typical(boost::asio::io_context& io, mcp::Session& session, int& id, std::size_t entities) {
  const std::pair<const char*, const char*> typical[] = {
      {"ha_search", R"({"query":"kitchen light"})"},
      {"ha_search", R"({"query":"temperature","fields":["entity_id","state"],"limit":20})"},
      {"ha_get_state", R"({"entity_id":"sun.sun"})"},
      {"ha_get_overview", R"({})"},
      {"ha_get_overview", R"({"detail":"standard"})"},
      {"ha_list_services", R"({"domain":"light"})"},
      {"ha_get_state", R"({"entity_id":"light.nope_nope"})"},
  };
  for (const auto& [tool, args] : typical) {
    std::vector<double> t;
    Call c;
    for (int i = 0; i < 5; ++i) {
      c = call(io, session, id++, tool, args);
      t.push_back(c.ms);
    }
    std::printf("|   %zu | %s %s | p50 %.2f ms | %zu bytes%s |\n", entities, tool, args, pct(t, 50), c.bytes,
                c.error ? " (isError)" : "");
  }
}

int bench(std::size_t entities) {
  sim::SimServer sim(sim::generate_home(entities, 1), sim::SimServerOptions{"127.0.0.1", 0, "bench"});
  sim.start();
  boost::asio::io_context io{1};
  mcp::ServerOptions so;
  so.version = "bench";
  mcp::Server server(io.get_executor(), so);
  ha::ConnectionInput input;
  input.url = sim.url();
  input.token = "bench";
  input.timeout = std::chrono::milliseconds(120000);
  app::Home home(io.get_executor(), input);
  home.register_tools(server.registry());
  ha::HaClient* ha = &home.ha();
  search::EntityIndex& index = home.index();
  auto session = server.create_session();
  auto init = std::make_shared<Sink>();
  session->deliver(
      json::parse(
          R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})"),
      init);
  session->deliver(json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), std::make_shared<Sink>());
  const auto t_sync = Clock::now();
  home.start();
  if (!run_until(
          io, [&] { return ha->status().state == ha::MirrorState::synced && index.size() >= entities; },
          std::chrono::seconds(180))) {
    std::fprintf(stderr, "%zu entities: mirror did not sync in 180 s\n", entities);
    return 1;
  }
  const double sync_s = std::chrono::duration<double>(Clock::now() - t_sync).count();
  // Registries arrive one by one after the states; let the mirror (and the
  // index rebuilds it triggers) go quiet so calls are measured alone.
  for (std::uint64_t v = 0; v != ha->snapshot()->version;) {
    v = ha->snapshot()->version;
    run_until(
        io, [] { return false; }, std::chrono::milliseconds(1500));
  }

  int id = 1;
  std::vector<double> times;
  std::size_t errors = 0;
  auto finish = [&] {
    home.stop();
    run_until(
        io, [] { return false; }, std::chrono::milliseconds(20));
    session->shutdown();
    sim.stop();
    return errors == 0 ? 0 : 1;
  };
  errors += bench_overview(io, *session, *ha, id, entities);
  if (overview_only()) return finish();
  for (int round = 0; round < 10; ++round)
    for (const char* q : kQueries) {
      Call c = call(io, *session, id++, "ha_search", std::string(R"({"query":")") + q + R"(","limit":10})");
      times.push_back(c.ms);
      errors += c.error;
    }
  std::printf("| %zu | ha_search | %.2f | %.2f | %zu | %zu | %.1f |\n", entities, pct(times, 50), pct(times, 99),
              times.size(), errors, sync_s);

  bench_typical(io, *session, id, entities);
  return finish();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::stoul(argv[i]));
  if (sizes.empty()) sizes = {1000, 10000, 100000};
  std::printf("| entities | tool | p50 ms | p99 ms | calls | errors | first sync s |\n|---|---|---|---|---|---|---|\n");
  int rc = 0;
  for (std::size_t n : sizes) rc |= bench(n);
  return rc;
}
