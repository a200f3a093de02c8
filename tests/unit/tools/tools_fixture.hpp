#pragma once
// The entity tools against an in-process simulated Home Assistant (demo home),
// called through the MCP Session API over an in-memory channel. Everything
// (MCP core, HA client, mirror) runs on the harness' single io_context; the
// sim serves from its own thread on 127.0.0.1, port 0.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "app/home.hpp"
#include "sim/server/sim_server.hpp"
#include "tools/entities/entity_tools.hpp"
#include "unit/mcp/mcp_harness.hpp"

namespace hamcp::tools::testing {

namespace json = boost::json;
using mcp::testing::Harness;

struct CallResult {
  json::object response;  // the JSON-RPC response
  json::object result;    // response.result
  bool is_error = false;
  json::object structured;  // structuredContent (empty if none)
  std::string text;         // concatenated text content
  const json::object& error() const { return structured.at("error").as_object(); }
  std::string code() const {
    const json::value* e = structured.if_contains("error");
    return e ? std::string(e->at("code").as_string()) : std::string();
  }
};

class ToolsTest : public ::testing::Test {
 protected:
  // `url` empty: start the demo sim and connect to it.
  void start(EntityToolsOptions options = {}, std::string url = {}, std::string token = "unit-token") {
    ha::ConnectionInput input;
    if (url.empty()) {
      sim = std::make_unique<sim::SimServer>(sim::demo_home(), sim::SimServerOptions{"127.0.0.1", 0, token});
      sim->start();
      url = sim->url();
    }
    input.url = url;
    input.token = token;
    input.timeout = std::chrono::milliseconds(3000);
    if (adjust_input) adjust_input(input);
    app::HomeOptions home_options;
    home_options.client.ws.connect_wait = std::chrono::milliseconds(500);
    home_options.client.ws.reconnect_initial = std::chrono::milliseconds(100);
    home_options.tools = options;
    home_options.filter = filter;
    home = std::make_unique<app::Home>(h.io.get_executor(), input, home_options);
    ha = &home->ha();
    index = &home->index();
    env = &home->tools_env();
    home->register_tools(h.server.registry());
    if (with_resources) home->register_resources(h.server);
    home->start();
    h.initialize();
    if (sim) {
      ASSERT_TRUE(h.run_until([&] { return ha->status().state == ha::MirrorState::synced && index->size() > 0; },
                              std::chrono::milliseconds(10000)))
          << "mirror never synced with the sim";
    }
  }

  bool with_resources = false;  // also the home's resources (src/resources/), before initialize

  // Called on the connection input before the Home is made (e.g. add-on mode).
  std::function<void(ha::ConnectionInput&)> adjust_input;

  void TearDown() override {
    if (home) home->stop();
    h.run_for(std::chrono::milliseconds(20));
    h.session->shutdown();
    h.run_for(std::chrono::milliseconds(5));
    ha = nullptr;
    index = nullptr;
    env = nullptr;
    home.reset();
    if (sim) sim->stop();
  }

  CallResult call(const std::string& name, const std::string& args_json = "{}",
                  std::chrono::milliseconds budget = std::chrono::milliseconds(15000)) {
    return call_in(*h.session, name, args_json, budget);
  }

  // The same through another MCP session (e.g. one from other_session()).
  CallResult call_in(mcp::Session& session, const std::string& name, const std::string& args_json = "{}",
                     std::chrono::milliseconds budget = std::chrono::milliseconds(15000)) {
    json::object req;
    req["jsonrpc"] = "2.0";
    req["id"] = ++next_id;
    req["method"] = "tools/call";
    json::object params;
    params["name"] = name;
    params["arguments"] = json::parse(args_json);
    req["params"] = std::move(params);
    auto channel = std::make_shared<mcp::testing::MemoryChannel>();
    session.deliver(json::value(std::move(req)), channel);
    h.run_until([&] { return channel->closed > 0; }, budget);
    CallResult r;
    auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << name << " " << args_json;
    if (responses.empty()) return r;
    r.response = responses.front();
    if (!r.response.contains("result")) {
      ADD_FAILURE() << "JSON-RPC error: " << json::serialize(r.response);
      return r;
    }
    r.result = r.response.at("result").as_object();
    r.is_error = mcp::testing::is_error_result(r.response);
    if (const json::value* s = r.result.if_contains("structuredContent")) r.structured = s->as_object();
    r.text = mcp::testing::text_of(r.response);
    return r;
  }

  // Runs the io loop until pred() or the budget passes.
  template <class Pred>
  bool eventually(Pred pred, std::chrono::milliseconds budget = std::chrono::milliseconds(5000)) {
    return h.run_until(pred, budget);
  }

  // A second, already initialized session with its own id (as HTTP has).
  std::shared_ptr<mcp::Session> other_session(std::string id) {
    mcp::SessionInfo info;
    info.protocol_version = "2025-11-25";
    auto s = h.server.restore_session(std::move(id), std::move(info));
    s->set_standalone_channel(std::make_shared<mcp::testing::MemoryChannel>());
    return s;
  }

  json::object list_tools() { return h.request(R"({"jsonrpc":"2.0","id":"list","method":"tools/list"})"); }

  // fn(sim::Home&) under the sim store's lock: read or plant demo data.
  template <class F>
  auto with_sim_home(F fn) {
    std::lock_guard lock(sim->store().mutex());
    return fn(sim->store().home());
  }
  // The demo home's device id of `name` (a test failure when there is none).
  std::string device_named(const std::string& name) {
    return with_sim_home([&](sim::Home& home) {
      for (const auto& d : home.devices)
        if (d.name == name) return d.id;
      ADD_FAILURE() << "no device " << name;
      return std::string();
    });
  }

  Harness h;
  ToolFilter filter;  // tools switched off by start()
  std::unique_ptr<sim::SimServer> sim;
  std::unique_ptr<app::Home> home;  // the same composition root as the runtime
  ha::HaClient* ha = nullptr;       // views into `home`
  search::EntityIndex* index = nullptr;
  ToolEnv* env = nullptr;
  int next_id = 100;
};

inline std::vector<std::string> ids_of(const json::array& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.emplace_back(i.at("entity_id").as_string());
  return out;
}

}  // namespace hamcp::tools::testing
