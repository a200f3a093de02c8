// hamcp's HA layer (HaClient: REST, WebSocket, live mirror) against a real Home
// Assistant. Run by test_real_ha.py, one check per invocation:
//
//   real_ha_ha_layer_check mirror     mirror syncs; its states, version, registries
//                                     and capabilities match what HA serves
//   real_ha_ha_layer_check service    a call_service shows up in the mirror
//   real_ha_ha_layer_check reconnect RUN_DIR SCRIPTS_DIR
//                                     HA is stopped and started again (stop.sh /
//                                     start.sh RUN_DIR): the mirror notices, comes
//                                     back to synced by itself, and is live again
//
// HOMEASSISTANT_URL / HOMEASSISTANT_TOKEN come from the environment. Prints one
// "ok: ..." line per proven fact; on failure prints "FAIL: ..." and exits 1.
// Every wait is bounded. The token is never printed.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "ha/connection_config.hpp"
#include "ha/errors.hpp"
#include "ha/ha_client.hpp"
#include "ha/mirror.hpp"
#include "ha/snapshot.hpp"

namespace json = boost::json;
using namespace std::chrono_literals;
using hamcp::ha::HaClient;

namespace {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void expect(bool cond, const std::string& what) {
  if (!cond) throw Failure(what);
}

// The HA client's io_context on its own thread; the check thread only waits, bounded.
class Loop {
 public:
  Loop() : guard_(ioc_.get_executor()), thread_([this] { ioc_.run(); }) {}
  ~Loop() {
    guard_.reset();
    ioc_.stop();
    thread_.join();
  }
  boost::asio::any_io_executor executor() { return ioc_.get_executor(); }
  template <class T>
  T run(boost::asio::awaitable<T> op, std::chrono::milliseconds limit) {
    auto fut = boost::asio::co_spawn(ioc_, std::move(op), boost::asio::use_future);
    if (fut.wait_for(limit) != std::future_status::ready) throw Failure("operation did not finish in time");
    return fut.get();
  }

