#include "tools/entities/entity_view.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <cmath>

#include "home/entity_docs.hpp"

namespace hamcp::tools {

using namespace hamcp::home;  // entity_docs: names, places, attribute text

std::string iso_seconds(double epoch) {
  std::string s = ha::format_iso_time(std::floor(epoch));
  const auto dot = s.find('.');
  if (dot != std::string::npos) s.erase(dot, 7);  // ".000000"
  return s;
}

json::object entity_view(const ha::Snapshot& snap, const ha::EntityState& st, const ViewOptions& o) {
  json::object v;
  v.reserve(8);
  v.emplace("entity_id", st.entity_id);
  // Parsed into a stack arena; what the view keeps is copied into v.
  unsigned char buffer[4096];
  json::monotonic_resource arena(buffer, sizeof buffer);
  const ha::RegistryItem entry_item = snap.registry(ha::RegistryKind::entity).find(st.entity_id, &arena);
  const json::object* entry = entry_item.get();
  v.emplace("name", display_name(&st, entry));
  v.emplace("state", st.state);
  json::object attributes = st.attributes.parse(&arena);
  if (std::string unit = str_of(&attributes, "unit_of_measurement"); !unit.empty()) v.emplace("unit", unit);
  if (o.place && entry) {
    EntityPlace p = place_of(snap, entry);
    if (!p.area_name.empty()) v.emplace("area", p.area_name);
    if (!p.floor_name.empty()) v.emplace("floor", p.floor_name);
  }
  if (!o.attribute_keys.empty()) {
    json::object attrs;
    for (const auto& k : o.attribute_keys)
      if (const json::value* a = attributes.if_contains(k)) attrs.emplace(k, *a);
    v.emplace("attributes", std::move(attrs));
  } else if (o.attributes) {
    v.emplace("attributes", std::move(attributes));
  }
  if (o.times) {
    v.emplace("last_changed", iso_seconds(st.last_changed));
    v.emplace("last_updated", iso_seconds(st.last_updated));
  }
  return v;
}

json::object registry_view(const ha::Snapshot& snap, const json::object& entry) {
  static constexpr std::string_view kKeep[] = {"entity_id",
                                               "name",
                                               "original_name",
                                               "icon",
                                               "original_icon",
                                               "platform",
                                               "device_class",
                                               "original_device_class",
                                               "entity_category",
                                               "disabled_by",
                                               "hidden_by",
                                               "aliases",
                                               "unit_of_measurement",
                                               "has_entity_name",
                                               "unique_id"};
  json::object v;
  for (std::string_view k : kKeep) {
    const json::value* x = entry.if_contains(k);
    if (!x || x->is_null()) continue;
    if (x->is_array() && x->get_array().empty()) continue;
    v.emplace(k, *x);
  }
  EntityPlace p = place_of(snap, &entry);
  if (!p.area_id.empty()) {
    json::object area;
    area.emplace("id", p.area_id);
    area.emplace("name", p.area_name);
    if (!p.floor_name.empty()) area.emplace("floor", p.floor_name);
    // Inherited from the device when the entity has no own area.
    if (str_of(&entry, "area_id").empty()) area.emplace("from_device", true);
    v.emplace("area", std::move(area));
  }
  if (!p.device_id.empty()) {
    json::object device;
    device.emplace("id", p.device_id);
    device.emplace("name", p.device_name);
    v.emplace("device", std::move(device));
  }
  if (const json::value* labels = entry.if_contains("labels");
      labels && labels->is_array() && !labels->get_array().empty()) {
    json::array out;
    const auto& reg = snap.registry(ha::RegistryKind::label);
    for (const auto& l : labels->get_array()) {
      if (!l.is_string()) continue;
      json::object label;
      label.emplace("id", l);
      if (std::string name = str_of(reg.find(l.get_string()), "name"); !name.empty()) label.emplace("name", name);
      out.emplace_back(std::move(label));
    }
    v.emplace("labels", std::move(out));
  }
  v.emplace("enabled", str_of(&entry, "disabled_by").empty());
  v.emplace("hidden", !str_of(&entry, "hidden_by").empty());
  return v;
}

}  // namespace hamcp::tools
