// The helper tools against the demo sim: storage helpers (create, update,
// remove, field errors from HA), config-flow helpers driven through menus and
// forms (field errors with their step, aborted flows, options-flow updates,
// entry removal), describe, and old-style groups; every write journaled.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::object& o, std::string_view key) { return std::string(o.at(key).as_string()); }

class HelperToolsTest : public ToolsTest {
 protected:
  // Flows left open by the tools. The config cache reads an entry's options
  // through a short-lived options flow of its own (at its first fill and again
  // on HA's config entry events): run the loop, bounded, until it has closed
  // it; a flow a tool leaked stays open and is counted.
  std::size_t flows_in_progress() {
    auto open_flows = [&] {
      std::lock_guard lock(sim->store().mutex());
      return sim->store().home().flows.size();
    };
    eventually([&] { return env->configs.status().ready && open_flows() == 0; }, std::chrono::milliseconds(10000));
    return open_flows();
  }
  std::size_t entries_of(const std::string& domain) {
    std::lock_guard lock(sim->store().mutex());
    std::size_t n = 0;
    for (const auto& e : sim->store().home().config_entries) n += e.at("entry").at("domain").as_string() == domain;
    return n;
  }
};

TEST_F(HelperToolsTest, StorageHelperIsCreatedUpdatedAndRemovedWithJournal) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"input_boolean","name":"Party Mode",
      "config":{"initial":true}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "created");
  EXPECT_EQ(str(r.structured, "entity_id"), "input_boolean.party_mode");
  EXPECT_TRUE(r.structured.at("wait").at("appeared").as_bool()) << r.text;
  ASSERT_TRUE(ha->snapshot()->states.find("input_boolean.party_mode"));
  EXPECT_EQ(ha->snapshot()->states.find("input_boolean.party_mode")->state, "on");
  const std::string created_edit = str(r.structured, "edit_id");
  r = call("ha_config_set_helper",
           R"({"helper_type":"counter","name":"Dishes","area_id":"kitchen","labels":["nope_label"]})");
  ASSERT_FALSE(r.is_error) << r.text;  // the counter is written; the registry update's refusal is reported beside it
  EXPECT_TRUE(r.structured.contains("registry_error")) << r.text;
  r = call("ha_config_set_helper", R"({"helper_type":"counter","helper_id":"dishes","area_id":"kitchen"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(json::serialize(r.structured.at("registry_updated")), R"(["counter.dishes"])") << r.text;
  EXPECT_TRUE(eventually([&] {
    auto e = ha->snapshot()->registry(ha::RegistryKind::entity).find("counter.dishes");
    return e && e->contains("area_id") && e->at("area_id") == "kitchen";
  })) << "area_id not applied";

  r = call("ha_config_set_helper",
           R"({"helper_type":"input_boolean","helper_id":"party_mode","icon":"mdi:party-popper"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "updated");
  EXPECT_EQ(r.structured.at("item").at("icon").as_string(), "mdi:party-popper");
  EXPECT_EQ(r.structured.at("item").at("name").as_string(), "Party Mode");  // kept: HA replaces the whole item

  r = call("ha_config_list_helpers", R"({"helper_type":"input_boolean"})");
  ASSERT_FALSE(r.is_error) << r.text;
  std::vector<std::string> ids = ids_of(r.structured.at("items").as_array());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "input_boolean.party_mode"), ids.end()) << r.text;

  // Without confirm: a preview naming the helper, and it stays.
  r = call("ha_config_set_helper", R"({"helper_type":"input_boolean","helper_id":"party_mode","action":"remove"})");
  EXPECT_EQ(str(r.structured, "result"), "preview") << r.text;
  EXPECT_EQ(str(r.structured.at("would_change").at("removes").as_object(), "helper_id"), "party_mode") << r.text;
  EXPECT_TRUE(ha->snapshot()->states.find("input_boolean.party_mode"));
  r = call("ha_config_set_helper",
           R"({"helper_type":"input_boolean","helper_id":"party_mode","action":"remove","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("wait").at("removed").as_bool()) << r.text;
  EXPECT_FALSE(ha->snapshot()->states.find("input_boolean.party_mode"));
  const auto edits = env->journal.list("helper", "input_boolean/party_mode");
  ASSERT_EQ(edits.size(), 3u);
  EXPECT_EQ(edits.back().id, created_edit);
  EXPECT_EQ(env->journal.get(edits.front().id)->before.at("icon").as_string(), "mdi:party-popper");
}