 private:
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::thread thread_;
};

bool wait_until(const std::function<bool()>& pred, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

std::string state_of(const HaClient& c, const std::string& entity_id) {
  auto snap = c.snapshot();
  auto st = snap->states.find(entity_id);
  return st ? st->state : std::string("<absent>");
}

boost::asio::awaitable<json::value> rest_json(HaClient& c, std::string path) {
  json::value v = co_await c.rest_get_json(std::move(path));
  co_return v;
}

boost::asio::awaitable<json::value> ws_command(HaClient& c, json::object msg) {
  json::value v = co_await c.command(std::move(msg));
  co_return v;
}

boost::asio::awaitable<bool> synced(HaClient& c, std::chrono::milliseconds limit) {
  bool ok = co_await c.wait_synced(limit);
  co_return ok;
}

boost::asio::awaitable<json::value> toggle(HaClient& c, std::string entity_id) {
  hamcp::ha::ServiceCall call;
  call.domain = "input_boolean";
  call.service = "toggle";
  call.target["entity_id"] = entity_id;
  json::value v = co_await c.call_service(std::move(call));
  co_return v;
}

std::unique_ptr<HaClient> connect(Loop& loop) {
  hamcp::ha::ConnectionInput input;
  hamcp::ha::fill_from_environment(input);
  expect(!input.url.empty() && !input.token.empty(), "HOMEASSISTANT_URL and HOMEASSISTANT_TOKEN must be set");
  auto client = HaClient::from_input(loop.executor(), input);
  expect(client->configured(), "connection settings rejected");
  client->start();
  const bool ok = loop.run(synced(*client, 60s), 70s);
  expect(ok, "mirror did not reach synced within 60 s: " + json::serialize(client->status().to_json()));
  std::printf("ok: mirror synced (%s)\n", json::serialize(client->status().to_json()).c_str());
  return client;
}

void check_mirror(Loop& loop) {
  auto client = connect(loop);
  auto& c = *client;
  // States: the same entity ids as GET /api/states; helpers' states equal.
  for (int attempt = 0;; ++attempt) {
    json::value rest = loop.run(rest_json(c, "/api/states"), 30s);
    std::set<std::string> rest_ids;
    std::map<std::string, std::string> rest_state;
    for (const auto& s : rest.as_array()) {
      std::string id(s.at("entity_id").as_string());
      rest_ids.insert(id);
      rest_state[id] = std::string(s.at("state").as_string());
    }
    auto snap = c.snapshot();
    auto ids = snap->states.entity_ids();
    std::set<std::string> mirror_ids(ids.begin(), ids.end());
    if (mirror_ids != rest_ids && attempt < 3) {
      std::this_thread::sleep_for(1s);  // an entity may have just appeared
      continue;
    }
    expect(mirror_ids == rest_ids, "mirror entity ids differ from /api/states (" + std::to_string(mirror_ids.size()) +
                                       " vs " + std::to_string(rest_ids.size()) + ")");
    for (const char* id : {"input_boolean.hamcp_test_flag", "input_select.hamcp_test_mode",
                           "input_number.hamcp_test_level", "input_text.hamcp_test_note"}) {
      expect(snap->states.find(id) != nullptr, std::string("mirror lacks ") + id);
      expect(snap->states.find(id)->state == rest_state[id], std::string("mirror state of ") + id + " differs");
    }
    std::printf("ok: mirror holds the same %zu entities as /api/states\n", mirror_ids.size());
    break;
  }
  // Version and config.
  json::value cfg = loop.run(rest_json(c, "/api/config"), 30s);
  const std::string version(cfg.at("version").as_string());
  auto snap = c.snapshot();
  expect(snap->ha_version == version, "mirror ha_version '" + snap->ha_version + "' != " + version);
  expect(c.status().ha_version == version, "status ha_version differs");
  expect(snap->config && snap->config->contains("location_name"), "mirror has no config");
  std::printf("ok: mirror knows HA %s and its config\n", version.c_str());
  // Services catalogue.
  expect(snap->services && snap->services->contains("input_boolean") && snap->services->contains("light"),
         "mirror services lack input_boolean/light");
  std::printf("ok: mirror services catalogue has %zu domains\n", snap->services->size());
  // Registries and capabilities: floors/labels/categories exist from 2024.4 on.
  json::object list;
  list["type"] = "config/entity_registry/list";
  json::value ents = loop.run(ws_command(c, list), 60s);
  const auto& ent_reg = snap->registry(hamcp::ha::RegistryKind::entity);
  expect(ent_reg.size() == ents.as_array().size(), "entity registry size differs from HA's list (" +
                                                       std::to_string(ent_reg.size()) + " vs " +
                                                       std::to_string(ents.as_array().size()) + ")");
  std::printf("ok: entity registry mirrored (%zu entries)\n", ent_reg.size());
  // Capabilities: the mirror's per-registry flag equals what HA itself answers
  // (unknown_command = this HA has no such registry; 2024.3 knows floors and
  // labels but not categories).
  for (auto kind :
       {hamcp::ha::RegistryKind::floor, hamcp::ha::RegistryKind::label, hamcp::ha::RegistryKind::category}) {
    json::object probe;
    probe["type"] = "config/" + std::string(hamcp::ha::to_string(kind)) + "_registry/list";
    if (kind == hamcp::ha::RegistryKind::category) probe["scope"] = "automation";
    bool ha_has = true;
    try {
      loop.run(ws_command(c, probe), 30s);
    } catch (const hamcp::ha::HaException& e) {
      expect(e.error().ha_code == "unknown_command", std::string("probe failed: ") + e.what());
      ha_has = false;
    }
    const bool mirror_has = snap->capabilities.registries[static_cast<std::size_t>(kind)];
    expect(mirror_has == ha_has, std::string(hamcp::ha::to_string(kind)) + " registry: mirror capability " +
                                     (mirror_has ? "on" : "off") + " but HA " + version +
                                     (ha_has ? " has it" : " lacks it"));
    expect(snap->registry(kind).available == ha_has,
           std::string(hamcp::ha::to_string(kind)) + " registry availability differs from HA");
    std::printf("ok: %s registry capability %s, as HA %s answers\n", std::string(hamcp::ha::to_string(kind)).c_str(),
                ha_has ? "on" : "off", version.c_str());
  }
  client->stop();
}

// Toggle the flag through HaClient and watch the mirror follow.
void check_service_reflected(Loop& loop, HaClient& c, const std::string& flag) {
  const std::string before = state_of(c, flag);
  expect(before == "on" || before == "off", flag + " state is " + before);
  const std::string want = before == "on" ? "off" : "on";
  json::value res = loop.run(toggle(c, flag), 30s);
  expect(res.is_object() && res.as_object().contains("context"), "call_service result lacks context");
  const bool seen = wait_until([&] { return state_of(c, flag) == want; }, 10s);
  expect(seen, "mirror did not show " + flag + " = " + want + " within 10 s (still " + state_of(c, flag) + ")");
  json::value rest = loop.run(rest_json(c, "/api/states/" + flag), 30s);
  expect(rest.at("state").as_string() == want, "REST disagrees with the mirror after the toggle");
  std::printf("ok: call_service toggled %s %s -> %s and the mirror followed\n", flag.c_str(), before.c_str(),
              want.c_str());
}

void check_service(Loop& loop) {
  auto client = connect(loop);
  check_service_reflected(loop, *client, "input_boolean.hamcp_test_flag");
  check_service_reflected(loop, *client, "input_boolean.hamcp_test_flag");
  client->stop();
}

int run_script(const std::string& scripts, const char* name, const std::string& run_dir) {
  const std::string cmd = "'" + scripts + "/" + name + "' '" + run_dir + "' >&2";
  return std::system(cmd.c_str());
}

void check_reconnect(Loop& loop, const std::string& run_dir, const std::string& scripts) {
  auto client = connect(loop);
  auto& c = *client;
  const std::string flag = "input_boolean.hamcp_reconnect_flag";
  expect(run_script(scripts, "stop.sh", run_dir) == 0, "stop.sh failed");
  const bool noticed = wait_until([&] { return c.status().state != hamcp::ha::MirrorState::synced; }, 60s);
  expect(noticed, "mirror still says synced 60 s after HA stopped");
  std::printf("ok: mirror noticed HA going away (%s)\n", json::serialize(c.status().to_json()).c_str());
  // While HA is down, calls fail with a typed error instead of hanging.
  try {
    loop.run(rest_json(c, "/api/"), 60s);
    throw Failure("GET /api/ succeeded while HA was stopped");
  } catch (const hamcp::ha::HaException& e) {
    std::printf("ok: a call while HA is down fails cleanly: %s\n", e.what());
  }
  expect(run_script(scripts, "start.sh", run_dir) == 0, "start.sh failed");
  const bool back = loop.run(synced(c, 120s), 130s);
  expect(back, "mirror did not get back to synced within 120 s of HA running again: " +
                   json::serialize(c.status().to_json()));
  expect(c.status().mode == "websocket", "mirror came back in mode " + c.status().mode);
  std::printf("ok: mirror re-synced by itself after the restart\n");
  check_service_reflected(loop, c, flag);
  check_service_reflected(loop, c, flag);
  client->stop();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  // The HA layer's logs go to stderr; stdout carries only this program's results.
  spdlog::set_default_logger(spdlog::stderr_color_mt("real_ha"));
  try {
    Loop loop;
    if (mode == "mirror") {
      check_mirror(loop);
    } else if (mode == "service") {
      check_service(loop);
    } else if (mode == "reconnect" && argc == 4) {
      check_reconnect(loop, argv[2], argv[3]);
    } else {
      std::fprintf(stderr, "usage: %s mirror | service | reconnect RUN_DIR SCRIPTS_DIR\n", argv[0]);
      return 2;
    }
  } catch (const std::exception& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  return 0;
}
