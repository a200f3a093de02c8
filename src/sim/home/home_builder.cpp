#include "sim/home/home_builder.hpp"

#include <algorithm>

#include "sim/core/time_util.hpp"

namespace hamcp::sim {

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string slugify(std::string_view text) {
  std::string out;
  bool sep = false;
  auto emit = [&](std::string_view s) {
    if (sep && !out.empty()) out += '_';
    sep = false;
    out += s;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalnum(c)) {
      char lower = static_cast<char>(std::tolower(c));
      emit(std::string_view(&lower, 1));
    } else if (c == 0xC3 && i + 1 < text.size()) {
      unsigned char d = static_cast<unsigned char>(text[++i]);
      switch (d) {
        case 0xA4:
        case 0x84:
          emit("a");
          break;  // ä Ä
        case 0xB6:
        case 0x96:
          emit("o");
          break;  // ö Ö
        case 0xBC:
        case 0x9C:
          emit("u");
          break;  // ü Ü
        case 0x9F:
          emit("ss");
          break;  // ß
        case 0xA9:
        case 0xA8:
        case 0x89:
          emit("e");
          break;  // é è É
        case 0xA0:
        case 0xA1:
        case 0xA2:
          emit("a");
          break;
        default:
          sep = true;
      }
    } else {
      // apostrophes vanish ("Anna's Phone" -> "annas_phone"), everything else separates
      if (c != '\'') sep = true;
      while (c >= 0x80 && i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) ++i;
    }
  }
  return out.empty() ? std::string("unnamed") : out;
}

HomeBuilder::HomeBuilder(uint64_t seed) : rng_(seed) {}

std::string HomeBuilder::hex_id() {
  static const char* digits = "0123456789abcdef";
  std::string s(32, '0');
  uint64_t a = rng_.next(), b = rng_.next();
  for (int i = 0; i < 16; ++i) {
    s[i] = digits[(a >> (i * 4)) & 15];
    s[16 + i] = digits[(b >> (i * 4)) & 15];
  }
  return s;
}

std::string HomeBuilder::ulid() {
  static const char* alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  // 10 chars of "time" (the home epoch in ms plus a counter: sortable), 16 random.
  uint64_t ms = static_cast<uint64_t>(kHomeEpoch * 1000) - 86400000ull * 30 + (clock_++);
  std::string s(26, '0');
  for (int i = 9; i >= 0; --i) {
    s[i] = alphabet[ms & 31];
    ms >>= 5;
  }
  uint64_t a = rng_.next(), b = rng_.next();
  for (int i = 0; i < 8; ++i) s[10 + i] = alphabet[(a >> (i * 5)) & 31];
  for (int i = 0; i < 8; ++i) s[18 + i] = alphabet[(b >> (i * 5)) & 31];
  return s;
}

std::string HomeBuilder::config_entry(const std::string& platform) {
  for (auto& [p, id] : config_entries_)
    if (p == platform) return id;
  config_entries_.emplace_back(platform, ulid());
  return config_entries_.back().second;
}

std::string HomeBuilder::add_floor(std::string name, int level, std::string icon, std::vector<std::string> aliases) {
  Floor f;
  f.floor_id = slugify(name);
  f.name = std::move(name);
  f.level = level;
  f.icon = std::move(icon);
  f.aliases = std::move(aliases);
  home_.floors.push_back(std::move(f));
  return home_.floors.back().floor_id;
}

std::string HomeBuilder::add_area(std::string name, std::optional<std::string> floor_id, std::string icon,
                                  std::vector<std::string> aliases, std::vector<std::string> labels) {
  Area a;
  std::string base = slugify(name), id = base;
  for (int n = 2; used_area_ids_.count(id); ++n) id = base + "_" + std::to_string(n);
  used_area_ids_.insert(id);
  a.area_id = id;
  a.name = std::move(name);
  a.floor_id = std::move(floor_id);
  if (!icon.empty()) a.icon = std::move(icon);
  a.aliases = std::move(aliases);
  a.labels = std::move(labels);
  home_.areas.push_back(std::move(a));
  return id;
}

std::string HomeBuilder::add_label(std::string name, std::string color, std::string icon, std::string description) {
  Label l;
  l.label_id = slugify(name);
  l.name = std::move(name);
  if (!color.empty()) l.color = std::move(color);
  if (!icon.empty()) l.icon = std::move(icon);
  if (!description.empty()) l.description = std::move(description);
  home_.labels.push_back(std::move(l));
  return home_.labels.back().label_id;
}

std::string HomeBuilder::add_category(std::string scope, std::string name, std::string icon) {
  Category c;
  c.category_id = ulid();
  c.scope = std::move(scope);
  c.name = std::move(name);
  if (!icon.empty()) c.icon = std::move(icon);
  home_.categories.push_back(std::move(c));
  return home_.categories.back().category_id;
}

std::string HomeBuilder::unique_device_name(const std::string& name) {
  std::string unique = name;
  for (int n = 2; used_device_names_.count(unique); ++n) unique = name + " " + std::to_string(n);
  return unique;
}

