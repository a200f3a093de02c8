#pragma once
// Drives a Home Assistant config or options flow to its end from one `config`
// object: each form is answered with the config's values for its fields (an
// options flow keeps the current value of a field the config leaves out), a
// menu with the option the caller chose (menu_choice, or a config value that
// names one). A refused answer, a form shown again with errors, a menu with no
// choice or an abort ends the flow (aborted in HA, never retried) and throws
// naming the step and HA's field errors; a stop at a form or menu carries that
// step's data_schema / menu_options, so the caller can answer it next time.

#include <boost/asio/awaitable.hpp>
#include <optional>
#include <string>

#include "tools/tool_env.hpp"

namespace hamcp::tools::helpers {

struct FlowRun {
  std::string handler;  // config flow: the integration domain; options flow: the entry id
  bool options_flow = false;
  json::object config;
  std::optional<std::string> menu_choice;
  bool show_advanced_options = false;
  // A reconfigure flow of this entry (handler = its domain): HA ends it with
  // abort "reconfigure_successful", which is the success here.
  std::string reconfigure_entry_id;
  // A config subentry flow of entry `handler`: creates a subentry of this type,
  // or with subentry_id reconfigures that one (ends in "reconfigure_successful").
  std::string subentry_type;
  std::string subentry_id;
};

struct FlowOutcome {
  json::object result;      // HA's create_entry answer (reconfigure: its abort answer)
  json::array steps;        // the step ids walked, in order
  json::object previous;    // options flow: the values HA suggested (the options before)
  json::array unused_keys;  // config keys no form asked for
};

boost::asio::awaitable<FlowOutcome> drive_flow(ToolEnv& env, FlowRun run);

// The first step of a config flow, without answering it (the flow is aborted
// again): for `describe`. With `menu_choice`, the step that menu option leads to.
boost::asio::awaitable<json::object> peek_flow(ToolEnv& env, std::string handler,
                                               std::optional<std::string> menu_choice);

// The first form of a config entry's subentry flow of `type` (with subentry_id:
// its reconfigure form, current values suggested), aborted again.
boost::asio::awaitable<json::object> peek_subentry_flow(ToolEnv& env, std::string entry_id, std::string type,
                                                        std::string subentry_id);

// A form's suggested values by field name (HA's description.suggested_value):
// a reconfigure form's current values.
json::object suggested_values(const json::object& form);

// The current options of a config entry, as its options flow suggests them ({} when it has none).
boost::asio::awaitable<json::object> current_options(ToolEnv& env, std::string entry_id);

}  // namespace hamcp::tools::helpers
