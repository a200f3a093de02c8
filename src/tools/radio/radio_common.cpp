// What every radio action shares: the integration's config entry, its
// WebSocket commands with HA's refusals made plain, the device argument.
#include "tools/confirmation.hpp"
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

constexpr Radio kRadios[] = {{"zwave", "zwave_js", "Z-Wave JS"},
                             {"zigbee", "zha", "ZHA"},
                             {"thread", "thread", "Thread"},
                             {"matter", "matter", "Matter"}};

std::string text(const json::object* o, std::string_view key) {
  const json::value* v = o ? o->if_contains(key) : nullptr;
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

ToolException not_configured(const Radio& radio, std::string_view why) {
  return ToolException("radio_not_configured", std::string("no ") + radio.label + " config entry: " + std::string(why),
                       std::string("Set up the ") + radio.label +
                           " integration (Settings > Devices & services) with its radio or server, then call again.");
}

// The radio's identifier of a device-registry item ("" when it has none).
std::string identifier_of(const json::object& device, const Radio& radio) {
  const json::value* ids = device.if_contains("identifiers");
  if (!ids || !ids->is_array()) return {};
  for (const auto& pair : ids->get_array()) {
    const json::array* p = pair.if_array();
    if (p && p->size() == 2 && (*p)[0] == radio.domain && (*p)[1].is_string()) return std::string((*p)[1].get_string());
  }
  return {};
}

std::string device_name(const json::object& device) {
  std::string name = text(&device, "name_by_user");
  return name.empty() ? text(&device, "name") : name;
}

}  // namespace

const Radio* find_radio(std::string_view name) {
  for (const auto& r : kRadios)
    if (name == r.name || name == r.domain) return &r;
  return nullptr;
}

boost::asio::awaitable<std::string> entry_id(ToolEnv& env, const Radio& radio) {
  json::object message{{"type", "config_entries/get"}, {"domain", radio.domain}};
  auto asking = env.ha.command(std::move(message));
  const json::value entries = co_await std::move(asking);
  const json::array* list = entries.if_array();
  if (!list || list->empty())
    throw not_configured(radio, std::string("Home Assistant has no ") + radio.domain + " integration set up.");
  const json::object* entry = (*list)[0].if_object();
  const std::string state = text(entry, "state");
  if (state != "loaded")
    throw ToolException("radio_not_loaded",
                        std::string("the ") + radio.label + " config entry is " +
                            (state.empty() ? "not loaded" : state) +
                            (text(entry, "reason").empty() ? "" : ": " + text(entry, "reason")),
                        "ha_get_integration shows the entry and why; fix the radio or server, then reload it.");
  co_return text(entry, "entry_id");
}

namespace {

// HA said no to `what`: radio_refused with HA's code and words.
ToolException refused(const Radio& radio, const std::string& what, const ha::HaError& failure) {
  ToolError error = from_ha_error(failure);
  error.code = "radio_refused";
  error.message = radio.label + std::string(" refused ") + what + " (" + failure.ha_code + "): " + failure.detail;
  error.suggestion = "action=network_status lists the network and its devices.";
  error.extra["ha_code"] = failure.ha_code;
  return ToolException(std::move(error));
}

}  // namespace

boost::asio::awaitable<json::value> command(ToolEnv& env, const Radio& radio, json::object message) {
  const std::string type(message.at("type").as_string());
  std::optional<ha::HaError> failure;
  try {
    auto sending = env.ha.command(std::move(message));
    json::value answer = co_await std::move(sending);
    co_return answer;
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::command_failed) throw;
    failure = e.error();
  }
  if (failure->ha_code == "unknown_command") throw not_configured(radio, "Home Assistant does not know " + type + ".");
  throw refused(radio, type, *failure);
}

boost::asio::awaitable<json::array> command_list(ToolEnv& env, const Radio& radio, json::object message) {
  auto asking = command(env, radio, std::move(message));
  json::value answer = co_await std::move(asking);
  json::array out;
  if (json::array* a = answer.if_array()) out = std::move(*a);
  co_return out;
}

boost::asio::awaitable<json::value> service(ToolEnv& env, const Radio& radio, ha::ServiceCall call) {
  const std::string name = call.domain + "." + call.service;
  std::optional<ha::HaError> failure;
  try {
    auto calling = env.ha.call_service(std::move(call));
    json::value answer = co_await std::move(calling);
    co_return answer;
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::command_failed) throw;
    failure = e.error();
  }
  if (failure->ha_code == "not_found") throw not_configured(radio, "Home Assistant has no service " + name + ".");
  throw refused(radio, name, *failure);
}

