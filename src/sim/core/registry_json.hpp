#pragma once
// Registry entries in Home Assistant's wire shapes (as_partial_dict,
// extended_dict, list_for_display, device/area/floor/label/category dicts).

#include "sim/home/home_model.hpp"

namespace hamcp::sim {

json::object entity_entry_json(const EntityRegistryEntry& e, bool extended);
json::object entity_display_json(const EntityRegistryEntry& e);  // list_for_display item
json::object device_json(const Device& d);
json::object area_json(const Area& a);
json::object floor_json(const Floor& f);
json::object label_json(const Label& l);
json::object category_json(const Category& c);

}  // namespace hamcp::sim
