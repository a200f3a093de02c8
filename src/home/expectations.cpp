#include "home/expectations.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string_view>

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
Expectation states_of(std::vector<std::string> list) {
  Expectation e;
  e.kind = Expectation::Kind::states;
  e.states = std::move(list);
  return e;
}

// Services whose outcome does not depend on the call's data or the state before.
struct FixedOutcome {
  std::string_view domain, service;
  std::array<const char*, 3> states;  // unused slots are null
};
constexpr FixedOutcome kFixedOutcomes[] = {
    {"climate", "turn_off", {"off"}},
    {"lock", "lock", {"locked", "locking"}},
    {"lock", "unlock", {"unlocked", "unlocking"}},
    {"lock", "open", {"open", "opening", "unlocked"}},
    {"cover", "open_cover", {"open", "opening"}},
    {"cover", "close_cover", {"closed", "closing"}},
    {"valve", "open_valve", {"open", "opening"}},
    {"valve", "close_valve", {"closed", "closing"}},
    {"media_player", "turn_off", {"off"}},
    {"media_player", "media_play", {"playing"}},
    {"media_player", "media_pause", {"paused"}},
    {"media_player", "media_stop", {"idle", "off", "on"}},
    {"vacuum", "start", {"cleaning"}},
    {"vacuum", "return_to_base", {"returning", "docked"}},
    {"vacuum", "stop", {"idle", "paused", "docked"}},
    {"vacuum", "pause", {"idle", "paused", "docked"}},
    {"alarm_control_panel", "alarm_arm_away", {"armed_away", "arming", "pending"}},
    {"alarm_control_panel", "alarm_arm_home", {"armed_home", "arming", "pending"}},
    {"alarm_control_panel", "alarm_arm_night", {"armed_night", "arming", "pending"}},
    {"alarm_control_panel", "alarm_arm_vacation", {"armed_vacation", "arming", "pending"}},
    {"alarm_control_panel", "alarm_arm_custom_bypass", {"armed_custom_bypass", "arming", "pending"}},
    {"alarm_control_panel", "alarm_disarm", {"disarmed"}},
};

Expectation fixed_states(const FixedOutcome& f) {
  Expectation e;
  e.kind = Expectation::Kind::states;
  for (const char* state : f.states)
    if (state) e.states.emplace_back(state);
  return e;
}

bool is_on_off_domain(std::string_view domain) {
  for (std::string_view d : {"light", "switch", "fan", "input_boolean", "automation", "siren", "humidifier", "remote"})
    if (domain == d) return true;
  return false;
}

// turn_on/turn_off of on/off domains and the toggles, which depend on the state before.
std::optional<Expectation> switching_outcome(const std::string& domain, const std::string& service,
                                             const std::string& before) {
  if (is_on_off_domain(domain)) {
    if (service == "turn_on") return states({"on"});
    if (service == "turn_off") return states({"off"});
    if (service == "toggle" && before == "on") return states({"off"});
    if (service == "toggle" && before == "off") return states({"on"});
  }
  if (domain == "cover" && service == "toggle") {
    if (before == "open" || before == "opening") return states({"closed", "closing"});
    if (before == "closed" || before == "closing") return states({"open", "opening"});
  }
  return std::nullopt;
}

// Services that set the state to a value given in their data.
std::optional<Expectation> data_outcome(const std::string& domain, const std::string& service,
                                        const json::object& data) {
  if (domain == "climate" && service == "set_hvac_mode") {
    if (std::string m = data_str(data, "hvac_mode"); !m.empty()) return states_of({m});
  }
  if ((domain == "input_select" || domain == "select") && service == "select_option") {
    if (std::string o = data_str(data, "option"); !o.empty()) return states_of({o});
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
    if (v && v->is_string()) return states_of({std::string(v->get_string())});
  }
  return std::nullopt;
}
}  // namespace

Expectation expect_after(const std::string& domain, const std::string& service, const json::object& data,
                         const std::string& before) {
  if (auto e = switching_outcome(domain, service, before)) return *e;
  for (const FixedOutcome& f : kFixedOutcomes)
    if (f.domain == domain && f.service == service) return fixed_states(f);
  if (auto e = data_outcome(domain, service, data)) return *e;
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
