// libFuzzer target: registry and state payloads from a hostile or broken Home Assistant, fed into
// hamcp's live mirror (src/ha/mirror.cpp, snapshot.cpp) through the real path: a real HaClient
// (WsClient + Mirror) connected to FakeHa (fake_ha.hpp) in memory, and the search index kept
// by the real SearchFeed (src/home/search_feed.cpp), queried after every sync; every state is
// then rendered in its REST shape, as the tools do.
//
// Each input is a Script: subscribe_entities (result + initial event "a" + diff events
// "a"/"c"/"r", the compressed state format), get_config, get_services,
// config/{entity,device,area,floor,label,category}_registry/list, subscribe_events (registry
// update events, which trigger a refetch). Unscripted commands get an empty success result.
// Two ways in, chosen by a hash of the input (deterministic, so replays and minimisation agree):
//  - 1 input in 8 (the ones reconnect_sampling keeps as written, connection breakers and all): a
//    full sync. The harness drops the connection, and on the new one FakeHa answers the mirror's
//    commands from the input (initial states held for the sync, every registry, config and
//    services fetched and published as one update). The hand-written seeds for sync paths end with
//    a line "#as-written-N" that puts them on this side; pushed_* seeds start the other side.
//  - the others, on the live connection, as HA sends changes between syncs: FakeHa sends the
//    subscribe_entities frames as events of the live subscription, then announces every scripted
//    registry, config and services answer with HA's change event (entity_registry_updated...), so
//    the mirror's refresh (debounce 0 here) refetches them and gets the scripted frames (fake_ha.hpp,
//    kPushCommand). Same parser, decoder, publisher and search feed; no reconnect and no ~20
//    round trips of a sync per input, which were most of this target's time (bench/fuzz/CAMPAIGN.md).
//
// Client, mirror and FakeHa share one io_context driven from the fuzzing thread: no thread
// hand-offs (21 round trips per sync; on a loaded machine each hand-off costs a time slice), and
// they talk over in-memory pipes (WsOptions::connector), so a reconnect costs no system calls.
//
// Oracles besides the sanitizers: every sync ends (synced, "sync failed" or a dropped connection)
// within 10 s, a pushed change is taken within 10 s, and the client reconnects and syncs again
// after any input that failed a sync or cost the connection; a search query answers.
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "fake_ha.hpp"
#include "ha/connection_config.hpp"
#include "ha/errors.hpp"
#include "ha/ha_client.hpp"
#include "home/search_feed.hpp"
#include "reconnect_sampling.hpp"
#include "search/entity_index.hpp"

namespace {

using namespace hamcp;
namespace asio = boost::asio;
using namespace std::chrono_literals;

// 1 input in 8 with a frame that is not JSON (which costs hamcp the connection mid-sync, and the
// harness a recovering sync) runs as written; the others without those frames
// (reconnect_sampling.hpp says why).
constexpr std::uint32_t kConnectionBreakersOneIn = 8;

struct World {
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> guard = asio::make_work_guard(io);
  std::unique_ptr<fuzz::FakeHa> ha;
  std::unique_ptr<ha::HaClient> client;
  search::EntityIndex index;
  std::unique_ptr<home::SearchFeed> feed;
  std::uint64_t syncs_published = 0;
};
World* world = nullptr;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_mirror oracle failed: %s\n", what.c_str());
  std::abort();
}

// Runs the shared io_context until done(); fails naming `what` after 10 s.
template <class Done>
void wait_for(Done done, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) fail(what);
    if (world->io.poll() == 0) world->io.run_one_for(1ms);  // only timers left: wait for the next
  }
}

void start() {
  spdlog::set_level(spdlog::level::off);
  world = new World();
  world->ha = std::make_unique<fuzz::FakeHa>(world->io.get_executor());
  ha::ConnectionInput input;
  input.url = "http://127.0.0.1:8123";  // never dialled: the connector below is the connection
  input.token = "fuzz-access-token-0123456789";
  input.timeout = 2000ms;
  auto settings = ha::make_connection_settings(input);
  if (!std::holds_alternative<ha::ConnectionSettings>(settings)) fail("bad connection settings");
  ha::HaClientOptions options;
  options.ws.command_timeout = 2000ms;
  options.ws.connect_wait = 2000ms;
  options.ws.heartbeat_interval = 1h;
  options.ws.heartbeat_timeout = 1h;
  // A reconnect is cheap in memory: no backoff wait (the backoff timer still runs, due at once).
  options.ws.reconnect_initial = 0ms;
  options.ws.reconnect_max = 0ms;
  options.ws.connector = world->ha->connector();
  options.mirror.poll_interval = 1h;  // REST fallback: fuzz_ha_rest covers the REST client
  // Refetch at once: the harness then needs no wall-clock wait per input (settle()). The debounce's
  // timer and its coalescing of the announcements still run, with a 0 ms wait.
  options.mirror.registry_debounce = 0ms;
  options.mirror.command_timeout = 2000ms;
  world->client = std::make_unique<ha::HaClient>(world->io.get_executor(),
                                                 std::get<ha::ConnectionSettings>(std::move(settings)), options);
  world->feed = std::make_unique<home::SearchFeed>(*world->client, world->index);
  // Registered after the feed's listener, so it runs after the feed has indexed the same update.
  world->client->add_change_listener([](const ha::ChangeSet& cs, const ha::SnapshotPtr&) {
    if (cs.full_resync && cs.config_changed && cs.services_changed) ++world->syncs_published;
  });
  world->client->start();
  wait_for([] { return world->client->status().state == ha::MirrorState::synced; }, "the first sync never ended");
}