std::string HomeBuilder::add_device(DeviceSpec spec) {
  spec.name = unique_device_name(spec.name);
  used_device_names_.insert(spec.name);
  Device d;
  d.id = hex_id();
  d.name = std::move(spec.name);
  d.manufacturer = std::move(spec.manufacturer);
  d.model = std::move(spec.model);
  d.area_id = std::move(spec.area_id);
  d.sw_version = std::move(spec.sw_version);
  d.hw_version = std::move(spec.hw_version);
  d.via_device_id = std::move(spec.via_device_id);
  d.entry_type = std::move(spec.entry_type);
  d.labels = std::move(spec.labels);
  std::string entry = config_entry(spec.platform);
  d.config_entries = {entry};
  d.primary_config_entry = entry;
  d.identifiers = {{spec.platform, hex_id().substr(0, 16)}};
  if (!d.entry_type) {
    uint64_t mac = rng_.next();
    char buf[24];
    std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", unsigned(mac & 255), unsigned((mac >> 8) & 255),
                  unsigned((mac >> 16) & 255), unsigned((mac >> 24) & 255), unsigned((mac >> 32) & 255),
                  unsigned((mac >> 40) & 255));
    d.connections = {{"mac", buf}};
  }
  d.created_at = kHomeEpoch - 86400.0 * 200 + rng_.uniform(0, 86400.0 * 150);
  d.modified_at = d.created_at;
  home_.devices.push_back(std::move(d));
  return home_.devices.back().id;
}

const Device* HomeBuilder::device(const std::string& id) const {
  // Devices are usually looked up right after creation: search from the back.
  for (auto it = home_.devices.rbegin(); it != home_.devices.rend(); ++it)
    if (it->id == id) return &*it;
  return nullptr;
}

std::string HomeBuilder::add_entity(EntitySpec spec) {
  const Device* dev = spec.device_id ? device(*spec.device_id) : nullptr;
  std::string friendly;
  if (dev && spec.original_name)
    friendly = dev->name + " " + *spec.original_name;
  else if (dev)
    friendly = dev->name;
  else if (spec.original_name)
    friendly = *spec.original_name;
  std::string shown = spec.name ? *spec.name : friendly;

  std::string object = spec.object_id.empty() ? slugify(friendly) : spec.object_id;
  std::string base = spec.domain + "." + object, entity_id = base;
  for (int n = 2; used_entity_ids_.count(entity_id); ++n) entity_id = base + "_" + std::to_string(n);
  used_entity_ids_.insert(entity_id);

  EntityState st;
  st.entity_id = entity_id;
  st.state = std::move(spec.state);
  st.attributes = std::move(spec.attributes);
  if (spec.device_class && !st.attributes.contains("device_class")) st.attributes["device_class"] = *spec.device_class;
  if (spec.icon) st.attributes["icon"] = *spec.icon;
  if (!shown.empty()) st.attributes["friendly_name"] = shown;
  st.last_changed = kHomeEpoch - rng_.uniform(60, 86400.0 * 2);
  st.last_updated = st.last_changed + (rng_.chance(0.3) ? rng_.uniform(0, 50) : 0);
  st.last_reported = st.last_updated;
  st.context.id = ulid();

  if (spec.registry) {
    EntityRegistryEntry e;
    e.entity_id = entity_id;
    e.id = hex_id();
    e.platform = spec.platform.empty() ? spec.domain : spec.platform;
    e.unique_id =
        dev ? dev->identifiers.front().second + "-" + slugify(spec.original_name.value_or(spec.domain)) : object;
    if (dev) {
      e.device_id = dev->id;
      e.config_entry_id = dev->primary_config_entry;
    }
    e.area_id = spec.area_id;
    e.name = spec.name;
    e.original_name = spec.original_name;
    e.has_entity_name = dev != nullptr;
    if (!dev && !spec.original_name) e.original_name = friendly;
    e.icon = spec.icon;
    e.original_device_class = spec.device_class;
    e.entity_category = spec.entity_category;
    e.aliases = std::move(spec.aliases);
    e.labels = std::move(spec.labels);
    e.hidden_by = spec.hidden_by;
    e.disabled_by = spec.disabled_by;
    if (const auto* u = st.attributes.if_contains("unit_of_measurement"); u && u->is_string())
      e.unit_of_measurement = std::string(u->get_string());
    if (const auto* sc = st.attributes.if_contains("state_class"); sc && sc->is_string())
      e.capabilities["state_class"] = *sc;
    for (const char* cap : {"min_color_temp_kelvin", "max_color_temp_kelvin", "supported_color_modes", "hvac_modes",
                            "min_temp", "max_temp", "preset_modes", "options", "source_list", "fan_speed_list", "min",
                            "max", "step", "mode", "effect_list"})
      if (const auto* v = st.attributes.if_contains(cap)) e.capabilities[cap] = *v;
    if (e.capabilities.empty() && spec.domain != "sensor") e.capabilities = {};
    e.created_at = dev ? dev->created_at : kHomeEpoch - 86400.0 * 100;
    e.modified_at = e.created_at;
    home_.entities.push_back(std::move(e));
  }
  if (spec.disabled_by) {
    // Disabled entities have no state in HA.
    return entity_id;
  }
  home_.states.push_back(std::move(st));
  return entity_id;
}

}  // namespace hamcp::sim
