#pragma once
// One authenticated WebSocket connection to a simulator on the demo home,
// without the network: send a command, get its result message.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/core/sim_core.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim::testing {

class WsCommandTest : public ::testing::Test {
 protected:
  SimCore core{demo_home(), "tok"};
  std::vector<json::value> out;  // every frame the connection sent
  std::shared_ptr<WsConnection> conn = std::make_shared<WsConnection>(
      core, [this](std::string f) { out.push_back(json::parse(f)); }, [] {});
  int64_t next_id = 1;

  void SetUp() override { conn->on_message(R"({"type":"auth","access_token":"tok"})"); }
  void TearDown() override { conn->shutdown(); }

  // Sends `msg` with a fresh id; its result message, or {} and a test failure.
  json::object cmd(json::object msg) {
    const int64_t id = ++next_id;
    msg["id"] = id;
    out.clear();
    conn->on_message(json::serialize(msg));
    for (auto& m : out)
      if (m.as_object().contains("id") && m.at("id") == id && m.at("type") == "result") return m.as_object();
    ADD_FAILURE() << "no result for " << json::serialize(msg);
    return {};
  }
  static std::string code(const json::object& r) { return std::string(r.at("error").at("code").as_string()); }
  static std::string message(const json::object& r) { return std::string(r.at("error").at("message").as_string()); }
};

}  // namespace hamcp::sim::testing