// A tag's id is the caller's (config.tag_id), HA's tag/update takes no tag_id
// field, and its entity is named after the tag's name, not its id.
TEST_F(HelperToolsTest, TagIsCreatedWithItsOwnIdUpdatedListedAndRemoved) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"tag","name":"Front Door Card",
      "config":{"tag_id":"04-a1-b2-c3","description":"on the key ring"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "id"), "04-a1-b2-c3") << r.text;
  EXPECT_FALSE(r.structured.contains("entity_id")) << r.text;  // tag.<name>, not tag.<id>
  EXPECT_TRUE(eventually([&] { return static_cast<bool>(ha->snapshot()->states.find("tag.front_door_card")); }));
  r = call("ha_config_set_helper", R"({"helper_type":"tag","config":{"tag_id":"04-a1-b2-c3"}})");
  EXPECT_TRUE(r.is_error) << r.text;  // HA refuses an id that exists
  EXPECT_NE(r.text.find("already exists"), std::string::npos) << r.text;

  r = call("ha_config_set_helper", R"({"helper_type":"tag","helper_id":"04-a1-b2-c3","name":"Back Door Card"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("item").at("name").as_string(), "Back Door Card");
  EXPECT_EQ(r.structured.at("item").at("description").as_string(), "on the key ring") << r.text;  // kept

  r = call("ha_config_list_helpers", R"({"helper_type":"tag"})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_EQ(r.structured.at("items").as_array().size(), 1u) << r.text;
  EXPECT_EQ(r.structured.at("items").as_array().front().at("id").as_string(), "04-a1-b2-c3") << r.text;
  r = call("ha_config_list_helpers", R"({"helper_type":"all","helper_id":"04-a1-b2-c3"})");
  EXPECT_EQ(r.structured.at("items").as_array().size(), 1u) << r.text;

  r = call("ha_config_set_helper",
           R"({"helper_type":"tag","helper_id":"04-a1-b2-c3","action":"remove","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(eventually([&] { return !ha->snapshot()->states.find("tag.front_door_card"); }));
  r = call("ha_config_set", R"({"restore":")" + str(r.structured, "edit_id") + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;  // re-created under its own id
  EXPECT_EQ(str(r.structured, "id"), "04-a1-b2-c3") << r.text;
  EXPECT_EQ(r.structured.at("item").at("name").as_string(), "Back Door Card") << r.text;
}

TEST_F(HelperToolsTest, ZoneIsCreatedUpdatedListedAndRemoved) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"zone","name":"Office",
      "config":{"latitude":52.1,"longitude":4.3,"radius":250}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "entity_id"), "zone.office") << r.text;
  EXPECT_TRUE(r.structured.at("wait").at("appeared").as_bool()) << r.text;
  r = call("ha_config_set_helper", R"({"helper_type":"zone","name":"Gym","config":{"radius":50}})");
  EXPECT_EQ(r.code(), "invalid_config") << r.text;  // latitude and longitude are required
  r = call("ha_config_set_helper", R"({"helper_type":"zone","helper_id":"office","config":{"radius":400}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("item").at("radius").to_number<int>(), 400) << r.text;
  EXPECT_EQ(r.structured.at("item").at("latitude").to_number<double>(), 52.1) << r.text;  // kept
  r = call("ha_config_list_helpers", R"({"helper_type":"zone"})");
  ASSERT_FALSE(r.is_error) << r.text;
  std::vector<std::string> ids = ids_of(r.structured.at("items").as_array());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "zone.office"), ids.end()) << r.text;
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "zone.home"), ids.end()) << r.text;  // zone.home is HA's core config
  r = call("ha_config_set_helper", R"({"helper_type":"zone","helper_id":"office","action":"remove","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("wait").at("removed").as_bool()) << r.text;
}

