// firmware_update of one radio device (zwave, zigbee, matter): HA installs a
// device's firmware through the device's update entity (update.install), as
// its UI does for every radio. Up to date -> nothing installed, said so.
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

std::string attr_text(const ha::EntityState& s, std::string_view key) { return s.attributes.string_of(key); }

// The device's update entities (usually one: its firmware).
std::vector<ha::EntityStatePtr> update_entities(const ha::Snapshot& snap, const std::string& device_id) {
  std::vector<ha::EntityStatePtr> out;
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& v) {
    const json::object* e = v.if_object();
    if (!e || !e->contains("device_id") || e->at("device_id") != device_id.c_str()) return;
    const std::string entity_id(e->at("entity_id").as_string());
    if (!entity_id.starts_with("update.")) return;
    if (ha::EntityStatePtr s = snap.states.find(entity_id)) out.push_back(std::move(s));
  });
  return out;
}

}  // namespace

asio::awaitable<json::object> firmware_update(Args& args, ToolEnv& env, const Radio& radio) {
  auto finding = device_arg(args, env, radio);
  const Device device = co_await std::move(finding);
  auto reading = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(reading);
  const std::vector<ha::EntityStatePtr> updates = update_entities(*snap, device.id);
  if (updates.empty())
    throw ToolException("no_firmware_update",
                        device.name + " has no update entity: Home Assistant offers no firmware for it.",
                        "Update it with its maker's tool; ha_manage_updates action=list shows what HA can update.");
  const ha::EntityState& update = *updates.front();
  json::object out{{"device_id", device.id},
                   {"name", device.name},
                   {"entity_id", update.entity_id},
                   {"installed_version", attr_text(update, "installed_version")},
                   {"latest_version", attr_text(update, "latest_version")}};
  const std::optional<std::string> version =
      param(args, "version") ? std::optional<std::string>(param_str(args, "version")) : std::nullopt;
  if (!version && update.state != "on") {
    out["done"] = false;
    out["up_to_date"] = true;
    out["hint"] = "Nothing to install; params.version installs a given version where the device allows it.";
    co_return out;
  }
  ha::ServiceCall call{"update", "install", {}, {{"entity_id", update.entity_id}}, false, {}};
  if (version) call.data["version"] = *version;
  auto installing = env.ha.call_service(std::move(call));
  co_await std::move(installing);
  out["done"] = true;
  out["installing"] = version ? json::value(*version) : out["latest_version"];
  out["hint"] = "The install runs on; ha_manage_updates action=get with this entity_id shows its progress.";
  co_return out;
}

}  // namespace hamcp::tools::radio
