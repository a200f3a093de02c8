// The parts every device kind is built from (see device_parts.hpp).
#include "sim/home/device_parts.hpp"

#include <cstdio>

namespace hamcp::sim::parts {

std::string num(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string make_device(HomeBuilder& b, const Room& room, const KindOptions& o, const std::vector<Model>& models,
                        const std::vector<const char*>& nouns_en, const std::vector<const char*>& nouns_de,
                        std::string& platform_out) {
  const Model& m = models[b.rng().below(models.size())];
  std::string name = o.device_name;
  if (name.empty()) {
    const auto& nouns = room.german && !nouns_de.empty() ? nouns_de : nouns_en;
    name = room.name + " " + nouns[b.rng().below(nouns.size())];
  }
  DeviceSpec d;
  d.name = name;
  d.manufacturer = m.manufacturer;
  d.model = m.model;
  d.platform = m.platform;
  if (m.sw_version) d.sw_version = std::string(m.sw_version);
  if (!room.area_id.empty()) d.area_id = room.area_id;
  platform_out = m.platform;
  return b.add_device(std::move(d));
}

EntitySpec spec(const std::string& domain, const std::string& device, const std::string& platform,
                std::optional<std::string> name, std::string state, json::object attrs) {
  EntitySpec s;
  s.domain = domain;
  s.device_id = device;
  s.platform = platform;
  s.original_name = std::move(name);
  s.state = std::move(state);
  s.attributes = std::move(attrs);
  return s;
}

std::string sensor(HomeBuilder& b, const std::string& dev, const std::string& platform, std::string name,
                   std::string value, std::string device_class, std::string unit, std::string state_class,
                   bool diagnostic) {
  json::object a;
  if (!state_class.empty()) a["state_class"] = state_class;
  if (!unit.empty()) a["unit_of_measurement"] = unit;
  auto s = spec("sensor", dev, platform, std::move(name), std::move(value), std::move(a));
  if (!device_class.empty()) s.device_class = device_class;
  if (diagnostic) s.entity_category = "diagnostic";
  return b.add_entity(std::move(s));
}

std::string battery(HomeBuilder& b, const std::string& dev, const std::string& platform) {
  return sensor(b, dev, platform, "Battery", std::to_string(35 + b.rng().below(66)), "battery", "%", "measurement",
                true);
}

void maybe_update(HomeBuilder& b, const std::string& dev, const std::string& platform, const char* version) {
  if (!b.rng().chance(0.15)) return;
  bool pending = b.rng().chance(0.3);
  std::string latest = pending ? std::string(version) + ".1" : version;
  json::object a{{"auto_update", false},         {"display_precision", 0},     {"installed_version", version},
                 {"in_progress", false},         {"latest_version", latest},   {"release_summary", nullptr},
                 {"release_url", nullptr},       {"skipped_version", nullptr}, {"title", nullptr},
                 {"update_percentage", nullptr}, {"supported_features", 5}};
  auto s = spec("update", dev, platform, "Firmware", pending ? "on" : "off", std::move(a));
  s.device_class = "firmware";
  s.entity_category = "config";
  b.add_entity(std::move(s));
}

void apply_main(EntitySpec& s, const KindOptions& o) {
  s.aliases = o.aliases;
  s.labels = o.labels;
}

json::array arr(std::initializer_list<const char*> items) {
  json::array a;
  for (const char* i : items) a.emplace_back(i);
  return a;
}

}  // namespace hamcp::sim::parts
