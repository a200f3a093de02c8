// Mirror benchmarks against the simulated Home Assistant (loopback only).
//   bench_ha_mirror [sizes=1000,10000,100000] [changes=300] [reconnects=5]
// For each home size: the simulator runs in a forked child process (so this
// process's RSS is the mirror's), then we measure
//   - time from HaClient::start() to a synced mirror, and RSS after it;
//   - write->mirror latency: REST POST /api/states/<id> until the mirror's
//     change listener sees the new state (p50/p99 over `changes` writes);
//   - reconnect-to-consistent: sim drops every WebSocket; time until the mirror
//     is synced again and shows a state written while it was down.
// Every wait is bounded; prints a Markdown table on stdout.
#include <malloc.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/guarded_main.hpp"
#include "ha/ha_client.hpp"
#include "sim/home/home_model.hpp"
#include "sim/server/sim_server.hpp"

using namespace std::chrono;
namespace asio = boost::asio;
namespace json = boost::json;
using hamcp::ha::HaClient;

namespace {

const std::string kToken = "bench-token-0123456789";

long rss_kib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

struct Child {
  pid_t pid = -1;
  uint16_t port = 0;
};

// Fork a simulator of n entities; the child lives until killed.
Child spawn_sim(std::size_t n) {
  int fds[2];
  if (pipe(fds) != 0) std::abort();
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    hamcp::sim::SimServerOptions o;
    o.token = kToken;
    hamcp::sim::SimServer sim(hamcp::sim::generate_home(n, 1), o);
    uint16_t port = sim.start();
    if (write(fds[1], &port, sizeof port) != sizeof port) _exit(1);
    close(fds[1]);
    sim.wait();
    _exit(0);
  }
  close(fds[1]);
  Child c;
  c.pid = pid;
  if (read(fds[0], &c.port, sizeof c.port) != sizeof c.port) std::abort();
  close(fds[0]);
  return c;
}

template <class T>
T run(asio::io_context& ioc, asio::awaitable<T> op, seconds limit = seconds(120)) {
  auto fut = asio::co_spawn(ioc, std::move(op), asio::use_future);
  if (fut.wait_for(limit) != std::future_status::ready) throw std::runtime_error("bench step timed out");
  return fut.get();
}

double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double last = static_cast<double>(v.size() - 1);
  return v[std::min(v.size() - 1, static_cast<std::size_t>(std::lround(p * last)))];
}

double ms(steady_clock::duration d) { return duration<double, std::milli>(d).count(); }

// One simulated home of n entities, mirrored by one HaClient on its own io thread.
class MirrorBench {
 public:
  MirrorBench(asio::io_context& ioc, int port) : ioc_(ioc) {
    hamcp::ha::ConnectionInput in;
    in.url = "http://127.0.0.1:" + std::to_string(port);
    in.token = kToken;
    in.timeout = seconds(120);
    hamcp::ha::HaClientOptions opts;
    opts.ws.heartbeat_interval = seconds(30);
    client_ = HaClient::from_input(ioc.get_executor(), in, opts);
    client_->add_change_listener([this](const hamcp::ha::ChangeSet&, const hamcp::ha::SnapshotPtr& snap) {
      std::lock_guard lock(m_);
      if (watched_id_.empty()) return;
      auto s = snap->states.find(watched_id_);
      if (s && s->state == watched_state_) {
        seen_at_ = steady_clock::now();
        cv_.notify_all();
      }
    });
  }
  ~MirrorBench() { client_->stop(); }

  // Milliseconds from start to "synced", or a negative number when it did not sync.
  double sync() {
    const auto t0 = steady_clock::now();
    client_->start();
    const bool synced = run(ioc_, client_->wait_synced(seconds(120)));
    return synced ? ms(steady_clock::now() - t0) : -1;
  }

  // One round trip of a WebSocket command.
  double timed(const char* type) {
    json::object m;
    m["type"] = type;
    const auto s0 = steady_clock::now();
    run(ioc_, client_->command(m, seconds(60)));
    return ms(steady_clock::now() - s0);
  }

  // Splits a full states fetch into "server + transfer" and "our JSON parse" (printed).
  void fetch_split(std::size_t n) {
    const auto f0 = steady_clock::now();
    auto body = run(ioc_, client_->rest_get("/api/states")).body;
    const double fetch_ms = ms(steady_clock::now() - f0);
    const auto p0 = steady_clock::now();
    auto parsed = json::parse(body);
    const double parse_ms = ms(steady_clock::now() - p0);
    std::fprintf(stderr, "n=%zu: GET /api/states %.1f MB in %.0f ms, client JSON parse %.0f ms\n", n,
                 static_cast<double>(body.size()) / 1e6, fetch_ms, parse_ms);
  }

  // Entities to write: sensors (plain states the sim accepts as-is).
  std::vector<std::string> sensor_ids() const {
    std::vector<std::string> ids;
    client_->snapshot()->states.for_each([&](const hamcp::ha::EntityStatePtr& s) {
      if (ids.size() < 64 && s->entity_id.rfind("sensor.", 0) == 0) ids.push_back(s->entity_id);
    });
    return ids;
  }

