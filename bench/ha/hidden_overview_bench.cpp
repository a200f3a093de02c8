// What a visibility filter adds to one ha_get_overview call: the hidden set
// (Visibility::hidden) and the hidden tally (HiddenTally::of, then leave_out)
// for the call's snapshot, on a hand-built home of N entities with every lock
// hidden, when nothing changed since the last call, after one visible state
// change, and after one hidden state change (a new snapshot each time, as the
// mirror publishes them). Uses only the public API, so the same source builds
// against main's tools for a before/after in one run.
//   hidden_overview_bench [ENTITIES=10000] [HIDDEN=1000] [CALLS=200]

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ha/snapshot.hpp"
#include "home/overview_data.hpp"
#include "tools/entities/overview_hidden.hpp"
#include "tools/gate/visibility.hpp"

namespace {

using namespace hamcp;
namespace json = boost::json;

void put(ha::StateTableBuilder& b, const std::string& id, const std::string& value) {
  auto s = std::make_shared<ha::EntityState>();
  s->entity_id = id;
  s->state = value;
  b.put(std::move(s));
}

std::string entity_id(std::size_t i, std::size_t hidden) {
  return i < hidden ? "lock.l" + std::to_string(i) : "light.l" + std::to_string(i);
}

ha::SnapshotPtr make_home(std::size_t n, std::size_t hidden) {
  auto snap = std::make_shared<ha::Snapshot>();
  ha::StateTableBuilder b{ha::StateTable{}};
  json::array entities;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string id = entity_id(i, hidden);
    put(b, id, i % 2 ? "on" : "off");
    entities.push_back(json::object{{"entity_id", id}, {"area_id", "area_" + std::to_string(i % 50)}});
  }
  snap->states = b.build();
  snap->registries[static_cast<std::size_t>(ha::RegistryKind::entity)] =
      ha::Registry::make(ha::RegistryKind::entity, std::move(entities));
  return snap;
}

ha::SnapshotPtr changed(const ha::SnapshotPtr& base, const std::string& id, const std::string& value) {
  auto next = std::make_shared<ha::Snapshot>(*base);
  ++next->version;
  ha::StateTableBuilder b(base->states);
  put(b, id, value);
  next->states = b.build();
  return next;
}

// One call's filter work, in microseconds.
double one_call(tools::Visibility& vis, const ha::SnapshotPtr& snap) {
  const auto t0 = std::chrono::steady_clock::now();
  const tools::HiddenSetPtr hidden = vis.hidden(snap);
  home::overview::Summary sum;
  tools::HiddenTally::of(hidden, snap)->leave_out(sum, home::overview::Query{});
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  const std::size_t hidden = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1000;
  const std::size_t calls = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 200;
  tools::Visibility vis(tools::VisibilityRules{{}, {"lock"}, false});
  ha::SnapshotPtr snap = make_home(n, hidden);
  one_call(vis, snap);  // the first call builds everything
  std::vector<double> quiet, visible, hidden_change;
  for (std::size_t i = 0; i < calls; ++i) {
    quiet.push_back(one_call(vis, snap));
    snap = changed(snap, entity_id(hidden + i % (n - hidden), hidden), i % 2 ? "on" : "off");
    visible.push_back(one_call(vis, snap));
    snap = changed(snap, entity_id(i % hidden, hidden), i % 2 ? "locked" : "jammed");
    hidden_change.push_back(one_call(vis, snap));
  }
  std::printf(
      "entities %zu, hidden %zu, calls %zu: median us per call: quiet %.1f, after a visible change %.1f, "
      "after a hidden change %.1f\n",
      n, hidden, calls, median(quiet), median(visible), median(hidden_change));
}
