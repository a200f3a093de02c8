// Entity search benchmarks on generated homes (sim::generate_home, seed 1):
//   BM_Build/<n>        index build time (from a copy of the documents); counters: heap
//                       held by the index alone (mallinfo2, its packed documents included) and
//                       the stats() estimate
//   BM_Query/<n>        one query per iteration, rotating over a fixed mix of typical
//                       queries; counters p50_us / p99_us / max_us over all iterations
//   BM_QueryFilter/<n>  filter-only listing (domain=light, area=<an area>)
//   BM_UpsertRename/<n> incremental upsert that changes an entity's name
//   BM_UpsertState/<n>  incremental upsert that changes only the state
// Run: build-*/bench/search/bench_search --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <memory>

#include "search/entity_index.hpp"
#include "unit/search/home_docs.hpp"

namespace {

using namespace hamcp;
using search::EntityDoc;
using search::EntityIndex;

const std::vector<EntityDoc>& docs_for(std::size_t n) {
  static std::map<std::size_t, std::vector<EntityDoc>> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, search::testing::docs_from_home(sim::generate_home(n, 1))).first;
  return it->second;
}

EntityIndex& index_for(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<EntityIndex>> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, std::make_unique<EntityIndex>(docs_for(n))).first;
  return *it->second;
}

// Typical queries: exact names, rooms, device types, typos, other languages,
// ids, broad single words. Names that exist in every generated home size.
const std::vector<std::string> kQueries = {
    "living room ceiling light",
    "kitchen temperature",
    "bedroom window",
    "livng room lihgt",
    "Küche Licht",
    "light",
    "garage door",
    "thermostat",
    "motion",
    "office desk plug",
    "basement robot vacuum",
    "wohnzimmer",
    "battery",
    "bathroom humidity",
    "front door lock",
    "schlafzimmer heizung",
    "guest mode",
    "sensor.living_room_radiator_battery",
    "kids room blinds",
    "smoke detector",
};

// malloc'd bytes in use: arena chunks plus mmap'd large blocks (big vectors).
std::size_t heap_in_use() {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

void BM_Build(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& docs = docs_for(n);
  std::size_t estimate = 0, heap = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const std::size_t before = heap_in_use();  // before the copy: the build frees it doc by doc
    std::vector<EntityDoc> copy = docs;        // the index takes ownership of its input
    state.ResumeTiming();
    EntityIndex idx(std::move(copy));
    state.PauseTiming();
    heap = heap_in_use() - before;  // heap held by the index alone (its packed documents included)
    estimate = idx.stats().approx_bytes;
    state.ResumeTiming();
    benchmark::DoNotOptimize(idx.size());
  }
  state.counters["heap_MiB"] = static_cast<double>(heap) / (1024.0 * 1024.0);
  state.counters["estimate_MiB"] = static_cast<double>(estimate) / (1024.0 * 1024.0);
  state.counters["bytes_per_entity"] = static_cast<double>(heap) / static_cast<double>(n);
}

double thread_cpu_us() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

// Percentiles over the recorded iterations. Both wall and thread-CPU time are
// kept: on a shared, loaded machine the CPU time is the meaningful number.
void report_percentiles(benchmark::State& state, const char* prefix, std::vector<double>& us) {
  if (us.empty()) return;
  std::sort(us.begin(), us.end());
  auto at = [&](double q) {
    return us[std::min(us.size() - 1, static_cast<std::size_t>(q * static_cast<double>(us.size())))];
  };
  std::string p(prefix);
  state.counters[p + "p50_us"] = at(0.50);
  state.counters[p + "p99_us"] = at(0.99);
  state.counters[p + "max_us"] = us.back();
}

void BM_Query(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  EntityIndex& idx = index_for(n);
  std::vector<double> wall, cpu;
  wall.reserve(1 << 16);
  cpu.reserve(1 << 16);
  std::size_t i = 0;
  for (auto _ : state) {
    search::Query q;
    q.text = kQueries[i++ % kQueries.size()];
    q.limit = 10;
    auto t0 = std::chrono::steady_clock::now();
    double c0 = thread_cpu_us();
    auto r = idx.query(q);
    double c1 = thread_cpu_us();
    auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(r.total);
    if (wall.size() < (1u << 16)) {
      wall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      cpu.push_back(c1 - c0);
    }
  }
  report_percentiles(state, "wall_", wall);
  report_percentiles(state, "cpu_", cpu);
}

void BM_QueryFilter(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  EntityIndex& idx = index_for(n);
  const std::string area = docs_for(n).front().area_name;
  for (auto _ : state) {
    search::Query q;
    q.domain = "light";
    q.area = area;
    q.limit = 20;
    benchmark::DoNotOptimize(idx.query(q).total);
  }
}

void BM_UpsertRename(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  EntityIndex idx(docs_for(n));
  EntityDoc d = docs_for(n)[n / 2];
  const std::string base = d.friendly_name;
  std::size_t i = 0;
  for (auto _ : state) {
    d.friendly_name = base + (i++ % 2 ? " Renamed" : "");
    idx.upsert(d);
  }
}

void BM_UpsertState(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  EntityIndex idx(docs_for(n));
  EntityDoc d = docs_for(n)[n / 2];
  std::size_t i = 0;
  for (auto _ : state) {
    d.state = i++ % 2 ? "on" : "off";
    idx.upsert(d);
  }
}

BENCHMARK(BM_Build)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Query)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_QueryFilter)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UpsertRename)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UpsertState)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
