#include "sim/home/matter_diagnostics.hpp"

#include <boost/json/array.hpp>
#include <string_view>

namespace hamcp::sim {

namespace json = boost::json;

namespace {

json::object fabric(int id, int vendor_id, std::string_view label, std::string_view vendor) {
  return json::object{{"fabric_id", id},
                      {"vendor_id", vendor_id},
                      {"fabric_index", id},
                      {"fabric_label", label},
                      {"vendor_name", vendor}};
}

}  // namespace

json::object matter_diagnostics(const MatterNode& node) {
  json::array fabrics{fabric(1, 4939, "Home Assistant", "Nabu Casa")};
  if (node.shared_with_apple_home) fabrics.push_back(fabric(2, 4937, "Apple Home", "Apple Home"));
  json::value network_name = nullptr;
  if (node.network_name) network_name = *node.network_name;
  return json::object{{"node_id", node.node_id},
                      {"network_type", node.network_type},
                      {"node_type", node.node_type},
                      {"network_name", std::move(network_name)},
                      {"ip_adresses", json::array{node.ip_address}},
                      {"mac_address", nullptr},
                      {"available", true},
                      {"active_fabrics", std::move(fabrics)},
                      {"active_fabric_index", 1}};
}

}  // namespace hamcp::sim
