// Entity views remember what they take from the registries (issue 9, item 6)
// and forget it as soon as any of the registries they read is replaced.
#include "tools/entities/entity_view_facts.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "home/entity_docs.hpp"
#include "tools/entities/entity_view.hpp"

namespace hamcp::tools {
namespace {

namespace json = boost::json;
using ha::RegistryKind;

ha::RegistryPtr registry(RegistryKind kind, const char* items) {
  return ha::Registry::make(kind, json::parse(items).as_array());
}

// light.a: no registry name (its original_name and friendly_name decide), area
// from its device; light.b: its own name and area.
ha::Snapshot home_with_area_named(const char* area_name) {
  ha::Snapshot snap;
  snap.registries[static_cast<std::size_t>(RegistryKind::entity)] =
      registry(RegistryKind::entity,
               R"([{"entity_id":"light.a","name":null,"original_name":"Orig A","device_id":"d1","area_id":null},
                   {"entity_id":"light.b","name":"Lamp B","original_name":"Orig B","device_id":null,"area_id":"kitchen"}])");
  snap.registries[static_cast<std::size_t>(RegistryKind::device)] =
      registry(RegistryKind::device, R"([{"id":"d1","name":"Dev","name_by_user":null,"area_id":"kitchen"}])");
  const std::string areas = std::string(R"([{"area_id":"kitchen","name":")") + area_name + R"(","floor_id":"ground"}])";
  snap.registries[static_cast<std::size_t>(RegistryKind::area)] = registry(RegistryKind::area, areas.c_str());
  snap.registries[static_cast<std::size_t>(RegistryKind::floor)] =
      registry(RegistryKind::floor, R"([{"floor_id":"ground","name":"Ground floor"}])");
  return snap;
}

ha::EntityState state_of(const char* id, const char* attributes) {
  ha::EntityState st;
  st.entity_id = id;
  st.state = "on";
  st.attributes = json::parse(attributes).as_object();
  return st;
}

TEST(EntityViewFacts, ViewsNameAndPlaceAsTheRegistriesSay) {
  const ha::Snapshot snap = home_with_area_named("Kitchen");
  ViewOptions vo;
  const ha::EntityState a = state_of("light.a", R"({"friendly_name":"Friendly A"})");
  const json::object va = entity_view(snap, a, vo);
  EXPECT_EQ(va.at("name").as_string(), "Friendly A");
  EXPECT_EQ(va.at("area").as_string(), "Kitchen");  // from its device
  EXPECT_EQ(va.at("floor").as_string(), "Ground floor");
  const ha::EntityState a_plain = state_of("light.a", "{}");
  EXPECT_EQ(entity_view(snap, a_plain, vo).at("name").as_string(), "Orig A");
  const ha::EntityState b = state_of("light.b", R"({"friendly_name":"Friendly B"})");
  EXPECT_EQ(entity_view(snap, b, vo).at("name").as_string(), "Lamp B");
  const ha::EntityState unknown = state_of("light.unregistered", "{}");
  const json::object vu = entity_view(snap, unknown, vo);
  EXPECT_EQ(vu.at("name").as_string(), "unregistered");
  EXPECT_FALSE(vu.contains("area"));
  // The same as the shared helpers give.
  const auto entry = snap.registry(RegistryKind::entity).find("light.a");
  EXPECT_EQ(va.at("name").as_string(), home::display_name(&a, entry.get()));
  EXPECT_EQ(va.at("area").as_string(), home::place_of(snap, entry.get()).area_name);
}

TEST(EntityViewFacts, RememberedWhileTheRegistriesStayTheSame) {
  const ha::Snapshot snap = home_with_area_named("Kitchen");
  const auto first = registry_view_facts(snap, "light.a");
  const auto again = registry_view_facts(snap, "light.a");
  EXPECT_EQ(first.get(), again.get()) << "looked up in the registries again";
  EXPECT_EQ(first->area_name, "Kitchen");
}

TEST(EntityViewFacts, ForgottenWhenARegistryIsReplaced) {
  ha::Snapshot snap = home_with_area_named("Kitchen");
  ViewOptions vo;
  const ha::EntityState a = state_of("light.a", "{}");
  EXPECT_EQ(entity_view(snap, a, vo).at("area").as_string(), "Kitchen");
  // The area renamed: a new area registry (registries are replaced, never changed in place).
  snap.registries[static_cast<std::size_t>(RegistryKind::area)] =
      registry(RegistryKind::area, R"([{"area_id":"kitchen","name":"Cuisine","floor_id":"ground"}])");
  EXPECT_EQ(entity_view(snap, a, vo).at("area").as_string(), "Cuisine");
  // The device moved to no area: a new device registry.
  snap.registries[static_cast<std::size_t>(RegistryKind::device)] =
      registry(RegistryKind::device, R"([{"id":"d1","name":"Dev","name_by_user":null,"area_id":null}])");
  EXPECT_FALSE(entity_view(snap, a, vo).contains("area"));
  // No entity registry at all (an HA without one): no registry name, no place.
  snap.registries[static_cast<std::size_t>(RegistryKind::entity)] = nullptr;
  const json::object none = entity_view(snap, state_of("light.b", "{}"), vo);
  EXPECT_EQ(none.at("name").as_string(), "b");
  EXPECT_FALSE(none.contains("area"));
}

}  // namespace
}  // namespace hamcp::tools
