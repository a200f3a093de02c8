#pragma once
// What state a service call should lead to, so `wait` can confirm it:
// light.turn_on -> "on", cover.close_cover -> "closed" (or "closing"),
// climate.set_hvac_mode{hvac_mode:heat} -> "heat", input_number.set_value{value:3} -> 3, ...
// Services without a known outcome are confirmed by any state update.

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hamcp::home {

struct Expectation {
  enum class Kind {
    states,      // state must become one of `states`
    number,      // numeric state must equal `value`
    any_update,  // last_updated must move (or the state change)
  } kind = Kind::any_update;
  std::vector<std::string> states;  // Kind::states; the first is the final state
  double value = 0;                 // Kind::number
  // Human text for responses: "on", "closed or closing", "21.5", "any update".
  std::string describe() const;
};

// `before`: the entity's state before the call (toggle needs it).
Expectation expect_after(const std::string& domain, const std::string& service, const boost::json::object& data,
                         const std::string& before);

// Does `state` satisfy e? (any_update is judged by the caller with timestamps.)
bool satisfies(const Expectation& e, const std::string& state);

}  // namespace hamcp::home
