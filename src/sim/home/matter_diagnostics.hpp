#pragma once
// A Matter node's diagnostics as HA's matter/node_diagnostics answers them
// (the Matter server's view of the node): one builder for the demo home's
// nodes (demo_radios.cpp) and the nodes the simulator commissions
// (sim/ws/ws_matter_commissioning_commands.cpp).

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace hamcp::sim {

struct MatterNode {
  std::int64_t node_id = 0;
  std::string network_type;                 // "thread", "wifi"
  std::string node_type = "end_device";     // or "sleepy_end_device"
  std::optional<std::string> network_name;  // null when none
  std::string ip_address;
  bool shared_with_apple_home = false;  // a second fabric besides Home Assistant's
};

boost::json::object matter_diagnostics(const MatterNode& node);

}  // namespace hamcp::sim