TEST_F(HelperToolsTest, StorageErrorsNameTheFieldAndWriteNothing) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"input_select","name":"Mood"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "invalid_config") << r.text;
  EXPECT_TRUE(r.error().at("errors").as_object().contains("options")) << r.text;
  EXPECT_EQ(r.error().at("written"), false);
  EXPECT_FALSE(ha->snapshot()->states.find("input_select.mood"));

  r = call("ha_config_set_helper", R"({"helper_type":"counter","helper_id":"no_such_counter","config":{"step":2}})");
  EXPECT_EQ(r.code(), "helper_not_found") << r.text;
  EXPECT_NE(r.error().at("suggestion").as_string().find("coffee_cups_today"), std::string::npos) << r.text;
  r = call("ha_config_set_helper", R"({"helper_type":"counter"})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
  EXPECT_NE(r.text.find("name"), std::string::npos);
  r = call("ha_config_set_helper", R"({"helper_type":"no_such_integration","name":"x"})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
  EXPECT_NE(r.text.find("helper_type"), std::string::npos);
  EXPECT_EQ(env->journal.size(), 0u);
}

TEST_F(HelperToolsTest, TemplateSensorGoesThroughTheMenuAndFormThenOptionsFlowAndRemoval) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"template","name":"Feels Like",
      "config":{"template_type":"sensor","state":"{{ 20 + 2 }}","unit_of_measurement":"°C",
      "device_class":"temperature"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "created");
  EXPECT_EQ(json::serialize(r.structured.at("steps")), R"(["user","sensor"])");
  EXPECT_TRUE(r.structured.at("wait").at("appeared").as_bool()) << r.text;
  EXPECT_EQ(json::serialize(r.structured.at("wait").at("entities")), R"(["sensor.feels_like"])");
  EXPECT_EQ(ha->snapshot()->states.find("sensor.feels_like")->state, "22");
  const std::string entry = str(r.structured, "entry_id");

  r = call("ha_config_set_helper",
           R"({"helper_type":"template","helper_id":")" + entry + R"(","config":{"state":"{{ 5 }}"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "updated");
  EXPECT_EQ(r.structured.at("options").at("state").as_string(), "{{ 5 }}");
  EXPECT_EQ(r.structured.at("options").at("unit_of_measurement").as_string(), "°C");  // kept from before
  auto edit = env->journal.get(str(r.structured, "edit_id"));
  ASSERT_TRUE(edit);
  EXPECT_EQ(edit->before.at("state").as_string(), "{{ 20 + 2 }}");
  // As HA reloads the entry after its options change, the entity shows the new template's value.
  EXPECT_TRUE(eventually([&] {
    ha::EntityStatePtr st = ha->snapshot()->states.find("sensor.feels_like");
    return st && st->state == "5";
  })) << "the options-flow update did not re-render sensor.feels_like";

  r = call("ha_config_list_helpers", R"({"helper_type":"template"})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_EQ(r.structured.at("items").as_array().size(), 2u) << r.text;  // the demo home's and this one
  EXPECT_EQ(r.structured.at("items").at(1).at("entry_id").as_string(), entry);

  r = call("ha_config_set_helper",
           R"({"helper_type":"template","action":"remove","confirm":true,"helper_id":")" + entry + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("wait").at("removed").as_bool()) << r.text;
  EXPECT_FALSE(ha->snapshot()->states.find("sensor.feels_like"));
  EXPECT_EQ(entries_of("template"), 1u);  // the demo home's
  r = call("ha_config_set_helper",
           R"({"helper_type":"template","action":"remove","confirm":true,"helper_id":")" + entry + R"("})");
  EXPECT_EQ(r.code(), "helper_not_found") << r.text;
  EXPECT_EQ(flows_in_progress(), 0u);
}

TEST_F(HelperToolsTest, FlowFieldErrorsNameTheStepAndLeaveNothingBehind) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"template","name":"Bad","menu_choice":"sensor",
      "config":{"state":"{{ 1 }}","unit_of_measurement":"W","device_class":"temperature"}})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "invalid_config") << r.text;
  EXPECT_EQ(str(r.error(), "step_id"), "sensor");
  EXPECT_TRUE(r.error().at("errors").as_object().contains("unit_of_measurement")) << r.text;

  r = call("ha_config_set_helper",
           R"({"helper_type":"utility_meter","name":"Meter","config":{"source":"Not An Entity"}})");
  EXPECT_EQ(r.code(), "invalid_config") << r.text;
  EXPECT_EQ(str(r.error(), "step_id"), "user");
  EXPECT_NE(str(r.error().at("errors").as_object(), "source").find("valid entity ID"), std::string::npos) << r.text;

  r = call(
      "ha_config_set_helper",
      R"({"helper_type":"utility_meter","name":"Meter","config":{"source":"input_number.target_temperature_day"}})");
  EXPECT_NE(str(r.error().at("errors").as_object(), "source").find("expected ['sensor']"), std::string::npos) << r.text;

  r = call("ha_config_set_helper",
           R"({"helper_type":"threshold","name":"Hot","config":{"entity_id":"sensor.kitchen_climate_temperature"}})");
  EXPECT_EQ(r.code(), "invalid_config") << r.text;
  EXPECT_EQ(str(r.error().at("errors").as_object(), "base"), "need_lower_upper") << r.text;

  r = call("ha_config_set_helper",
           R"({"helper_type":"group","name":"Lights","config":{"entities":["light.hallway_light"]}})");
  EXPECT_EQ(r.code(), "menu_choice_required") << r.text;
  EXPECT_NE(json::serialize(r.error().at("menu_options")).find("light"), std::string::npos);

  EXPECT_EQ(flows_in_progress(), 0u);
  EXPECT_EQ(entries_of("template") + entries_of("utility_meter") + entries_of("threshold") + entries_of("group"),
            2u);  // the demo home's two
  EXPECT_EQ(env->journal.size(), 0u);
}

