// home::for_each_doc reads the registries and attributes in place
// (ha::PackedMember); these tests hold it to the JSON path it replaced, kept
// here as the reference: each item parsed into a Boost.JSON object, then read.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "home/entity_docs.hpp"
#include "unit/home/sim_snapshot.hpp"

using namespace hamcp;
namespace json = boost::json;

namespace {

std::vector<std::string> strings_of(const json::object* o, std::string_view key) {
  std::vector<std::string> out;
  const json::value* v = o ? o->if_contains(key) : nullptr;
  if (!v || !v->is_array()) return out;
  for (const auto& e : v->get_array())
    if (e.is_string()) out.emplace_back(e.get_string());
  return out;
}

ha::RegistryItem item(const ha::Snapshot& snap, ha::RegistryKind kind, std::string_view key) {
  return snap.registry(kind).find(key);
}

// The document as the JSON path made it (entity_docs.cpp before the readers).
search::EntityDoc reference_doc(const ha::Snapshot& snap, std::string_view entity_id, const ha::EntityState* st) {
  using K = ha::RegistryKind;
  using home::str_of;
  search::EntityDoc d;
  d.entity_id = std::string(entity_id);
  d.domain = std::string(entity_id.substr(0, entity_id.find('.')));
  const ha::RegistryItem entry = item(snap, K::entity, entity_id);
  if (st) {
    d.state = st->state;
    const json::object attributes = st->attributes.parse();
    d.friendly_name = str_of(&attributes, "friendly_name");
    d.device_class = str_of(&attributes, "device_class");
  }
  if (!entry) return d;
  d.registry_name = str_of(entry, "name");
  d.original_name = str_of(entry, "original_name");
  d.aliases = strings_of(entry.get(), "aliases");
  std::string dc = str_of(entry, "device_class");
  if (dc.empty()) dc = str_of(entry, "original_device_class");
  if (!dc.empty()) d.device_class = dc;
  d.hidden = !str_of(entry, "hidden_by").empty();
  d.disabled = !str_of(entry, "disabled_by").empty();
  for (const std::string& id : strings_of(entry.get(), "labels")) {
    const std::string name = str_of(item(snap, K::label, id), "name");
    d.labels.push_back(name.empty() ? id : name);
  }
  d.device_id = str_of(entry, "device_id");
  const ha::RegistryItem device = d.device_id.empty() ? ha::RegistryItem() : item(snap, K::device, d.device_id);
  if (device) {
    d.device_name = str_of(device, "name_by_user");
    if (d.device_name.empty()) d.device_name = str_of(device, "name");
  }
  d.manufacturer = str_of(device, "manufacturer");
  d.model = str_of(device, "model");
  d.area_id = str_of(entry, "area_id");
  if (d.area_id.empty()) d.area_id = str_of(device, "area_id");
  if (d.area_id.empty()) return d;
  const ha::RegistryItem area = item(snap, K::area, d.area_id);
  d.area_name = str_of(area, "name");
  d.area_aliases = strings_of(area.get(), "aliases");
  d.floor_id = str_of(area, "floor_id");
  if (d.floor_id.empty()) return d;
  const ha::RegistryItem floor = item(snap, K::floor, d.floor_id);
  d.floor_name = str_of(floor, "name");
  d.floor_aliases = strings_of(floor.get(), "aliases");
  return d;
}

std::vector<search::EntityDoc> reference_docs(const ha::Snapshot& snap) {
  std::vector<search::EntityDoc> docs;
  snap.states.for_each(
      [&](const ha::EntityStatePtr& st) { docs.push_back(reference_doc(snap, st->entity_id, st.get())); });
  snap.registry(ha::RegistryKind::entity).for_each_key([&](std::string_view id) {
    if (!id.empty() && !snap.states.find(id)) docs.push_back(reference_doc(snap, id, nullptr));
  });
  return docs;
}

json::object doc_json(const search::EntityDoc& d) {
  auto list = [](const std::vector<std::string>& v) { return json::value_from(v); };
  return {{"entity_id", d.entity_id},
          {"domain", d.domain},
          {"friendly_name", d.friendly_name},
          {"registry_name", d.registry_name},
          {"original_name", d.original_name},
          {"aliases", list(d.aliases)},
          {"area_id", d.area_id},
          {"area_name", d.area_name},
          {"area_aliases", list(d.area_aliases)},
          {"floor_id", d.floor_id},
          {"floor_name", d.floor_name},
          {"floor_aliases", list(d.floor_aliases)},
          {"device_id", d.device_id},
          {"device_name", d.device_name},
          {"manufacturer", d.manufacturer},
          {"model", d.model},
          {"labels", list(d.labels)},
          {"device_class", d.device_class},
          {"state", d.state},
          {"hidden", d.hidden},
          {"disabled", d.disabled}};
}

void expect_same_docs(const ha::Snapshot& snap) {
  const std::vector<search::EntityDoc> expected = reference_docs(snap);
  std::vector<search::EntityDoc> made;
  home::for_each_doc(snap, [&](search::EntityDoc d) { made.push_back(std::move(d)); });
  ASSERT_EQ(made.size(), expected.size());
  for (std::size_t i = 0; i < made.size(); ++i) {
    ASSERT_EQ(doc_json(made[i]), doc_json(expected[i])) << i;
    EXPECT_EQ(doc_json(home::make_entity_doc(snap, made[i].entity_id)), doc_json(expected[i]));
  }
}

ha::RegistryPtr registry(ha::RegistryKind kind, std::string_view list) {
  return ha::Registry::make(kind, json::parse(list).as_array());
}

}  // namespace

