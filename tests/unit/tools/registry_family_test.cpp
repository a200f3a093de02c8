// The registry family (ha_get_registry / ha_set_registry / ha_remove_registry)
// against the demo home: lists with filters and pages, one item with details,
// create/update/remove with preview, journal and mirror, and ha-mcp's names.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::vector<std::string> names_of(const json::array& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.emplace_back(i.at("name").as_string());
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST_F(ToolsTest, RegistryListsFilterAndPage) {
  start();
  CallResult r = call("ha_get_registry", R"({"kind":"device","limit":3})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("items").as_array().size(), 3u);
  EXPECT_TRUE(r.structured.at("has_more").as_bool());
  const std::int64_t total = r.structured.at("total").as_int64();
  std::string maker;
  r = call("ha_get_registry", R"({"kind":"device","limit":500})");
  ASSERT_FALSE(r.is_error) << r.text;
  for (const auto& d : r.structured.at("items").as_array())
    if (const json::value* m = d.as_object().if_contains("manufacturer"); m && maker.empty()) maker = m->as_string();
  ASSERT_FALSE(maker.empty());

  r = call("ha_get_registry", R"({"kind":"device","limit":3,"offset":3})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("offset").as_int64(), 3);

  r = call("ha_get_registry", R"({"kind":"device","manufacturer":")" + maker + R"(","limit":500})");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto& by_maker = r.structured.at("items").as_array();
  ASSERT_FALSE(by_maker.empty());
  EXPECT_LT(static_cast<std::int64_t>(by_maker.size()), total);
  for (const auto& d : by_maker) EXPECT_EQ(d.at("manufacturer").as_string(), maker);

  r = call("ha_get_registry", R"({"kind":"device","area":"Kitchen","limit":500})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_FALSE(r.structured.at("items").as_array().empty());
  for (const auto& d : r.structured.at("items").as_array()) EXPECT_EQ(d.at("area_id").as_string(), "kitchen");

  r = call("ha_get_registry", R"({"kind":"category","scope":"automation"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto cats = names_of(r.structured.at("items").as_array());
  EXPECT_TRUE(has(cats, "Lighting") && has(cats, "Security"));
  EXPECT_FALSE(has(cats, "Routines"));  // a script category

  r = call("ha_get_registry", R"({"kind":"label","query":"night"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(names_of(r.structured.at("items").as_array()), std::vector<std::string>{"Night light"});
}

TEST_F(ToolsTest, RegistryFloorsNestTheirAreasAndOneItemHasDetails) {
  start();
  CallResult r = call("ha_list_floors_areas");  // ha-mcp name: kind fixed to floor
  ASSERT_FALSE(r.is_error) << r.text;
  const auto& floors = r.structured.at("items").as_array();
  ASSERT_GE(floors.size(), 3u);
  EXPECT_EQ(floors.at(0).at("name").as_string(), "Basement");  // by level
  bool found_kitchen = false;
  for (const auto& f : floors)
    if (f.at("name") == "Ground Floor")
      for (const auto& a : f.at("areas").as_array()) found_kitchen = found_kitchen || a.at("name") == "Kitchen";
  EXPECT_TRUE(found_kitchen);
  EXPECT_TRUE(r.structured.contains("unassigned_areas"));

  r = call("ha_get_registry", R"({"kind":"area","id":"Kitchen"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("item").at("floor_name").as_string(), "Ground Floor");
  EXPECT_FALSE(r.structured.at("item").at("entities").as_array().empty());

  r = call("ha_get_registry", R"({"kind":"device","area":"kitchen","limit":1})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string device(r.structured.at("items").at(0).at("id").as_string());
  r = call("ha_get_device", R"({"device_id":")" + device + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto& item = r.structured.at("item");
  EXPECT_EQ(item.at("id").as_string(), device);
  EXPECT_FALSE(item.at("entities").as_array().empty());
  EXPECT_FALSE(item.at("config_entries").as_array().empty());
  EXPECT_FALSE(item.at("integration").as_string().empty());

  // ha_get_device entity_id=: the device of that entity.
  const std::string entity(item.at("entities").at(0).at("entity_id").as_string());
  r = call("ha_get_device", R"({"entity_id":")" + entity + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("item").at("id").as_string(), device);

  r = call("ha_get_registry", R"({"kind":"area","id":"Atlantis"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "area_not_found");
}

TEST_F(ToolsTest, RegistryHaMcpReadNames) {
  start();
  CallResult r = call("ha_config_get_label", R"({"label_id":"Security"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("item").at("color").as_string(), "red");
  r = call("ha_config_get_category", R"({"scope":"script"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(names_of(r.structured.at("items").as_array()), std::vector<std::string>{"Routines"});
  r = call("ha_get_zone");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("kind").as_string(), "zone");

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","expose":{"cloud.alexa":true}})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_get_entity_exposure", R"({"entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("expose").at("cloud.alexa").as_bool());
  r = call("ha_get_registry", R"({"kind":"exposure","assistant":"cloud.alexa"})");
  ASSERT_FALSE(r.is_error) << r.text;
  bool listed = false;
  for (const auto& e : r.structured.at("items").as_array())
    listed = listed || e.at("entity_id") == "light.kitchen_ceiling_light";
  EXPECT_TRUE(listed);

  r = call("ha_get_registry", R"({"kind":"room"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("kind"), std::string::npos) << r.text;
}

TEST_F(ToolsTest, RegistryCreateRenameJournalMirrorAndSearch) {
  start();
  CallResult r = call("ha_set_area_or_floor", R"({"kind":"floor","name":"Garden Level","level":5})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string floor(r.structured.at("id").as_string());
  EXPECT_EQ(r.structured.at("action").as_string(), "create");

  r = call("ha_set_registry", R"({"kind":"area","name":"Shed","floor_id":"Garden Level","aliases":["hut"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string area(r.structured.at("id").as_string());
  EXPECT_EQ(r.structured.at("item").at("floor_id").as_string(), floor);
  EXPECT_TRUE(r.structured.at("mirror").at("done").as_bool());
  EXPECT_TRUE(ha->snapshot()->registry(ha::RegistryKind::area).find(area));

  r = call("ha_set_entity", R"({"entity_id":"light.kitchen_ceiling_light","area":"Shed"})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_set_registry", R"({"kind":"area","id":"Shed","name":"Potting Shed"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto& changed = r.structured.at("changed").as_array();
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed[0].at("field").as_string(), "name");
  EXPECT_EQ(changed[0].at("before").as_string(), "Shed");
  EXPECT_EQ(changed[0].at("after").as_string(), "Potting Shed");
  const std::string edit(r.structured.at("edit_id").as_string());
  const auto rec = env->journal.get(edit);
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->kind, "area");
  EXPECT_EQ(rec->before.at("name").as_string(), "Shed");
  EXPECT_EQ(rec->after.at("name").as_string(), "Potting Shed");
  // The mirror has the new name as soon as the answer is back; search finds by it.
  EXPECT_EQ(ha->snapshot()->registry(ha::RegistryKind::area).find(area)->at("name").as_string(), "Potting Shed");
  ASSERT_TRUE(eventually([&] {
    CallResult s = call("ha_search", R"({"query":"potting shed"})");
    if (s.is_error) return false;
    for (const auto& hit : s.structured.at("results").as_array())
      if (hit.at("entity_id") == "light.kitchen_ceiling_light") return true;
    return false;
  }));

  r = call("ha_set_registry", R"({"kind":"area","id":"Potting Shed"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("nothing to change"), std::string::npos) << r.text;
  r = call("ha_set_registry", R"({"kind":"area","id":"Potting Shed","floor_id":"Moon"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("floor_id"), std::string::npos) << r.text;
  r = call("ha_set_registry", R"({"kind":"device","name":"x"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("integrations"), std::string::npos) << r.text;
}

TEST_F(ToolsTest, RegistryRemoveNeedsConfirmAndIsJournaled) {
  start();
  CallResult r = call("ha_remove_registry", R"({"kind":"label","id":"Holiday mode"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE((r.structured.at("result") == "preview"));
  const std::string label(r.structured.at("id").as_string());
  EXPECT_TRUE(ha->snapshot()->registry(ha::RegistryKind::label).find(label));

  r = call("ha_remove_registry", R"({"kind":"label","id":"Holiday mode","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result").as_string(), "removed");
  EXPECT_FALSE(ha->snapshot()->registry(ha::RegistryKind::label).find(label));
  const auto rec = env->journal.get(std::string(r.structured.at("edit_id").as_string()));
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->action, "remove");
  EXPECT_EQ(rec->before.at("name").as_string(), "Holiday mode");

  r = call("ha_remove_registry", R"({"kind":"floor","id":"Basement"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.contains("areas_left_without_floor"));
  r = call("ha_remove_area_or_floor", R"({"kind":"floor","id":"Basement"})");  // ha-mcp: removes at once
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result").as_string(), "removed");

  r = call("ha_config_set_category", R"({"name":"Garden","scope":"automation","icon":"mdi:flower"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string cat(r.structured.at("id").as_string());
  r = call("ha_config_remove_category", R"({"scope":"automation","category_id":")" + cat + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_get_registry", R"({"kind":"category","scope":"automation"})");
  EXPECT_FALSE(has(names_of(r.structured.at("items").as_array()), "Garden"));
}

TEST_F(ToolsTest, RegistryZonesCreateUpdateRemove) {
  start();
  CallResult r = call("ha_set_zone", R"({"name":"Allotment","latitude":52.1,"longitude":4.3,"radius":80})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string zone(r.structured.at("id").as_string());
  r = call("ha_set_zone", R"({"zone_id":")" + zone + R"(","radius":120})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("changed").at(0).at("field").as_string(), "radius");
  r = call("ha_get_zone", R"({"zone_id":"Allotment"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("item").at("radius").to_number<double>(), 120.0);
  r = call("ha_set_registry", R"({"kind":"zone","name":"Nowhere"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("latitude"), std::string::npos);
  r = call("ha_remove_zone", R"({"zone_id":")" + zone + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_get_zone", R"({"zone_id":"Allotment"})");
  EXPECT_EQ(r.code(), "zone_not_found");
}

TEST_F(ToolsTest, RegistryDeviceRenameAndRemovalOnlyWhereAllowed) {
  start();
  CallResult r = call("ha_get_registry", R"({"kind":"device","area":"Kitchen","limit":1})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string device(r.structured.at("items").at(0).at("id").as_string());
  r = call("ha_set_device", R"({"device_id":")" + device + R"(","name":"Chef Hub","labels":["Kids"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(ha->snapshot()->registry(ha::RegistryKind::device).find(device)->at("name_by_user").as_string(),
            "Chef Hub");
  r = call("ha_get_registry", R"({"kind":"device","id":"chef hub"})");
  ASSERT_FALSE(r.is_error) << r.text;

  r = call("ha_remove_device", R"({"device_id":")" + device + R"("})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "device_not_removable");
  EXPECT_NE(r.text.find("rejected by integration"), std::string::npos) << r.text;
  EXPECT_TRUE(ha->snapshot()->registry(ha::RegistryKind::device).find(device));

  {
    std::lock_guard lock(sim->store().mutex());
    for (auto& d : sim->store().home().devices)
      if (d.id == device) d.orphaned = true;
  }
  r = call("ha_remove_registry", R"({"kind":"device","id":")" + device + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("removable").as_bool());
  r = call("ha_remove_device", R"({"device_id":")" + device + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result").as_string(), "removed");
  EXPECT_FALSE(ha->snapshot()->registry(ha::RegistryKind::device).find(device));
}

TEST_F(ToolsTest, RegistryHaMcpNamesAreHiddenAndFixTheirKind) {
  start();
  const std::string listing = json::serialize(list_tools());
  for (const char* name :
       {"ha_get_device", "ha_set_device", "ha_remove_device", "ha_list_floors_areas", "ha_set_area_or_floor",
        "ha_remove_area_or_floor", "ha_config_get_label", "ha_config_set_label", "ha_config_remove_label",
        "ha_config_get_category", "ha_config_set_category", "ha_config_remove_category", "ha_get_zone", "ha_set_zone",
        "ha_remove_zone", "ha_get_entity_exposure"})
    EXPECT_EQ(listing.find(std::string("\"") + name + "\""), std::string::npos) << name << " is listed";
  // The alias's kind wins over the caller's.
  CallResult r = call("ha_config_get_label", R"({"kind":"area","label_id":"Security"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("kind").as_string(), "label");
  // ha_config_set_label areas=[...]: the label goes onto those areas too.
  r = call("ha_config_set_label", R"({"name":"Cosy","color":"amber","areas":["Kitchen"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string label(r.structured.at("id").as_string());
  EXPECT_EQ(r.structured.at("labelled_areas").at(0).as_string(), "kitchen");
  ASSERT_TRUE(eventually([&] {
    const ha::RegistryItem kitchen = ha->snapshot()->registry(ha::RegistryKind::area).find("kitchen");
    return kitchen && json::serialize(kitchen->at("labels")).find(label) != std::string::npos;
  }));
}

}  // namespace
}  // namespace hamcp::tools::testing