TEST_F(HelperToolsTest, AbortedFlowIsReportedWithItsReason) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"sun","wait":false})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_config_set_helper", R"({"helper_type":"sun","wait":false})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "flow_aborted") << r.text;
  EXPECT_EQ(str(r.error(), "reason"), "single_instance_allowed");
  EXPECT_EQ(entries_of("sun"), 1u);
}

TEST_F(HelperToolsTest, UtilityMeterAndDescribe) {
  start();
  CallResult r = call("ha_config_list_helpers", R"({"helper_type":"template","describe":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "type"), "menu");
  r = call("ha_config_list_helpers", R"({"helper_type":"template","describe":true,"menu_choice":"sensor"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(json::serialize(r.structured.at("data_schema")).find("\"state\""), std::string::npos) << r.text;
  r = call("ha_config_list_helpers", R"({"helper_type":"input_number","describe":true})");
  EXPECT_NE(str(r.structured, "fields").find("min!"), std::string::npos) << r.text;
  EXPECT_EQ(flows_in_progress(), 0u);

  r = call("ha_config_set_helper", R"({"helper_type":"utility_meter","name":"Coffee daily",
      "config":{"source":"sensor.coffee_machine_energy","cycle":"daily"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(json::serialize(r.structured.at("wait").at("entities")), R"(["sensor.coffee_daily"])") << r.text;
  r = call("ha_config_list_helpers", R"({"helper_type":"all"})");
  ASSERT_FALSE(r.is_error) << r.text;
  std::string all = json::serialize(r.structured.at("items"));
  EXPECT_NE(all.find("Coffee daily"), std::string::npos);
  EXPECT_NE(all.find("input_boolean.guest_mode"), std::string::npos);
  EXPECT_NE(all.find("person.alex"), std::string::npos);
  EXPECT_NE(all.find("sensor.grid_energy_daily"), std::string::npos);  // the demo home's utility meter
}

TEST_F(HelperToolsTest, OldStyleGroupIsSetChangedAndRemoved) {
  start();
  CallResult r = call("ha_config_set_group", R"({"object_id":"downstairs","name":"Downstairs",
      "entities":["light.hallway_light","light.kitchen_ceiling_light"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "created");
  EXPECT_TRUE(r.structured.at("wait").at("done").as_bool()) << r.text;
  r = call("ha_config_set_group", R"({"object_id":"group.downstairs","add_entities":["light.tv_backlight"],
      "remove_entities":["light.hallway_light"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(json::serialize(r.structured.at("entities")), R"(["light.kitchen_ceiling_light","light.tv_backlight"])");
  r = call("ha_config_list_groups");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_EQ(r.structured.at("groups").as_array().size(), 2u) << r.text;  // with the demo home's group.family
  EXPECT_EQ(r.structured.at("groups").at(0).at("name").as_string(), "Downstairs");
  EXPECT_EQ(json::serialize(r.structured.at("groups").at(1).at("entities")),
            R"(["person.alex","person.sam","person.emma"])");
  r = call("ha_config_remove_group", R"({"object_id":"downstairs"})");  // no confirm: a preview, the group stays
  EXPECT_EQ(str(r.structured, "result"), "preview") << r.text;
  EXPECT_TRUE(ha->snapshot()->states.find("group.downstairs"));
  r = call("ha_config_remove_group", R"({"object_id":"downstairs","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("wait").at("done").as_bool()) << r.text;
  EXPECT_FALSE(ha->snapshot()->states.find("group.downstairs"));
  EXPECT_EQ(env->journal.list("group", "downstairs").size(), 3u);
  r = call("ha_config_remove_group", R"({"object_id":"downstairs","confirm":true})");
  EXPECT_EQ(r.code(), "group_not_found") << r.text;
  r = call("ha_config_set_group", R"({"object_id":"Down Stairs","entities":[]})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
  r = call("ha_config_set_group", R"({"object_id":"x","entities":["light.a"],"add_entities":["light.b"]})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
}

TEST_F(HelperToolsTest, RestoreUndoesStorageHelperEditsAndRecreatesARemovedOne) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"input_boolean","helper_id":"night_mode",
      "name":"Night Time","icon":"mdi:cfg-restore"})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_config_set", R"({"restore":")" + str(r.structured, "edit_id") + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "restored");
  EXPECT_EQ(r.structured.at("item").at("name").as_string(), "Night Mode") << r.text;
  EXPECT_EQ(r.structured.at("item").at("icon").as_string(), "mdi:weather-night") << r.text;
  EXPECT_FALSE(r.structured.at("diff").as_array().empty()) << r.text;  // exactly what the restore changed
  EXPECT_EQ(env->journal.get(str(r.structured, "edit_id"))->action, "restore");

  r = call("ha_config_set_helper", R"({"helper_type":"counter","name":"Restore Probe","config":{"step":3}})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string created = str(r.structured, "edit_id");
  r = call("ha_config_set_helper",
           R"({"helper_type":"counter","helper_id":"restore_probe","action":"remove","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_config_set", R"({"restore":")" + str(r.structured, "edit_id") + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "recreated");
  EXPECT_TRUE(r.structured.at("wait").at("appeared").as_bool()) << r.text;
  EXPECT_EQ(r.structured.at("item").at("step").to_number<int>(), 3) << r.text;
  r = call("ha_config_set", R"({"restore":")" + created + R"("})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;  // a create has no earlier version
}

TEST_F(HelperToolsTest, RestoreUndoesGroupAndFlowHelperEdits) {
  start();
  CallResult r = call("ha_config_set_group", R"({"object_id":"upstairs","entities":["light.hallway_light"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_config_set_group", R"({"object_id":"upstairs","add_entities":["light.tv_backlight"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_config_set", R"({"restore":")" + str(r.structured, "edit_id") + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("wait").at("done").as_bool()) << r.text;
  EXPECT_EQ(ha->snapshot()->states.find("group.upstairs")->attributes.parse().at("entity_id"),
            json::parse(R"(["light.hallway_light"])"));
  r = call("ha_config_remove_group", R"({"object_id":"upstairs","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_config_set", R"({"restore":")" + str(r.structured, "edit_id") + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "recreated");
  EXPECT_TRUE(ha->snapshot()->states.find("group.upstairs"));

  r = call("ha_config_set_helper", R"({"helper_type":"template","name":"Restore Tpl",
      "config":{"template_type":"sensor","state":"{{ 1 }}"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string entry = str(r.structured, "entry_id");
  r = call("ha_config_set_helper",
           R"({"helper_type":"template","helper_id":")" + entry + R"(","config":{"state":"{{ 2 }}"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_config_set", R"({"restore":")" + str(r.structured, "edit_id") + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "restored");
  EXPECT_EQ(r.structured.at("options").at("state").as_string(), "{{ 1 }}") << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
