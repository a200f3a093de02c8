#include "tools/entities/entity_view.hpp"

#include <algorithm>
#include <boost/json/monotonic_resource.hpp>
#include <cmath>

#include "home/entity_docs.hpp"
#include "tools/entities/entity_view_facts.hpp"

namespace hamcp::tools {

using namespace hamcp::home;  // entity_docs: names, places, attribute text

namespace {

// Two digits of `value` (0..99) at `out`.
void put2(char* out, long value) {
  out[0] = static_cast<char>('0' + value / 10);
  out[1] = static_cast<char>('0' + value % 10);
}

}  // namespace

std::string_view write_iso_seconds(double epoch, IsoSecondsBuffer& out) {
  // The range and NaN rule of common::format_iso_time.
  constexpr double kFirst = -62135596800.0;  // 0001-01-01T00:00:00Z
  constexpr double kLast = 253402300799.0;   // 9999-12-31T23:59:59Z
  const double t = std::isnan(epoch) ? 0.0 : std::clamp(std::floor(epoch), kFirst, kLast);
  const auto secs = static_cast<long long>(t);
  long long days = secs / 86400;
  long long in_day = secs % 86400;
  if (in_day < 0) {
    in_day += 86400;
    --days;
  }
  // Civil date of a day count (proleptic Gregorian, as gmtime), by eras of 400 years.
  const long long z = days + 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const long long doe = z - era * 146097;
  const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long long mp = (5 * doy + 2) / 153;
  const long day = static_cast<long>(doy - (153 * mp + 2) / 5 + 1);
  const long month = static_cast<long>(mp < 10 ? mp + 3 : mp - 9);
  const long year = static_cast<long>(yoe + era * 400 + (month <= 2 ? 1 : 0));
  char* p = out.data();
  put2(p, year / 100);
  put2(p + 2, year % 100);
  p[4] = '-';
  put2(p + 5, month);
  p[7] = '-';
  put2(p + 8, day);
  p[10] = 'T';
  put2(p + 11, static_cast<long>(in_day / 3600));
  p[13] = ':';
  put2(p + 14, static_cast<long>(in_day / 60 % 60));
  p[16] = ':';
  put2(p + 17, static_cast<long>(in_day % 60));
  const std::string_view zone = "+00:00";
  std::copy(zone.begin(), zone.end(), p + 19);
  return {out.data(), out.size()};
}

namespace {

// home::display_name's rule (registry name, else friendly_name, else
// original_name, else the object id) on what the view has at hand: the
// remembered facts and the attributes parsed already.
std::string_view view_name(const ha::EntityState& st, const RegistryViewFacts& facts, const json::object& attributes) {
  if (!facts.name.empty()) return facts.name;
  if (const json::value* friendly = attributes.if_contains("friendly_name");
      friendly && friendly->is_string() && !friendly->get_string().empty())
    return friendly->get_string();
  if (!facts.original_name.empty()) return facts.original_name;
  const std::string_view id = st.entity_id;
  const auto dot = id.find('.');
  return dot == std::string_view::npos ? id : id.substr(dot + 1);
}

}  // namespace

std::string iso_seconds(double epoch) {
  IsoSecondsBuffer buffer;
  return std::string(write_iso_seconds(epoch, buffer));
}

json::object entity_view(const ha::Snapshot& snap, const ha::EntityState& st, const ViewOptions& o,
                         json::storage_ptr storage) {
  json::object v(storage);
  v.reserve(8);
  v.emplace("entity_id", st.entity_id);
  const std::shared_ptr<const RegistryViewFacts> facts = registry_view_facts(snap, st.entity_id);
  // Kept whole: parsed where the view lives, so moving it in copies nothing.
  // Else only read: parsed into a stack arena.
  unsigned char buffer[4096];
  json::monotonic_resource arena(buffer, sizeof buffer);
  const bool keep_all = o.attributes && o.attribute_keys.empty();
  json::object attributes = keep_all ? st.attributes.parse(storage) : st.attributes.parse(&arena);
  v.emplace("name", view_name(st, *facts, attributes));
  v.emplace("state", st.state);
  if (std::string unit = str_of(&attributes, "unit_of_measurement"); !unit.empty()) v.emplace("unit", unit);
  if (o.place && facts->has_entry) {
    if (!facts->area_name.empty()) v.emplace("area", facts->area_name);
    if (!facts->floor_name.empty()) v.emplace("floor", facts->floor_name);
  }
  if (!o.attribute_keys.empty()) {
    json::object attrs(storage);
    for (const auto& k : o.attribute_keys)
      if (const json::value* a = attributes.if_contains(k)) attrs.emplace(k, *a);
    v.emplace("attributes", std::move(attrs));
  } else if (o.attributes) {
    v.emplace("attributes", std::move(attributes));
  }
  if (o.times) {
    IsoSecondsBuffer time;
    v.emplace("last_changed", write_iso_seconds(st.last_changed, time));
    v.emplace("last_updated", write_iso_seconds(st.last_updated, time));
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
