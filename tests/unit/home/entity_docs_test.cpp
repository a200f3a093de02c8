// home::for_each_doc: the search documents of a snapshot, built from the
// states and the packed registries.
#include "home/entity_docs.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <memory>

using namespace hamcp;
namespace json = boost::json;

namespace {

ha::EntityStatePtr state(const std::string& id, const std::string& value, const std::string& friendly_name) {
  auto s = std::make_shared<ha::EntityState>();
  s->entity_id = id;
  s->state = value;
  s->attributes = ha::Attributes(json::object{{"friendly_name", friendly_name}});
  return s;
}

ha::RegistryPtr registry(ha::RegistryKind kind, std::string_view list) {
  return ha::Registry::make(kind, json::parse(list).as_array());
}

}  // namespace

// Every entity with a state once, then each registry entry without a state
// (a disabled entity) once per entry, with its registry facts; entries with
// a non-string or empty id are skipped.
TEST(EntityDocs, StatesThenEntriesWithoutAState) {
  ha::Snapshot snap;
  ha::StateTableBuilder b(snap.states);
  b.put(state("light.kitchen", "on", "Kitchen"));
  b.put(state("sensor.temp", "21", "Temperature"));
  snap.states = b.build();
  using K = ha::RegistryKind;
  snap.registries[static_cast<std::size_t>(K::entity)] =
      registry(K::entity, R"([{"entity_id":"light.kitchen","name":"Ceiling","area_id":"kitchen"},)"
                          R"({"entity_id":"switch.off","name":null,"original_name":"Old switch","disabled_by":"user",)"
                          R"("device_id":"d1","labels":["l1"]},{"entity_id":""},{"entity_id":7},{"name":"no id"}])");
  snap.registries[static_cast<std::size_t>(K::device)] =
      registry(K::device, R"([{"id":"d1","name":"Plug","area_id":"hall","manufacturer":"Acme"}])");
  snap.registries[static_cast<std::size_t>(K::area)] =
      registry(K::area, R"([{"area_id":"kitchen","name":"Kitchen room"},{"area_id":"hall","name":"Hall"}])");
  snap.registries[static_cast<std::size_t>(K::label)] = registry(K::label, R"([{"label_id":"l1","name":"Old"}])");
  std::map<std::string, search::EntityDoc> docs;
  std::size_t count = 0;
  home::for_each_doc(snap, [&](search::EntityDoc d) {
    ++count;
    docs[d.entity_id] = std::move(d);
  });
  EXPECT_EQ(count, 3u);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs["light.kitchen"].registry_name, "Ceiling");
  EXPECT_EQ(docs["light.kitchen"].friendly_name, "Kitchen");
  EXPECT_EQ(docs["light.kitchen"].area_name, "Kitchen room");
  EXPECT_EQ(docs["sensor.temp"].state, "21");
  const search::EntityDoc& off = docs["switch.off"];
  EXPECT_TRUE(off.disabled);
  EXPECT_EQ(off.state, "");
  EXPECT_EQ(off.original_name, "Old switch");
  EXPECT_EQ(off.device_name, "Plug");
  EXPECT_EQ(off.area_name, "Hall");  // the device's area
  EXPECT_EQ(off.manufacturer, "Acme");
  EXPECT_EQ(off.labels, std::vector<std::string>{"Old"});
  EXPECT_EQ(home::make_entity_doc(snap, "switch.off").original_name, "Old switch");
  EXPECT_EQ(home::make_entity_doc(snap, "light.kitchen").friendly_name, "Kitchen");
}