std::vector<Device> radio_devices(const ha::Snapshot& snap, const Radio& radio) {
  std::vector<Device> out;
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& v) {
    const json::object* d = v.if_object();
    if (!d) return;
    std::string identifier = identifier_of(*d, radio);
    if (!identifier.empty()) out.push_back({text(d, "id"), device_name(*d), std::move(identifier)});
  });
  return out;
}

boost::asio::awaitable<std::optional<Device>> optional_device(Args& args, ToolEnv& env, const Radio& radio) {
  auto reading = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(reading);
  std::string device_id = args.str("device_id");
  const std::string entity_id = args.str("entity_id");
  if (device_id.empty() && !entity_id.empty()) {
    const ha::RegistryItem e = snap->registry(ha::RegistryKind::entity).find(entity_id);
    if (!e) throw ToolException(unknown_entity(env.index, entity_id, "entity_id"));
    device_id = text(e.get(), "device_id");
    if (device_id.empty())
      throw ToolException(bad_argument("entity_id", entity_id + " belongs to no device", "Pass device_id instead."));
  }
  if (device_id.empty()) co_return std::nullopt;
  const ha::RegistryItem d = snap->registry(ha::RegistryKind::device).find(device_id);
  std::string identifier = d ? identifier_of(*d, radio) : std::string();
  if (identifier.empty()) {
    json::array known;
    for (const auto& r : radio_devices(*snap, radio)) {
      if (known.size() >= 10) break;
      known.push_back(json::object{{"device_id", r.id}, {"name", r.name}});
    }
    ToolError error =
        bad_argument("device_id",
                     d ? "device " + device_id + " (" + device_name(*d) + ") is not a " + radio.label + " device"
                       : "no device " + device_id,
                     std::string("Pass one of the ") + radio.label + " devices listed in radio_devices.");
    error.extra["radio_devices"] = std::move(known);
    throw ToolException(std::move(error));
  }
  co_return Device{device_id, device_name(*d), std::move(identifier)};
}

boost::asio::awaitable<Device> device_arg(Args& args, ToolEnv& env, const Radio& radio) {
  auto finding = optional_device(args, env, radio);
  std::optional<Device> device = co_await std::move(finding);
  if (!device)
    throw ToolException(bad_argument("device_id", "missing",
                                     std::string("This action needs device_id (or entity_id) of a ") + radio.label +
                                         " device; action=network_status lists them."));
  co_return std::move(*device);
}

const json::value* param(Args& args, std::string_view key) {
  const json::object* params = args.object("params");
  const json::value* v = params ? params->if_contains(key) : nullptr;
  return v && !v->is_null() ? v : nullptr;
}

std::string param_str(Args& args, std::string_view key) {
  const json::value* v = param(args, key);
  if (!v) throw ToolException(bad_argument("params." + std::string(key), "missing", "Pass it inside params."));
  if (!v->is_string())
    throw ToolException(bad_argument("params." + std::string(key), "must be a string", "Pass it as text."));
  return std::string(v->get_string());
}

std::int64_t param_int(Args& args, std::string_view key) {
  const json::value* v = param(args, key);
  if (!v) throw ToolException(bad_argument("params." + std::string(key), "missing", "Pass it inside params."));
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
  if (v->is_double() && v->get_double() == static_cast<double>(static_cast<std::int64_t>(v->get_double())))
    return static_cast<std::int64_t>(v->get_double());
  throw ToolException(bad_argument("params." + std::string(key), "must be an integer", "Pass a whole number."));
}

json::object preview(std::string what, json::object details) {
  json::value target = nullptr;
  for (const char* key : {"name", "device_id", "group", "dataset"})
    if (const json::value* v = details.if_contains(key); v && target.is_null()) target = *v;
  json::object change{{"would", what}};
  for (const auto& [key, value] : details) change[key] = value;
  details["done"] = false;
  return preview_body(Preview{std::move(what), std::move(target), std::move(change), {}, std::move(details)});
}

boost::asio::awaitable<json::object> network_status_or_absent(ToolEnv& env, const Radio& radio) {
  std::optional<ToolError> absent;
  try {
    auto reading = network_status(env, radio);
    json::object status = co_await std::move(reading);
    co_return status;
  } catch (const ToolException& e) {
    if (e.error().code != "radio_not_configured" && e.error().code != "radio_not_loaded") throw;
    absent = e.error();
  }
  co_return json::object{{"configured", false}, {"code", absent->code}, {"message", absent->message}};
}

}  // namespace hamcp::tools::radio
