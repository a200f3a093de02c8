#include "home/expectations.hpp"

#include <cmath>
#include <cstdlib>

namespace hamcp::home {

namespace json = boost::json;

std::string Expectation::describe() const {
  switch (kind) {
    case Kind::states: {
      std::string s;
      for (std::size_t i = 0; i < states.size(); ++i) s += (i ? " or " : "") + states[i];
      return s;
    }
    case Kind::number: {
      std::string s = std::to_string(value);
      s.erase(s.find_last_not_of('0') + 1);
      if (!s.empty() && s.back() == '.') s.pop_back();
      return s;
    }
    case Kind::any_update:
      return "any update";
  }
  return {};
}

namespace {
Expectation states(std::initializer_list<const char*> s) {
  Expectation e;
  e.kind = Expectation::Kind::states;
  for (const char* x : s) e.states.emplace_back(x);
  return e;
}
std::string data_str(const json::object& data, const char* key) {
  const json::value* v = data.if_contains(key);
  if (!v) return {};
  if (v->is_string()) return std::string(v->get_string());
  return {};
}
std::optional<double> data_num(const json::object& data, const char* key) {
  const json::value* v = data.if_contains(key);
  if (!v) return std::nullopt;
  if (v->is_number()) return v->to_number<double>();
  if (v->is_string()) {
    char* end = nullptr;
    std::string s(v->get_string());
    double d = std::strtod(s.c_str(), &end);
    if (end && *end == '\0' && !s.empty()) return d;
  }
  return std::nullopt;
}
}  // namespace

Expectation expect_after(const std::string& domain, const std::string& service, const json::object& data,
                         const std::string& before) {
  const bool on_off = domain == "light" || domain == "switch" || domain == "fan" || domain == "input_boolean" ||
                      domain == "automation" || domain == "siren" || domain == "humidifier" || domain == "remote";
  if (on_off) {
    if (service == "turn_on") return states({"on"});
    if (service == "turn_off") return states({"off"});
    if (service == "toggle") {
      if (before == "on") return states({"off"});
      if (before == "off") return states({"on"});
    }
  }
  if (domain == "climate") {
    if (service == "turn_off") return states({"off"});
    if (service == "set_hvac_mode") {
      std::string m = data_str(data, "hvac_mode");
      if (!m.empty()) {
        Expectation e;
        e.kind = Expectation::Kind::states;
        e.states.push_back(m);
        return e;
      }
    }
  }
  if (domain == "lock") {
    if (service == "lock") return states({"locked", "locking"});
    if (service == "unlock") return states({"unlocked", "unlocking"});
    if (service == "open") return states({"open", "opening", "unlocked"});
  }
  if (domain == "cover") {
    if (service == "open_cover") return states({"open", "opening"});
    if (service == "close_cover") return states({"closed", "closing"});
    if (service == "toggle") {
      if (before == "open" || before == "opening") return states({"closed", "closing"});
      if (before == "closed" || before == "closing") return states({"open", "opening"});
    }
  }
  if (domain == "valve") {
    if (service == "open_valve") return states({"open", "opening"});
    if (service == "close_valve") return states({"closed", "closing"});
  }
  if (domain == "media_player") {
    if (service == "turn_off") return states({"off"});
    if (service == "media_play") return states({"playing"});
    if (service == "media_pause") return states({"paused"});
    if (service == "media_stop") return states({"idle", "off", "on"});
  }
  if (domain == "vacuum") {
    if (service == "start") return states({"cleaning"});
    if (service == "return_to_base") return states({"returning", "docked"});
    if (service == "stop" || service == "pause") return states({"idle", "paused", "docked"});
  }
  if (domain == "alarm_control_panel") {
    static const char* const kArm[][2] = {{"alarm_arm_away", "armed_away"},
                                          {"alarm_arm_home", "armed_home"},
                                          {"alarm_arm_night", "armed_night"},
                                          {"alarm_arm_vacation", "armed_vacation"},
                                          {"alarm_arm_custom_bypass", "armed_custom_bypass"},
                                          {"alarm_disarm", "disarmed"}};
    for (const auto& a : kArm)
      if (service == a[0]) {
        Expectation e;
        e.kind = Expectation::Kind::states;
        e.states = {a[1], "arming", "pending"};
        if (service == "alarm_disarm") e.states = {"disarmed"};
        return e;
      }
  }
  if ((domain == "input_select" || domain == "select") && service == "select_option") {
    std::string o = data_str(data, "option");
    if (!o.empty()) {
      Expectation e;
      e.kind = Expectation::Kind::states;
      e.states.push_back(o);
      return e;
    }
  }
  if ((domain == "input_number" || domain == "number") && service == "set_value") {
    if (auto v = data_num(data, "value")) {
      Expectation e;
      e.kind = Expectation::Kind::number;
      e.value = *v;
      return e;
    }
  }
  if ((domain == "input_text" || domain == "text") && service == "set_value") {
    const json::value* v = data.if_contains("value");
    if (v && v->is_string()) {
      Expectation e;
      e.kind = Expectation::Kind::states;
      e.states.emplace_back(v->get_string());
      return e;
    }
  }
  return Expectation{};
}

bool satisfies(const Expectation& e, const std::string& state) {
  switch (e.kind) {
    case Expectation::Kind::states:
      for (const auto& s : e.states)
        if (s == state) return true;
      return false;
    case Expectation::Kind::number: {
      char* end = nullptr;
      const double d = std::strtod(state.c_str(), &end);
      return end && *end == '\0' && !state.empty() && std::fabs(d - e.value) < 1e-6 * std::max(1.0, std::fabs(e.value));
    }
    case Expectation::Kind::any_update:
      return false;
  }
  return false;
}

}  // namespace hamcp::home
