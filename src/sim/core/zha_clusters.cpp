#include "sim/core/zha_clusters.hpp"

namespace hamcp::sim::zha_model {

namespace {

constexpr Attribute kAttributes[] = {
    {0x0000, 0x0000, "zcl_version", false},   {0x0000, 0x0004, "manufacturer", false},
    {0x0000, 0x0005, "model", false},         {0x0000, 0x0007, "power_source", false},
    {0x0003, 0x0000, "identify_time", false}, {0x0001, 0x0021, "battery_percentage_remaining", false},
    {0x0006, 0x0000, "on_off", true},         {0x0019, 0x0002, "current_file_version", false},
};

// zigpy's server commands of the clusters the sim has (zcl/clusters/general.py).
constexpr Command kCommands[] = {
    {0x0003, 0x00, "identify", "identify_time"},
    {0x0003, 0x01, "identify_query", ""},
    {0x0006, 0x00, "off", ""},
    {0x0006, 0x01, "on", ""},
    {0x0006, 0x02, "toggle", ""},
};

std::string key_of(const json::object& device, std::int64_t cluster, std::int64_t attribute) {
  return std::string(device.at("ieee").as_string()) + "/1/" + std::to_string(cluster) + "/" + std::to_string(attribute);
}

}  // namespace

std::vector<Cluster> clusters_of(const json::object& device) {
  std::vector<Cluster> out{{0x0000, "Basic", "in"}, {0x0003, "Identify", "in"}};
  const json::value* type = device.if_contains("device_type");
  if (type && *type == "EndDevice")
    out.push_back({0x0001, "PowerConfiguration", "in"});
  else
    out.push_back({0x0006, "OnOff", "in"});
  out.push_back({0x0019, "Ota", "out"});
  return out;
}

bool has_cluster(const json::object& device, std::int64_t endpoint, std::int64_t cluster, std::string_view type) {
  if (endpoint != 1) return false;
  for (const auto& c : clusters_of(device))
    if (c.id == cluster && type == c.type) return true;
  return false;
}

std::vector<Attribute> attributes_of(std::int64_t cluster) {
  std::vector<Attribute> out;
  for (const auto& a : kAttributes)
    if (a.cluster == cluster) out.push_back(a);
  return out;
}

const Attribute* find_attribute(std::int64_t cluster, const json::value& id_or_name) {
  for (const auto& a : kAttributes) {
    if (a.cluster != cluster) continue;
    if (id_or_name.is_string() && id_or_name.get_string() == a.name) return &a;
    if (id_or_name.is_int64() && id_or_name.get_int64() == a.id) return &a;
  }
  return nullptr;
}

std::vector<Command> server_commands_of(std::int64_t cluster) {
  std::vector<Command> out;
  for (const auto& c : kCommands)
    if (c.cluster == cluster) out.push_back(c);
  return out;
}

const Command* find_command(std::int64_t cluster, std::int64_t command) {
  for (const auto& c : kCommands)
    if (c.cluster == cluster && c.id == command) return &c;
  return nullptr;
}

const json::object* device_by_ieee(const json::object& zha, std::string_view ieee) {
  const json::value* devices = zha.if_contains("devices");
  if (!devices || !devices->is_array()) return nullptr;
  for (const auto& d : devices->get_array())
    if (const json::value& v = d.as_object().at("ieee"); v.is_string() && v.get_string() == ieee) return &d.as_object();
  return nullptr;
}

std::string on_off_entity(const StateStore& store, const json::object& device) {
  const json::value* reg_id = device.if_contains("device_reg_id");
  if (!reg_id || !reg_id->is_string() || !has_cluster(device, 1, 0x0006, "in")) return {};
  for (const auto& e : store.home().entities) {
    if (!e.device_id || *e.device_id != reg_id->get_string() || e.disabled_by) continue;
    if (e.entity_id.rfind("light.", 0) == 0 || e.entity_id.rfind("switch.", 0) == 0) return e.entity_id;
  }
  return {};
}

std::string attribute_value(const StateStore& store, const json::object& zha, const json::object& d,
                            std::int64_t cluster, std::int64_t attribute) {
  if (cluster == 0x0006 && attribute == 0x0000) {
    const std::string entity = on_off_entity(store, d);
    if (const StatePtr state = entity.empty() ? nullptr : store.get(entity))
      return state->state == "on" ? "True" : "False";
  }
  const json::object* written = zha.contains("attribute_values") ? zha.at("attribute_values").if_object() : nullptr;
  if (const json::value* v = written ? written->if_contains(key_of(d, cluster, attribute)) : nullptr)
    return std::string(v->as_string());
  auto text = [&](const char* k) { return d.contains(k) ? std::string(d.at(k).as_string()) : std::string("None"); };
  if (cluster == 0x0000 && attribute == 0x0000) return "8";
  if (cluster == 0x0000 && attribute == 0x0004) return text("manufacturer");
  if (cluster == 0x0000 && attribute == 0x0005) return text("model");
  if (cluster == 0x0000 && attribute == 0x0007) return d.at("power_source") == "Mains" ? "1" : "3";
  if (cluster == 0x0003 && attribute == 0x0000) return "0";
  if (cluster == 0x0001 && attribute == 0x0021) return "176";
  if (cluster == 0x0006 && attribute == 0x0000) return "True";
  if (cluster == 0x0019 && attribute == 0x0002) return "16777232";
  return "None";
}

void store_value(json::object& zha, const json::object& device, std::int64_t cluster, std::int64_t attribute,
                 std::string text) {
  json::value& values = zha["attribute_values"];
  if (!values.is_object()) values = json::object{};
  values.as_object()[key_of(device, cluster, attribute)] = std::move(text);
}

}  // namespace hamcp::sim::zha_model