bool sync_failed() { return world->client->status().detail.find("sync failed") != std::string::npos; }

// What the tools do with the mirror next: every state in its REST shape (ha_get_state and the
// entity resources render to_json(), ISO timestamps included).
void render_states() {
  ha::SnapshotPtr snap = world->client->snapshot();
  snap->states.for_each([](const ha::EntityStatePtr& s) { (void)boost::json::serialize(s->to_json()); });
}

void query_index() {
  search::Query q;
  q.text = "kitchen light";
  q.limit = 5;
  search::Result r = world->index.query(q);
  for (const auto& hit : r.hits) {
    if (hit.entity_id.empty()) fail("a search hit without an entity_id");
  }
}

// Drops the connection and waits until the sync on the next one settles: published, failed
// ("sync failed" can only be this sync's: every input starts from a synced mirror), or the
// connection broke. Returns true when the sync published.
bool sync_with(fuzz::Script script) {
  world->ha->set_script(std::move(script));
  const std::uint64_t handshakes = world->ha->connections();
  const std::uint64_t syncs = world->syncs_published;
  ha::WsClient* ws = world->client->ws();
  ws->drop_connection_for_testing();
  wait_for(
      [&] {
        if (ws->state() == ha::WsState::waiting_to_reconnect) ws->reconnect_now();  // e.g. after a bad auth
        return world->ha->connections() > handshakes;
      },
      "the client did not reconnect after a drop");
  wait_for(
      [&] {
        return world->syncs_published > syncs || sync_failed() || ws->state() == ha::WsState::waiting_to_reconnect;
      },
      "the mirror neither synced nor failed after an input");
  return world->syncs_published > syncs;
}

// Runs the shared io_context until the mirror has taken a pushed change: its refresh (debounce 0
// here), the refetches it sends and FakeHa's answers (in memory: every step is a posted handler,
// no socket to wait on). The one wait is for the refresh's 0 ms timer, which the reactor sees only
// once the kernel's timer fired (microseconds): until the first refetch was answered, at most
// 20 ms (a scripted answer may have failed the subscription that carries the announcement).
void settle(std::uint64_t answered_before) {
  const bool refetch_due = world->ha->announced_by_last_push() > 0;
  const auto deadline = std::chrono::steady_clock::now() + 20ms;
  for (;;) {
    if (world->io.poll() > 0) continue;
    // answered_before counts the push itself: one more is the first refetch.
    const bool refetch_started = world->ha->commands_answered() > answered_before + 1;
    if (!refetch_due || refetch_started || std::chrono::steady_clock::now() > deadline) break;
    world->io.run_one_for(1ms);
  }
  const auto bound = std::chrono::steady_clock::now() + 2s;
  while (world->io.poll() > 0 && std::chrono::steady_clock::now() < bound) {
  }
}

asio::awaitable<void> send_push(ha::WsClient* ws, bool* done) {
  try {
    boost::json::object push;
    push["type"] = fuzz::kPushCommand;
    (void)co_await ws->command(std::move(push), 2000ms);
  } catch (const ha::HaException&) {
    // An input's frame answered the push command with an error, or the connection went: both
    // legitimate; the liveness check after the input decides.
  }
  *done = true;
}

// Delivers the script on the live connection (see the top of this file). Returns false when the
// connection did not survive it.
bool push_on_live_connection(fuzz::Script script) {
  ha::WsClient* ws = world->client->ws();
  if (ws->state() != ha::WsState::connected) return false;
  world->ha->set_script(std::move(script));
  const std::uint64_t answered_before = world->ha->commands_answered();
  bool done = false;
  asio::co_spawn(world->io, send_push(ws, &done), asio::detached);
  wait_for([&] { return done; }, "a change pushed on the live connection was never answered");
  settle(answered_before);
  return ws->state() == ha::WsState::connected;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  start();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::Script script = fuzz::Script::parse(text);
  fuzz::sample_connection_breakers(script, text, kConnectionBreakersOneIn);
  // The inputs sent as written are the ones that get a full sync (same hash, same 1 in 8).
  const bool full_sync = fuzz::input_hash(text) % kConnectionBreakersOneIn == 0;
  const bool ok = full_sync ? sync_with(std::move(script)) : push_on_live_connection(std::move(script));
  query_index();
  render_states();
  if (!ok || sync_failed()) {
    // Liveness, and a clean start for the next input: a well-behaved HA gets a synced mirror back.
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!sync_with(fuzz::Script{}) || sync_failed()) {
      if (std::chrono::steady_clock::now() > deadline) fail("the mirror did not sync again with a good HA");
    }
  }
  return 0;
}
