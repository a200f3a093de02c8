#include "sim/core/registry_json.hpp"

namespace hamcp::sim {
namespace {

json::value opt(const std::optional<std::string>& v) { return v ? json::value(*v) : json::value(nullptr); }
json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

}  // namespace

json::object entity_entry_json(const EntityRegistryEntry& e, bool extended) {
  json::object cats;
  for (const auto& [scope, id] : e.categories) cats[scope] = id;
  json::object o{{"area_id", opt(e.area_id)},
                 {"categories", std::move(cats)},
                 {"config_entry_id", opt(e.config_entry_id)},
                 {"config_subentry_id", nullptr},
                 {"created_at", e.created_at},
                 {"device_id", opt(e.device_id)},
                 {"disabled_by", opt(e.disabled_by)},
                 {"entity_category", opt(e.entity_category)},
                 {"entity_id", e.entity_id},
                 {"has_entity_name", e.has_entity_name},
                 {"hidden_by", opt(e.hidden_by)},
                 {"icon", opt(e.icon)},
                 {"id", e.id},
                 {"labels", strings(e.labels)},
                 {"modified_at", e.modified_at},
                 {"name", opt(e.name)},
                 {"options", e.options},
                 {"original_name", opt(e.original_name)},
                 {"platform", e.platform},
                 {"translation_key", opt(e.translation_key)},
                 {"unique_id", e.unique_id}};
  if (extended) {
    o["aliases"] = strings(e.aliases);
    o["capabilities"] = e.capabilities.empty() ? json::value(nullptr) : json::value(e.capabilities);
    o["device_class"] = opt(e.device_class);
    o["original_device_class"] = opt(e.original_device_class);
    o["original_icon"] = opt(e.original_icon);
  }
  return o;
}

json::object entity_display_json(const EntityRegistryEntry& e) {
  json::object o{{"ei", e.entity_id}, {"pl", e.platform}, {"lb", strings(e.labels)}};
  if (e.area_id) o["ai"] = *e.area_id;
  if (e.device_id) o["di"] = *e.device_id;
  if (e.icon) o["ic"] = *e.icon;
  if (e.translation_key) o["tk"] = *e.translation_key;
  if (e.entity_category) o["ec"] = *e.entity_category == "config" ? 0 : 1;
  if (e.hidden_by) o["hb"] = true;
  if (e.has_entity_name) o["hn"] = true;
  if (e.name)
    o["en"] = *e.name;
  else if (e.original_name)
    o["en"] = *e.original_name;
  if (const auto* s = e.options.if_contains("sensor"); s && s->is_object())
    if (const auto* p = s->get_object().if_contains("display_precision")) o["dp"] = *p;
  return o;
}

json::object device_json(const Device& d) {
  json::array ids, conns, subentries;
  for (const auto& [a, b] : d.identifiers) ids.push_back(json::array{json::value(a), json::value(b)});
  for (const auto& [a, b] : d.connections) conns.push_back(json::array{json::value(a), json::value(b)});
  json::object sub;
  for (const auto& c : d.config_entries) sub[c] = json::array{nullptr};
  return {{"area_id", opt(d.area_id)},
          {"configuration_url", opt(d.configuration_url)},
          {"config_entries", strings(d.config_entries)},
          {"config_entries_subentries", std::move(sub)},
          {"connections", std::move(conns)},
          {"created_at", d.created_at},
          {"disabled_by", opt(d.disabled_by)},
          {"entry_type", opt(d.entry_type)},
          {"hw_version", opt(d.hw_version)},
          {"id", d.id},
          {"identifiers", std::move(ids)},
          {"labels", strings(d.labels)},
          {"manufacturer", d.manufacturer.empty() ? json::value(nullptr) : json::value(d.manufacturer)},
          {"model", d.model.empty() ? json::value(nullptr) : json::value(d.model)},
          {"model_id", opt(d.model_id)},
          {"modified_at", d.modified_at},
          {"name_by_user", opt(d.name_by_user)},
          {"name", d.name},
          {"primary_config_entry", opt(d.primary_config_entry)},
          {"serial_number", opt(d.serial_number)},
          {"sw_version", opt(d.sw_version)},
          {"via_device_id", opt(d.via_device_id)}};
}

json::object area_json(const Area& a) {
  return {{"aliases", strings(a.aliases)},
          {"area_id", a.area_id},
          {"floor_id", opt(a.floor_id)},
          {"humidity_entity_id", opt(a.humidity_entity_id)},
          {"icon", opt(a.icon)},
          {"labels", strings(a.labels)},
          {"name", a.name},
          {"picture", opt(a.picture)},
          {"temperature_entity_id", opt(a.temperature_entity_id)},
          {"created_at", a.created_at},
          {"modified_at", a.modified_at}};
}

json::object floor_json(const Floor& f) {
  return {{"aliases", strings(f.aliases)},
          {"created_at", f.created_at},
          {"floor_id", f.floor_id},
          {"icon", opt(f.icon)},
          {"level", f.level ? json::value(*f.level) : json::value(nullptr)},
          {"modified_at", f.modified_at},
          {"name", f.name}};
}

json::object label_json(const Label& l) {
  return {{"color", opt(l.color)},       {"created_at", l.created_at}, {"description", opt(l.description)},
          {"icon", opt(l.icon)},         {"label_id", l.label_id},     {"name", l.name},
          {"modified_at", l.modified_at}};
}

json::object category_json(const Category& c) {
  return {{"category_id", c.category_id},
          {"created_at", c.created_at},
          {"icon", opt(c.icon)},
          {"modified_at", c.modified_at},
          {"name", c.name}};
}

}  // namespace hamcp::sim
