#pragma once
// The fixture of the ha_manage_radio tests (radio_*_test.cpp): the demo sim's
// radio data and devices read under the store's lock, and the tool called in
// the ordinary or a read-only session.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {

class RadioTest : public ToolsTest {
 protected:
  template <class F>
  auto with_sim_home(F fn) {
    std::lock_guard lock(sim->store().mutex());
    return fn(sim->store().home());
  }
  std::string device_named(const std::string& name) {
    return with_sim_home([&](sim::Home& home) {
      for (const auto& d : home.devices)
        if (d.name == name) return d.id;
      ADD_FAILURE() << "no device " << name;
      return std::string();
    });
  }
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