  // Write -> mirror latency of `changes` REST state writes, ms.
  std::vector<double> write_latencies(const std::vector<std::string>& ids, int changes) {
    std::vector<double> lat;
    for (int i = 0; i < changes && !ids.empty(); ++i) {
      const double l = write_and_wait(ids[static_cast<std::size_t>(i) % ids.size()], "bench_" + std::to_string(i));
      if (l >= 0) lat.push_back(l);
    }
    return lat;
  }

  // Dropped WebSocket -> mirror consistent again (a state written while down shows up), ms, sorted.
  std::vector<double> reconnect_times(const std::string& id, int reconnects) {
    std::vector<double> rec;
    for (int r = 0; r < reconnects; ++r) {
      json::object fault;
      fault["action"] = "drop_websockets";
      const auto start = steady_clock::now();
      run(ioc_, client_->rest_post("/api/hamcp_sim/fault", fault), seconds(10));
      json::object body;
      const std::string value = "after_drop_" + std::to_string(r);
      body["state"] = value;
      run(ioc_, client_->rest_post("/api/states/" + id, body), seconds(10));
      const auto deadline = start + seconds(60);
      while (!consistent(id, value, r) && steady_clock::now() <= deadline)
        std::this_thread::sleep_for(microseconds(200));
      rec.push_back(ms(steady_clock::now() - start));
    }
    std::sort(rec.begin(), rec.end());
    return rec;
  }

  std::size_t mirrored() const { return client_->snapshot()->states.size(); }

 private:
  double write_and_wait(const std::string& id, const std::string& value) {
    {
      std::lock_guard lock(m_);
      watched_id_ = id;
      watched_state_ = value;
      seen_at_ = {};
    }
    const auto start = steady_clock::now();
    json::object body;
    body["state"] = value;
    run(ioc_, client_->rest_post("/api/states/" + id, body), seconds(10));
    std::unique_lock lock(m_);
    if (!cv_.wait_for(lock, seconds(10), [&] { return seen_at_ != steady_clock::time_point{}; })) return -1;
    return ms(seen_at_ - start);
  }

  bool consistent(const std::string& id, const std::string& value, int round) const {
    auto st = client_->status();
    auto s = client_->snapshot()->states.find(id);
    return st.state == hamcp::ha::MirrorState::synced &&
           client_->ws()->connects() >= static_cast<std::uint64_t>(round) + 2 && s && s->state == value;
  }

  asio::io_context& ioc_;
  std::unique_ptr<HaClient> client_;
  std::mutex m_;
  std::condition_variable cv_;
  std::string watched_id_, watched_state_;
  steady_clock::time_point seen_at_;
};

// One table row: sync, fetch round trips, RSS, write latency, reconnects.
bool bench_size(std::size_t n, int changes, int reconnects) {
  Child child = spawn_sim(n);
  const long rss_before = rss_kib();
  asio::io_context ioc;
  auto guard = asio::make_work_guard(ioc);
  std::thread io([&] { ioc.run(); });
  bool ok = true;
  {
    MirrorBench bench(ioc, child.port);
    const double sync_ms = bench.sync();
    if (sync_ms < 0) {
      std::fprintf(stderr, "not synced for %zu entities\n", n);
      ok = false;
    } else {
      malloc_trim(0);
      const long rss_after = rss_kib();
      const double states_ms = bench.timed("get_states");
      bench.fetch_split(n);
      const double registry_ms = bench.timed("config/entity_registry/list");
      const std::vector<std::string> ids = bench.sensor_ids();
      const std::vector<double> lat = bench.write_latencies(ids, changes);
      std::vector<double> rec;
      if (!ids.empty()) rec = bench.reconnect_times(ids[0], reconnects);
      std::printf("| %zu (mirrored %zu) | %.0f | %.0f | %.0f | %.1f (+%.1f) | %.2f | %.2f | %.0f (%.0f) |\n", n,
                  bench.mirrored(), sync_ms, states_ms, registry_ms, static_cast<double>(rss_after) / 1024.0,
                  static_cast<double>(rss_after - rss_before) / 1024.0, pct(lat, 0.5), pct(lat, 0.99), pct(rec, 0.5),
                  rec.empty() ? 0.0 : rec.back());
      std::fflush(stdout);
    }
  }
  guard.reset();
  ioc.stop();
  io.join();
  kill(child.pid, SIGKILL);
  waitpid(child.pid, nullptr, 0);
  return ok;
}

}  // namespace

static int run_main(int argc, char** argv) {
  std::vector<std::size_t> sizes = {1000, 10000, 100000};
  if (argc > 1) {
    sizes.clear();
    std::stringstream ss(argv[1]);
    std::string item;
    while (std::getline(ss, item, ',')) sizes.push_back(std::stoul(item));
  }
  const int changes = argc > 2 ? std::stoi(argv[2]) : 300;
  const int reconnects = argc > 3 ? std::stoi(argv[3]) : 5;
  spdlog::set_level(spdlog::level::warn);
  std::printf(
      "| entities | sync ms | get_states ms | entity_registry/list ms | RSS after sync MiB (delta) | write->mirror p50 "
      "ms | p99 ms | reconnect->consistent median ms (max) |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (std::size_t n : sizes)
    if (!bench_size(n, changes, reconnects)) return 1;
  return 0;
}

int main(int argc, char** argv) { return hamcp::common::guarded_main(argc, argv, run_main); }
