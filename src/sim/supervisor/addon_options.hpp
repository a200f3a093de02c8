#pragma once
// Add-on options checked against the add-on's schema the way the Supervisor's
// AppOptions does (supervisor/apps/options.py): unknown keys dropped, values
// coerced, the first problem reported in the Supervisor's words.

#include <boost/json.hpp>
#include <string>
#include <variant>

namespace hamcp::sim {

struct OptionsInvalid {
  std::string message;  // e.g. "Missing option 'certfile' in root in Mosquitto broker (core_mosquitto)"
};

std::variant<boost::json::object, OptionsInvalid> validate_addon_options(const boost::json::object& schema,
                                                                         const boost::json::object& options,
                                                                         const std::string& name,
                                                                         const std::string& slug);

}  // namespace hamcp::sim
