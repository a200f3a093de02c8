// Control tools: ha_call_service (wait confirmation, unconfirmed report,
// wait=false + operation status), ha_bulk_control (parallel, partial
// failure), ha_get_operation_status, ha_call_event.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

TEST_F(ToolsTest, CallServiceConfirmsTheStateChange) {
  start();
  CallResult r =
      call("ha_call_service", R"({"domain":"light","service":"turn_off","entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("status").as_string(), "confirmed");
  const auto& e = r.structured.at("entities").at(0).as_object();
  EXPECT_EQ(e.at("before").as_string(), "on");
  EXPECT_EQ(e.at("state").as_string(), "off");
  EXPECT_TRUE(e.at("confirmed").as_bool());
  // The mirror (what every read uses) already shows it.
  EXPECT_EQ(ha->snapshot()->states.find("light.kitchen_ceiling_light")->state, "off");

  r = call("ha_call_service", R"({"service":"light.toggle","data":{"entity_id":"light.kitchen_ceiling_light"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("status").as_string(), "confirmed");
  EXPECT_EQ(r.structured.at("entities").at(0).at("state").as_string(), "on");

  r = call(
      "ha_call_service",
      R"({"domain":"input_number","service":"set_value","entity_id":"input_number.wake_up_brightness","data":{"value":42}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("status").as_string(), "confirmed");
}

TEST_F(ToolsTest, CallServiceReportsWhatHappenedWhenNotConfirmedInTime) {
  start();
  // update_entity changes nothing in the sim: the wait must end at the
  // timeout and say what it saw (the call itself was accepted).
  const auto t0 = std::chrono::steady_clock::now();
  CallResult r = call(
      "ha_call_service",
      R"({"domain":"homeassistant","service":"update_entity","entity_id":"sensor.bathroom_climate_humidity","timeout":0.4})");
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("status").as_string(), "unconfirmed");
  EXPECT_FALSE(r.structured.at("entities").at(0).at("confirmed").as_bool());
  EXPECT_EQ(r.structured.at("entities").at(0).at("expected").as_string(), "any update");
  EXPECT_NE(std::string(r.structured.at("note").as_string()).find("0.4 s"), std::string::npos) << r.text;
  EXPECT_GE(took, std::chrono::milliseconds(350));
  EXPECT_LT(took, std::chrono::milliseconds(3000));
}

TEST_F(ToolsTest, CallServiceWithoutWaitIsVerifiedInTheBackground) {
  start();
  CallResult r =
      call("ha_call_service",
           R"({"domain":"cover","service":"close_cover","entity_id":"cover.living_room_blinds","wait":false})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("status").as_string(), "pending");
  const std::string op(r.structured.at("operation_id").as_string());
  std::string status;
  ASSERT_TRUE(eventually([&] {
    auto rec = env->ops.get("", op);
    status = rec ? std::string(rec->at("status").as_string()) : "";
    return status == "confirmed";
  })) << status;
  CallResult s = call("ha_get_operation_status", R"({"operation_id":")" + op + R"("})");
  ASSERT_FALSE(s.is_error) << s.text;
  EXPECT_EQ(s.structured.at("status").as_string(), "confirmed");
  EXPECT_EQ(s.structured.at("service").as_string(), "cover.close_cover");
}

TEST_F(ToolsTest, CallServiceRefusesUnknownServicesAndEntities) {
  start();
  CallResult r =
      call("ha_call_service", R"({"domain":"light","service":"turn_onn","entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "service_not_found");
  std::string sugg = json::serialize(r.error().at("suggestions"));
  EXPECT_NE(sugg.find("light.turn_on"), std::string::npos) << sugg;

  r = call("ha_call_service", R"({"domain":"lihgt","service":"turn_on"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "service_not_found");

  r = call("ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":"light.kitchen_celing"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "entity_not_found");
  EXPECT_EQ(r.error().at("suggestions").at(0).as_string(), "light.kitchen_ceiling_light");

  r = call("ha_call_service", R"({"domain":"light","service":"turn_on","wait":"yes"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("arguments.wait"), std::string::npos);

  // HA itself refuses bad data: its message comes back, nothing is retried.
  r = call(
      "ha_call_service",
      R"({"domain":"input_select","service":"select_option","entity_id":"input_select.house_mode","data":{"option":"Party"}})");
  ASSERT_TRUE(r.is_error) << r.text;
  EXPECT_EQ(r.code().rfind("ha_", 0), 0u) << r.text;
  EXPECT_FALSE(r.error().at("suggestion").as_string().empty());
}

TEST_F(ToolsTest, CallServiceWithoutEntitiesIsSent) {
  start();
  CallResult r = call("ha_call_service", R"({"domain":"light","service":"turn_off","target":{"area_id":"garden"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("status").as_string(), "sent");
}

TEST_F(ToolsTest, BulkControlRunsInParallelAndReportsPartialFailure) {
  start();
  CallResult r = call("ha_bulk_control", R"({"operations":[
    {"entity_id":"light.kitchen_ceiling_light","action":"turn_off"},
    {"entity_id":"light.no_such_light","action":"turn_off"},
    {"entity_id":"switch.kuche_wasserkocher","action":"turn_on"},
    {"entity_id":"light.landing_light","action":"turn_on","parameters":{"brightness_pct":30}}]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("total").to_number<std::int64_t>(), 4);
  EXPECT_EQ(r.structured.at("succeeded").to_number<std::int64_t>(), 3);
  EXPECT_EQ(r.structured.at("failed").to_number<std::int64_t>(), 1);
  const auto& results = r.structured.at("results").as_array();
  ASSERT_EQ(results.size(), 4u);
  for (std::size_t i = 0; i < results.size(); ++i)
    EXPECT_EQ(results[i].at("index").to_number<std::int64_t>(), static_cast<std::int64_t>(i));
  EXPECT_EQ(results[1].at("status").as_string(), "failed");
  EXPECT_EQ(results[1].at("error").at("code").as_string(), "entity_not_found");
  EXPECT_EQ(results[0].at("status").as_string(), "confirmed");
  EXPECT_EQ(results[3].at("status").as_string(), "confirmed");
  EXPECT_EQ(ha->snapshot()->states.find("switch.kuche_wasserkocher")->state, "on");

  // The whole run is an operation too.
  CallResult s =
      call("ha_get_operation_status",
           R"({"operation_id":[")" + std::string(r.structured.at("operation_id").as_string()) + R"(","op_0"]})");
  ASSERT_FALSE(s.is_error) << s.text;
  EXPECT_EQ(s.structured.at("operations").at(0).at("status").as_string(), "partial");
  EXPECT_EQ(s.structured.at("not_found").at(0).as_string(), "op_0");
}

TEST_F(ToolsTest, BulkControlAllFailedIsAnError) {
  start();
  CallResult r = call("ha_bulk_control", R"({"operations":[
    {"entity_id":"light.nope_one","action":"turn_off"},{"entity_id":"light.kitchen_ceiling_light","action":"explode"}]})");
  ASSERT_TRUE(r.is_error) << r.text;
  EXPECT_EQ(r.code(), "all_operations_failed");
  EXPECT_EQ(r.error().at("results").as_array().size(), 2u);
  EXPECT_EQ(r.error().at("results").at(1).at("error").at("code").as_string(), "service_not_found");
}

TEST_F(ToolsTest, BulkControlManyOperations) {
  start();
  CallResult lights = call("ha_search", R"({"domain":"light","limit":100,"fields":["entity_id"]})");
  std::string ops;
  for (const auto& id : ids_of(lights.structured.at("results").as_array()))
    ops += std::string(ops.empty() ? "" : ",") + R"({"entity_id":")" + id + R"(","action":"turn_on"})";
  CallResult r = call("ha_bulk_control", R"({"operations":[)" + ops + "]}");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("failed").to_number<std::int64_t>(), 0);
  EXPECT_EQ(r.structured.at("succeeded").to_number<std::int64_t>(), r.structured.at("total").to_number<std::int64_t>());
}

TEST_F(ToolsTest, OperationStatusUnknown) {
  start();
  CallResult r = call("ha_get_operation_status", R"({"operation_id":"op_12345"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "operation_not_found");
  r = call("ha_get_operation_status", R"({})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "invalid_argument");
}

TEST_F(ToolsTest, CallEventFires) {
  start();
  CallResult r = call("ha_call_event", R"({"event_type":"hamcp_test_event","event_data":{"x":1}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("fired").as_bool());
  EXPECT_EQ(r.structured.at("event_type").as_string(), "hamcp_test_event");
}

}  // namespace
}  // namespace hamcp::tools::testing
