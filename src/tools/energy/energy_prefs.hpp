#pragma once
// The Energy dashboard preferences as data, with no HA and no MCP: the edit
// each mode of ha_manage_energy_prefs makes (set, add_device, remove_device,
// add_source) turned into the next prefs, and the statistic ids a version
// names, each with the field path that names it (so an unknown one can be
// reported by its field).

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "tools/tool_error.hpp"

namespace hamcp::tools::energy {

namespace json = boost::json;

// HA's defaults when nothing was ever saved.
json::object empty_prefs();

struct Edit {
  std::string mode;     // set | add_device | remove_device | add_source
  json::object config;  // set: the keys to replace
  std::string stat;     // add_device / remove_device: stat_consumption
  std::string name;     // add_device
  std::string included_in_stat;
  bool water = false;   // device_consumption_water instead of device_consumption
  json::object source;  // add_source
};

// The prefs after `edit`; throws ToolException naming the argument at fault.
json::object apply_edit(const json::object& current, const Edit& edit);

struct StatRef {
  std::string statistic_id;
  std::string field;  // e.g. energy_sources[0].flow_from[0].stat_energy_from
};
// Every statistic id `prefs` names (stat_*, included_in_stat), in order.
std::vector<StatRef> statistic_refs(const json::object& prefs);

}  // namespace hamcp::tools::energy