TEST(EntityDocsReference, GeneratedHomeMatchesTheJsonPath) {
  const ha::SnapshotPtr snap = home::testing::snapshot_of(sim::generate_home(3000, 42));
  ASSERT_GE(snap->states.size(), 3000u);
  expect_same_docs(*snap);
}

// What the generated home does not have: hex ids and names (stored at half
// size), strings repeated across items (pooled), attributes whose keys are
// kept beside the values (more than 64 keys), non-string values where
// strings are expected, a missing device/area/floor, duplicate keys in the
// entity list, entries without a state.
TEST(EntityDocsReference, UnusualShapesMatchTheJsonPath) {
  using K = ha::RegistryKind;
  ha::Snapshot snap;
  ha::StateTableBuilder b(snap.states);
  json::object many{{"device_class", "motion"}};
  for (int i = 0; i < 70; ++i) many["k" + std::to_string(i)] = i;
  many["friendly_name"] = "abcdef0123456789";  // hex-looking: stored as bytes
  auto put = [&](const std::string& id, json::object attributes) {
    auto s = std::make_shared<ha::EntityState>();
    s->entity_id = id;
    s->state = "on";
    s->attributes = ha::Attributes(attributes);
    b.put(std::move(s));
  };
  put("binary_sensor.many", many);
  put("light.hex", {{"friendly_name", nullptr}, {"device_class", 7}});
  put("light.plain", {{"friendly_name", "Plain"}, {"device_class", "light"}});
  put("sensor.lost", {{"friendly_name", "Lost"}});
  snap.states = b.build();
  const std::string hex_device = "0123456789abcdef0123456789abcdef";
  snap.registries[static_cast<std::size_t>(K::entity)] = registry(
      K::entity,
      R"([{"entity_id":"binary_sensor.many","name":null,"original_name":"deadbeefdeadbeef","aliases":["a",null,7,"deadbeef"],)"
      R"("device_id":")" +
          hex_device +
          R"(","area_id":null,"labels":["l1","nolabel",3],"hidden_by":"user",)"
          R"("device_class":null,"original_device_class":"door"},)"
          R"({"entity_id":"light.hex","name":"Hex light","device_id":"missing","area_id":"nowhere","disabled_by":null},)"
          R"({"entity_id":"light.plain","name":"Hex light","area_id":"attic","aliases":"not a list","labels":null,"hidden_by":""},)"
          R"({"entity_id":"switch.gone","original_name":"Gone","device_id":")" +
          hex_device +
          R"("},)"
          R"({"entity_id":"switch.gone","original_name":"Twice"},{"entity_id":"light.plain"},7,{"entity_id":null}])");
  snap.registries[static_cast<std::size_t>(K::device)] =
      registry(K::device, R"([{"id":")" + hex_device +
                              R"(","name":"Hub","name_by_user":"","area_id":"attic",)"
                              R"("manufacturer":"cafebabecafebabe","model":null}])");
  snap.registries[static_cast<std::size_t>(K::area)] =
      registry(K::area, R"([{"area_id":"attic","name":"Attic","floor_id":"top","aliases":["Loft",false,"Hub"]}])");
  snap.registries[static_cast<std::size_t>(K::floor)] =
      registry(K::floor, R"([{"floor_id":"top","name":null,"aliases":["Upstairs"]}])");
  snap.registries[static_cast<std::size_t>(K::label)] =
      registry(K::label, R"([{"label_id":"l1","name":"Attic"},{"label_id":"nolabel","name":7}])");
  expect_same_docs(snap);
}
