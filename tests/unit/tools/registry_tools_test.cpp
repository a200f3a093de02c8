// Entity registry tools: get, set (name, area, labels, aliases, rename,
// enable/disable, hide, exposure), remove; errors and suggestions.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

TEST_F(ToolsTest, GetEntityShowsRegistrySettings) {
  start();
  CallResult r = call("ha_get_entity", R"({"entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("area").at("name").as_string(), "Kitchen");
  EXPECT_TRUE(r.structured.at("enabled").as_bool());
  EXPECT_TRUE(r.structured.contains("expose"));

  r = call("ha_get_entity", R"({"entity_id":["light.kitchen_ceiling_light","light.missing_one"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("entities").as_array().size(), 1u);
  EXPECT_EQ(r.structured.at("not_found").at(0).as_string(), "light.missing_one");

  r = call("ha_get_entity", R"({"entity_id":"light.kitchen_ceilin_lite"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "entity_not_found");
  EXPECT_EQ(r.error().at("suggestions").at(0).as_string(), "light.kitchen_ceiling_light");
}

TEST_F(ToolsTest, SetEntityChangesSettingsAndTheMirrorFollows) {
  start();
  CallResult r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","name":"Big Kitchen Lamp",
      "area":"Living Room","labels":["Night light"],"aliases":["main lamp"],"icon":"mdi:lamp",
      "expose":{"conversation":false}})");
  ASSERT_FALSE(r.is_error) << r.text;
  std::string updated = json::serialize(r.structured.at("updated"));
  for (const char* f : {"name", "area", "labels", "aliases", "icon", "expose"})
    EXPECT_NE(updated.find(f), std::string::npos) << f;
  // The mirror refreshes the registry; search (index fed by it) finds the new name and alias.
  ASSERT_TRUE(eventually([&] {
    const auto e = ha->snapshot()->registry(ha::RegistryKind::entity).find("light.kitchen_ceiling_light");
    return e && e->contains("name") && e->at("name").is_string() && e->at("name").as_string() == "Big Kitchen Lamp";
  }));
  ASSERT_TRUE(eventually([&] {
    search::Query q;
    q.text = "big kitchen lamp";
    auto res = index->query(q);
    return !res.hits.empty() && res.hits[0].entity_id == "light.kitchen_ceiling_light";
  }));
  CallResult g = call("ha_get_entity", R"({"entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_FALSE(g.is_error) << g.text;
  EXPECT_EQ(g.structured.at("name").as_string(), "Big Kitchen Lamp");
  EXPECT_EQ(g.structured.at("area").at("name").as_string(), "Living Room");
  EXPECT_EQ(g.structured.at("labels").at(0).at("name").as_string(), "Night light");
  EXPECT_EQ(g.structured.at("aliases").at(0).as_string(), "main lamp");
  EXPECT_FALSE(g.structured.at("expose").at("conversation").as_bool());

  // null resets the name.
  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","name":null,"hidden":true,"enabled":true})");
  ASSERT_FALSE(r.is_error) << r.text;
}

TEST_F(ToolsTest, SetEntityRenamesAndDisables) {
  start();
  CallResult r = call("ha_set_entity", R"({"entity_id":"light.workshop_light","new_entity_id":"light.shed_light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("entity_id").as_string(), "light.shed_light");
  EXPECT_TRUE(r.structured.contains("note"));
  ASSERT_TRUE(eventually([&] { return ha->snapshot()->states.find("light.shed_light") != nullptr; }));
  CallResult s = call("ha_get_state", R"({"entity_id":"light.shed_light"})");
  EXPECT_FALSE(s.is_error) << s.text;

  r = call("ha_set_entity", R"({"entity_id":"light.shed_light","enabled":false})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_TRUE(eventually([&] {
    const auto e = ha->snapshot()->registry(ha::RegistryKind::entity).find("light.shed_light");
    return e && e->at("disabled_by").is_string();
  }));
}

TEST_F(ToolsTest, SetEntityRefusesBadInput) {
  start();
  CallResult r =
      call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","new_entity_id":"switch.kitchen"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "invalid_argument");
  EXPECT_NE(r.error().at("message").as_string().find("new_entity_id"), std::string::npos);

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","new_entity_id":"Light Kitchen"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "invalid_argument");

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","new_entity_id":"light.landing_light"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "entity_id_taken");

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","area":"Narnia"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.error().at("suggestion").as_string().find("Kitchen"), std::string::npos);

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","labels":["no such label"]})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.error().at("message").as_string().find("arguments.labels"), std::string::npos);

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.error().at("message").as_string().find("nothing to change"), std::string::npos);

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_cieling_light","name":"x"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "entity_not_found");

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","enabled":"no"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("arguments.enabled"), std::string::npos);
}

TEST_F(ToolsTest, RemoveEntity) {
  start();
  // Without confirm: a preview naming the entry, and the entity stays.
  CallResult r = call("ha_remove_entity", R"({"entity_id":"light.laundry_light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result").as_string(), "preview") << r.text;
  EXPECT_EQ(r.structured.at("would_change").at("removes").at("entity_id").as_string(), "light.laundry_light") << r.text;
  EXPECT_FALSE(r.structured.contains("removed")) << r.text;
  EXPECT_NE(ha->snapshot()->registry(ha::RegistryKind::entity).find("light.laundry_light"), nullptr);
  r = call("ha_remove_entity", R"({"entity_id":"light.laundry_light","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("removed").as_string(), "light.laundry_light");
  ASSERT_TRUE(eventually(
      [&] { return ha->snapshot()->registry(ha::RegistryKind::entity).find("light.laundry_light") == nullptr; }));
  r = call("ha_remove_entity", R"({"entity_id":"light.laundry_lihgt","confirm":true})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "entity_not_found");
}

}  // namespace
}  // namespace hamcp::tools::testing
