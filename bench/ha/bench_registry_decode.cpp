// Decoding a registry list from HA's text into the mirror's packed form
// (ha::Registry::make_from_text: the item-by-item parse, the packing and the
// string pool), on a generated home's entity registry (sim::generate_home(n,
// 42), the list `config/entity_registry/list` answers: ~55 MB at 100k). At
// 100k this is the part of a sync that runs after the last byte of the last
// answer has arrived, before the search index is built.
// Run: build-*/bench/ha/bench_registry_decode --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <map>
#include <string>

#include "ha/snapshot.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/home/home_model.hpp"

namespace {

using namespace hamcp;

const std::string& entity_list_for(std::size_t n) {
  static std::map<std::size_t, std::string> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    const sim::Home home = sim::generate_home(n, 42);
    boost::json::array items;
    for (const auto& e : home.entities) items.emplace_back(sim::entity_entry_json(e, false));
    it = cache.emplace(n, boost::json::serialize(items)).first;
  }
  return it->second;
}

void BM_EntityRegistryDecode(benchmark::State& state) {
  const std::string& list = entity_list_for(static_cast<std::size_t>(state.range(0)));
  std::size_t items = 0;
  for (auto _ : state) {
    boost::system::error_code ec;
    ha::RegistryPtr registry = ha::Registry::make_from_text(ha::RegistryKind::entity, list, ec);
    items = registry ? registry->size() : 0;
    state.PauseTiming();  // freeing it is not the decode
    registry.reset();
    state.ResumeTiming();
  }
  state.counters["items"] = static_cast<double>(items);
  state.counters["MB"] = static_cast<double>(list.size()) / 1e6;
}

BENCHMARK(BM_EntityRegistryDecode)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
