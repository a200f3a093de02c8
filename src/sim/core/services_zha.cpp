// ZHA's cluster services (homeassistant/components/zha/websocket_api.py,
// async_load_api): zha.set_zigbee_cluster_attribute and
// zha.issue_zigbee_cluster_command over Home::radios["zha"] and the sim's
// cluster model (zha_clusters.*), with HA's schema and its errors: an unknown
// device or cluster is the handler's ValueError (unknown_error with its text).
// On/Off reaches the device's light or switch entity, as in HA.
// They exist only while a zha config entry does (else: service not found).
#include "sim/core/service_spec.hpp"
#include "sim/core/zha_clusters.hpp"

namespace hamcp::sim {

namespace {

namespace zm = zha_model;

ServiceError value_error(std::string message) { return ServiceError{"unknown_error", std::move(message), {}, {}}; }

json::object& zha_data(svc::Run& r, const char* service) {
  bool loaded = false;
  for (const auto& e : r.impl.store.home().config_entries) loaded = loaded || e.at("entry").at("domain") == "zha";
  if (!loaded) {
    ServiceError e{"not_found", std::string("Service zha.") + service + " not found.", "service_not_found", {}};
    e.translation_placeholders = {{"domain", "zha"}, {"service", service}};
    throw e;
  }
  json::value& v = r.impl.store.home().radios["zha"];
  if (!v.is_object()) v = json::object{};
  return v.as_object();
}

json::array& list_of(json::object& o, std::string_view key) {
  json::value& v = o[key];
  if (!v.is_array()) v = json::array{};
  return v.as_array();
}

std::string text(const json::object& d, std::string_view key, const char* fallback) {
  const json::value* v = d.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : fallback;
}

// The device and cluster a call names; HA's ValueErrors when either is unknown.
const json::object& device_of(const json::object& zha, const json::object& d) {
  const std::string ieee = text(d, "ieee", "");
  const json::object* device = zm::device_by_ieee(zha, ieee);
  if (!device) throw value_error("Device with IEEE " + ieee + " not found");
  return *device;
}

// Python's str() of the value zigpy converted to the attribute's type.
std::string converted(const zm::Attribute& a, const json::value& value) {
  if (a.boolean) {
    const bool on = value.is_bool() ? value.get_bool()
                    : value.is_number()
                        ? value.to_number<double>() != 0
                        : value.is_string() && (value.get_string() == "true" || value.get_string() == "on");
    return on ? "True" : "False";
  }
  if (value.is_bool()) return value.get_bool() ? "1" : "0";
  return value.is_string() ? std::string(value.get_string()) : json::serialize(value);
}

// OnOff's on_off. A device with a light or switch entity: that entity turns on or
// off (HA's cluster handler reports the attribute, the entity's state follows,
// state_changed fires); else the attribute alone.
void set_on_off(svc::Run& r, json::object& zha, const json::object& device, bool on) {
  const std::string entity = zm::on_off_entity(r.impl.store, device);
  if (entity.empty()) return zm::store_value(zha, device, 0x0006, 0x0000, on ? "True" : "False");
  r.call(entity.substr(0, entity.find('.')), on ? "turn_on" : "turn_off", {}, json::object{{"entity_id", entity}});
}

std::optional<json::value> set_attribute(svc::Run& r, const json::object& d) {
  json::object& zha = zha_data(r, "set_zigbee_cluster_attribute");
  const json::object& device = device_of(zha, d);
  const std::int64_t endpoint = d.at("endpoint_id").as_int64(), cluster = d.at("cluster_id").as_int64();
  const std::string type = text(d, "cluster_type", "in");
  const json::value& attribute = d.at("attribute");
  if (!zm::has_cluster(device, endpoint, cluster, type))
    throw value_error("Cluster " + std::to_string(cluster) + " not found on endpoint " + std::to_string(endpoint) +
                      " while writing attribute " + json::serialize(attribute) + " with value " +
                      json::serialize(d.at("value")));
  const zm::Attribute* a = zm::find_attribute(cluster, attribute);
  if (!a) throw value_error(json::serialize(attribute));  // zigpy's find_attribute: KeyError(attribute)
  const std::string value = converted(*a, d.at("value"));
  if (cluster == 0x0006 && a->id == 0x0000) {
    set_on_off(r, zha, device, value == "True");
    return std::nullopt;
  }
  zm::store_value(zha, device, cluster, a->id, value);
  return std::nullopt;
}

// OnOff's commands change on_off (and the entity); Identify's identify sets identify_time.
void apply_command(svc::Run& r, json::object& zha, const json::object& device, const zm::Command& cmd,
                   const json::object& d) {
  if (cmd.cluster == 0x0006) {
    const bool was_on = zm::attribute_value(r.impl.store, zha, device, 0x0006, 0x0000) == "True";
    set_on_off(r, zha, device, cmd.id == 0x01 || (cmd.id == 0x02 && !was_on));
  }
  if (cmd.cluster == 0x0003 && cmd.id == 0x00) {
    const json::value* params = d.if_contains("params");
    const json::value* args = d.if_contains("args");
    const json::value* time = params && params->is_object() ? params->as_object().if_contains("identify_time")
                              : args && args->is_array() && !args->as_array().empty() ? &args->as_array()[0]
                                                                                      : nullptr;
    zm::store_value(zha, device, 0x0003, 0x0000, time ? json::serialize(*time) : "0");
  }
}

std::optional<json::value> issue_command(svc::Run& r, const json::object& d) {
  if (!d.contains("args") && !d.contains("params")) throw svc::invalid("must contain at least one of args, params.");
  if (d.contains("args") && d.contains("params"))
    throw svc::invalid("two or more values in the same group of exclusion 'attrs_params' @ data[<attrs_params>]");
  json::object& zha = zha_data(r, "issue_zigbee_cluster_command");
  const json::object& device = device_of(zha, d);
  const std::int64_t endpoint = d.at("endpoint_id").as_int64(), cluster = d.at("cluster_id").as_int64();
  const std::int64_t command = d.at("command").as_int64();
  const std::string type = text(d, "cluster_type", "in");
  if (!zm::has_cluster(device, endpoint, cluster, type))
    throw value_error("Cluster " + std::to_string(cluster) + " not found on endpoint " + std::to_string(endpoint) +
                      " while issuing command " + std::to_string(command));
  const zm::Command* cmd = text(d, "command_type", "") == "server" ? zm::find_command(cluster, command) : nullptr;
  if (!cmd)
    throw value_error("Command " + std::to_string(command) + " not found on cluster " + std::to_string(cluster));
  apply_command(r, zha, device, *cmd, d);
  list_of(zha, "commands_issued")
      .push_back(json::object{{"ieee", device.at("ieee")}, {"cluster_id", cluster}, {"command", cmd->name}});
  return std::nullopt;
}

}  // namespace

namespace svc {

void add_zha_services(Services::Impl& impl) {
  const std::vector<Field> cluster_fields{fstr("ieee", "IEEE address of the device.", true),
                                          fint("endpoint_id", 0, std::nullopt, "Endpoint id of the cluster.", true),
                                          fint("cluster_id", 0, std::nullopt, "ZCL cluster to use.", true),
                                          fstr("cluster_type", "Type of the cluster (in or out)."),
                                          fint("manufacturer", -1, std::nullopt, "Manufacturer code.")};
  std::vector<Field> write = cluster_fields;
  write.push_back(fany("attribute", "ID of the attribute to set.", true));
  write.push_back(fany("value", "Value to write to the attribute.", true));
  impl.add(plain_spec("zha", "set_zigbee_cluster_attribute", "Sets an attribute value for the specified cluster.",
                      std::move(write), set_attribute));
  std::vector<Field> issue = cluster_fields;
  issue.push_back(fint("command", 0, std::nullopt, "ID of the command to execute.", true));
  issue.push_back(fstr("command_type", "Type of the command to execute (client or server).", true));
  issue.push_back(fany("args", "Arguments to pass to the command."));
  issue.push_back(fany("params", "Parameters to pass to the command."));
  impl.add(plain_spec("zha", "issue_zigbee_cluster_command", "Issues a command on the specified cluster.",
                      std::move(issue), issue_command));
}

}  // namespace svc
}  // namespace hamcp::sim
