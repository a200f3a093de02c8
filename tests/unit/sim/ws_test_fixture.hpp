// WsTest: a simulated Home Assistant WebSocket connection without a network
// (frames out are collected), shared by the sim's WebSocket command tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim::testing {

// A WebSocket connection without a network: frames out are collected.
class WsTest : public ::testing::Test {
 protected:
  SimCore core{demo_home(), "tok"};
  std::vector<json::value> out;
  bool closed = false;
  std::shared_ptr<WsConnection> conn = std::make_shared<WsConnection>(
      core, [this](std::string f) { out.push_back(json::parse(f)); }, [this] { closed = true; });
  int64_t next_id = 1;

  void SetUp() override {
    conn->on_message(R"({"type":"auth","access_token":"tok"})");
    ASSERT_EQ(out.back().at("type"), "auth_ok");
    out.clear();
  }
  void TearDown() override { conn->shutdown(); }

  // Sends a command, returns its result message.
  json::object cmd(json::object msg) {
    int64_t id = ++next_id;
    msg["id"] = id;
    out.clear();
    conn->on_message(json::serialize(msg));
    for (auto& m : out)
      if (m.at("id") == id && m.at("type") == "result") return m.as_object();
    ADD_FAILURE() << "no result for " << json::serialize(msg);
    return {};
  }
  std::vector<json::object> events(int64_t id) {
    std::vector<json::object> ev;
    for (auto& m : out)
      if (m.at("type") == "event" && m.at("id") == id) ev.push_back(m.at("event").as_object());
    return ev;
  }
  void call(const char* domain, const char* service, json::object data, const char* entity) {
    auto r = cmd({{"type", "call_service"},
                  {"domain", domain},
                  {"service", service},
                  {"service_data", data},
                  {"target", {{"entity_id", entity}}}});
    ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  }
};

}  // namespace hamcp::sim::testing
