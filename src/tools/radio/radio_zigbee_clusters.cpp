// radio=zigbee cluster_read: one device's ZCL clusters (zha/devices/clusters),
// a cluster's attributes (zha/devices/clusters/attributes) or attribute values
// read from the device (zha/devices/clusters/attributes/value). Attributes may
// be named by id or by name; ids may be written 6 or "0x0006". cluster_write
// and cluster_command (radio_zigbee_cluster_writes.cpp) resolve the same way.
#include <cstdlib>

#include "tools/radio/radio_zigbee_zcl.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace asio = boost::asio;

namespace {

const Radio& zigbee() { return *find_radio("zigbee"); }

}  // namespace

namespace zcl {

// A ZCL number: 6 or "0x0006"/"6"; nullopt for anything else.
std::optional<std::int64_t> zcl_number(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64()) return static_cast<std::int64_t>(v.get_uint64());
  if (!v.is_string() || v.get_string().empty()) return std::nullopt;
  const std::string text(v.get_string());
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 0);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return n;
}

std::int64_t zcl_param(Args& args, std::string_view key) {
  const json::value* v = param(args, key);
  if (!v) throw ToolException(bad_argument("params." + std::string(key), "missing", "Pass it inside params."));
  const std::optional<std::int64_t> n = zcl_number(*v);
  if (!n || *n < 0)
    throw ToolException(bad_argument("params." + std::string(key), "must be a ZCL id", "Pass 6 or \"0x0006\"."));
  return *n;
}

asio::awaitable<json::array> clusters_of(ToolEnv& env, const std::string& ieee) {
  auto asking = command(env, zigbee(), json::object{{"type", "zha/devices/clusters"}, {"ieee", ieee}});
  json::value all = co_await std::move(asking);
  json::array out;
  for (const auto& c : all.as_array()) {
    const json::object& o = c.as_object();
    out.push_back(json::object{{"endpoint_id", o.at("endpoint_id")},
                               {"cluster_id", o.at("id")},
                               {"name", o.at("name")},
                               {"cluster_type", o.at("type")}});
  }
  co_return out;
}

// The cluster params name; endpoint_id defaults to the endpoint that has it.
asio::awaitable<ClusterRef> cluster_arg(Args& args, ToolEnv& env, const Device& device) {
  ClusterRef ref{device.identifier};
  ref.cluster_id = zcl_param(args, "cluster_id");
  if (param(args, "cluster_type")) ref.cluster_type = param_str(args, "cluster_type");
  if (ref.cluster_type != "in" && ref.cluster_type != "out")
    throw ToolException(bad_argument("params.cluster_type", "must be \"in\" or \"out\"", "Server clusters are in."));
  auto listing = clusters_of(env, device.identifier);
  const json::array clusters = co_await std::move(listing);
  const bool endpoint_given = param(args, "endpoint_id") != nullptr;
  if (endpoint_given) ref.endpoint_id = param_int(args, "endpoint_id");
  for (const auto& c : clusters) {
    const json::object& o = c.as_object();
    const bool same = o.at("cluster_id").to_number<std::int64_t>() == ref.cluster_id &&
                      o.at("cluster_type") == ref.cluster_type.c_str() &&
                      (!endpoint_given || o.at("endpoint_id").to_number<std::int64_t>() == ref.endpoint_id);
    if (!same) continue;
    ref.endpoint_id = o.at("endpoint_id").to_number<std::int64_t>();
    co_return ref;
  }
  ToolError error =
      bad_argument("params.cluster_id",
                   device.name + " has no " + ref.cluster_type + " cluster " + std::to_string(ref.cluster_id) +
                       (endpoint_given ? " on endpoint " + std::to_string(ref.endpoint_id) : ""),
                   "Use one of the device's clusters listed in clusters.");
  error.extra["clusters"] = clusters;
  throw ToolException(std::move(error));
}

asio::awaitable<json::array> attributes_of(ToolEnv& env, const ClusterRef& ref) {
  return command_list(env, zigbee(), ref.message("zha/devices/clusters/attributes"));
}

// params.attribute / params.attributes: ids or names, resolved to {id, name}.
std::vector<std::pair<std::int64_t, std::string>> wanted_attributes(Args& args, const json::array& known) {
  const char* key = param(args, "attributes") ? "attributes" : "attribute";
  const json::value* v = param(args, key);
  const json::array wanted = v->is_array() ? v->as_array() : json::array{*v};
  std::vector<std::pair<std::int64_t, std::string>> out;
  for (const auto& w : wanted) {
    const json::value* match = nullptr;
    const std::optional<std::int64_t> id = zcl_number(w);
    for (const auto& k : known)
      if ((id && k.at("id").to_number<std::int64_t>() == *id) || (!id && k.at("name") == w)) match = &k;
    if (match)
      out.emplace_back(match->at("id").to_number<std::int64_t>(), std::string(match->at("name").as_string()));
    else if (id)
      out.emplace_back(*id, "");  // not in ZHA's list (manufacturer-specific): read it anyway
    else {
      ToolError error = bad_argument("params." + std::string(key), "the cluster has no attribute " + json::serialize(w),
                                     "Use an id or a name listed in attributes.");
      error.extra["attributes"] = known;
      throw ToolException(std::move(error));
    }
  }
  return out;
}

}  // namespace zcl

namespace {

using namespace zcl;

asio::awaitable<json::array> read_values(Args& args, ToolEnv& env, const ClusterRef& ref, const json::array& known) {
  json::array out;
  const auto wanted = wanted_attributes(args, known);
  for (const auto& [id, name] : wanted) {
    json::object message = ref.message("zha/devices/clusters/attributes/value");
    message["attribute"] = id;
    if (param(args, "manufacturer")) message["manufacturer"] = param_int(args, "manufacturer");
    auto reading = command(env, zigbee(), std::move(message));
    json::value value = co_await std::move(reading);
    out.push_back(json::object{{"attribute", id}, {"name", name}, {"value", std::move(value)}});
  }
  co_return out;
}

}  // namespace

asio::awaitable<json::object> zigbee_cluster_read(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zigbee());
  const Device device = co_await std::move(finding);
  json::object out{{"device_id", device.id}, {"name", device.name}, {"ieee", device.identifier}};
  if (!param(args, "cluster_id")) {
    auto listing = clusters_of(env, device.identifier);
    out["clusters"] = co_await std::move(listing);
    out["hint"] = "Pass params.cluster_id for its attributes, and params.attribute to read values.";
    co_return out;
  }
  auto resolving = cluster_arg(args, env, device);
  const ClusterRef ref = co_await std::move(resolving);
  out["endpoint_id"] = ref.endpoint_id;
  out["cluster_id"] = ref.cluster_id;
  out["cluster_type"] = ref.cluster_type;
  auto listing = attributes_of(env, ref);
  json::array known = co_await std::move(listing);
  if (!param(args, "attribute") && !param(args, "attributes")) {
    out["attributes"] = std::move(known);
    co_return out;
  }
  auto reading = read_values(args, env, ref, known);
  out["values"] = co_await std::move(reading);
  co_return out;
}

}  // namespace hamcp::tools::radio
