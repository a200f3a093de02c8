#pragma once
// Internal to radio_zigbee_cluster*.cpp: the ZCL cluster, attribute and number
// arguments of cluster_read / cluster_write / cluster_command, resolved against
// the device's own lists (zha/devices/clusters, .../attributes).
#include <optional>
#include <utility>
#include <vector>

#include "tools/radio/radio_tools.hpp"

namespace hamcp::tools::radio::zcl {

// A ZCL number: 6 or "0x0006"/"6"; nullopt for anything else.
std::optional<std::int64_t> zcl_number(const json::value& v);
// params.<key> as a ZCL id; bad_argument naming it otherwise.
std::int64_t zcl_param(Args& args, std::string_view key);

struct ClusterRef {
  std::string ieee;
  std::int64_t endpoint_id = 1;
  std::int64_t cluster_id = 0;
  std::string cluster_type = "in";
  json::object message(const char* type) const {
    return json::object{{"type", type},
                        {"ieee", ieee},
                        {"endpoint_id", endpoint_id},
                        {"cluster_id", cluster_id},
                        {"cluster_type", cluster_type}};
  }
};

boost::asio::awaitable<json::array> clusters_of(ToolEnv& env, const std::string& ieee);
// The cluster params name; endpoint_id defaults to the endpoint that has it.
boost::asio::awaitable<ClusterRef> cluster_arg(Args& args, ToolEnv& env, const Device& device);
boost::asio::awaitable<json::array> attributes_of(ToolEnv& env, const ClusterRef& ref);
// params.attribute / params.attributes: ids or names, resolved to {id, name}.
std::vector<std::pair<std::int64_t, std::string>> wanted_attributes(Args& args, const json::array& known);

}  // namespace hamcp::tools::radio::zcl
