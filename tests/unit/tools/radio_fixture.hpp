#pragma once
// The fixture of the ha_manage_radio tests (radio_*_test.cpp): the demo sim's
// radio data and devices read under the store's lock, and the tool called in
// the ordinary or a read-only session.
#include <boost/asio/steady_timer.hpp>
#include <functional>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {

class RadioTest : public ToolsTest {
 protected:
  bool has_device(const std::string& id) {
    return with_sim_home([&](sim::Home& home) {
      return std::any_of(home.devices.begin(), home.devices.end(), [&](const sim::Device& d) { return d.id == id; });
    });
  }
  // Home::radios[radio][key] ("zha", "zwave_js", "thread", "matter").
  json::value radio_data(const char* radio, const char* key) {
    return with_sim_home([&](sim::Home& home) {
      const json::value* v = home.radios.at(radio).as_object().if_contains(key);
      return v ? *v : json::value(nullptr);
    });
  }
  void drop_entries(const std::string& domain) {
    with_sim_home([&](sim::Home& home) {
      return std::erase_if(home.config_entries,
                           [&](const json::object& e) { return e.at("entry").at("domain") == domain.c_str(); });
    });
  }
  std::string state_of(const std::string& entity_id) {
    std::lock_guard lock(sim->store().mutex());
    const auto s = sim->store().get(entity_id);
    return s ? s->state : "missing";
  }
  json::value attribute(const std::string& entity_id, const char* key) {
    std::lock_guard lock(sim->store().mutex());
    const auto s = sim->store().get(entity_id);
    if (!s) return "missing";
    return s->attributes.contains(key) ? s->attributes.at(key) : json::value(nullptr);
  }
  CallResult radio(const std::string& args) { return call("ha_manage_radio", args); }
  // The tool called, and the sim's WebSocket dropped (from the harness loop)
  // once sent() holds: HA got the command. Its answer, after which the loop
  // runs until hamcp is back and synced.
  CallResult radio_dropped_when(const std::string& args, const std::function<bool()>& sent) {
    const std::uint64_t connects = ha->ws()->connects();
    boost::asio::steady_timer timer(h.io);
    bool dropped = false;
    std::function<void()> poll = [&] {
      if (sent()) {
        sim->drop_websockets();
        dropped = true;
        return;
      }
      timer.expires_after(std::chrono::milliseconds(10));
      timer.async_wait([&](boost::system::error_code ec) {
        if (!ec) poll();
      });
    };
    poll();
    CallResult answer = radio(args);
    timer.cancel();
    EXPECT_TRUE(dropped) << "the command never reached the sim";
    EXPECT_TRUE(eventually([&] {
      return ha->ws()->connects() > connects && ha->status().state == ha::MirrorState::synced;
    })) << "hamcp did not come back";
    h.run_for(std::chrono::milliseconds(300));  // time for anything re-sent to arrive
    return answer;
  }
  CallResult radio_read_only(const std::string& args) {
    if (!read_only_) {
      read_only_ = other_session("radio-read-only");
      read_only_->make_read_only();
    }
    return call_in(*read_only_, "ha_manage_radio", args);
  }

 private:
  std::shared_ptr<mcp::Session> read_only_;
};

}  // namespace hamcp::tools::testing
