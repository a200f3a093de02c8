// Operation ids are 128 random bits, never reused across a restart, and only
// the session that made an operation can read it. Before: "op_1", "op_2"...
// from a process-wide counter, so after a restart (HTTP sessions survive it)
// op_1 named a different operation, and any session could read any other's.
#include <regex>
#include <set>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

TEST(OperationStore, IdsAreRandom128BitAndNeverRepeatAfterARestart) {
  const std::regex shape("op_[0-9a-f]{32}");
  std::set<std::string> seen;
  OperationStore before_restart;
  const std::string old_id = before_restart.create("session-a", {});
  EXPECT_TRUE(std::regex_match(old_id, shape)) << old_id;
  seen.insert(old_id);
  OperationStore after_restart;  // a new process: empty store, same client session
  for (int i = 0; i < 200; ++i) {
    const std::string id = after_restart.create("session-a", {});
    EXPECT_TRUE(std::regex_match(id, shape)) << id;
    EXPECT_TRUE(seen.insert(id).second) << "id repeated: " << id;
  }
  EXPECT_FALSE(after_restart.get("session-a", old_id)) << "a pre-restart id answered for another operation";
}

TEST(OperationStore, ARecordBelongsToTheSessionThatMadeIt) {
  OperationStore store;
  const std::string id = store.create("session-a", {});
  EXPECT_TRUE(store.get("session-a", id));
  EXPECT_FALSE(store.get("session-b", id));
  EXPECT_FALSE(store.get("", id));
}

TEST_F(ToolsTest, AnotherSessionCannotReadAnOperation) {
  start();
  auto a = other_session("session-a");
  auto b = other_session("session-b");
  CallResult r =
      call_in(*a, "ha_call_service", R"({"domain":"light","service":"turn_off","entity_id":"light.porch_light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string id(r.structured.at("operation_id").as_string());

  CallResult own = call_in(*a, "ha_get_operation_status", R"({"operation_id":")" + id + R"("})");
  ASSERT_FALSE(own.is_error) << own.text;
  EXPECT_EQ(own.structured.at("operation_id").as_string(), id);

  CallResult foreign = call_in(*b, "ha_get_operation_status", R"({"operation_id":")" + id + R"("})");
  ASSERT_TRUE(foreign.is_error) << foreign.text;
  EXPECT_EQ(foreign.code(), "operation_not_found");
  EXPECT_NE(std::string(foreign.error().at("message").as_string()).find("Unknown operation"), std::string::npos)
      << foreign.text;
  foreign = call_in(*b, "ha_get_operation_status", R"({"operation_id":[")" + id + R"("]})");
  ASSERT_FALSE(foreign.is_error) << foreign.text;
  EXPECT_TRUE(foreign.structured.at("operations").as_array().empty()) << foreign.text;
  EXPECT_EQ(foreign.structured.at("not_found").at(0).as_string(), id);
  // stdio's session (no id) is another session too.
  EXPECT_TRUE(call("ha_get_operation_status", R"({"operation_id":")" + id + R"("})").is_error);

  // A bulk run and the calls inside it belong to their session as well.
  CallResult bulk =
      call_in(*a, "ha_bulk_control", R"({"operations":[{"entity_id":"light.porch_light","action":"on"}]})");
  ASSERT_FALSE(bulk.is_error) << bulk.text;
  const std::string bulk_id(bulk.structured.at("operation_id").as_string());
  const std::string inner_id(bulk.structured.at("results").at(0).at("operation_id").as_string());
  EXPECT_FALSE(call_in(*a, "ha_get_operation_status", R"({"operation_id":")" + inner_id + R"("})").is_error);
  CallResult own_bulk = call_in(*a, "ha_get_operation_status", R"({"operation_id":")" + bulk_id + R"("})");
  ASSERT_FALSE(own_bulk.is_error) << own_bulk.text;  // its record fits the output schema
  EXPECT_EQ(own_bulk.structured.at("total").to_number<std::int64_t>(), 1);
  EXPECT_TRUE(call_in(*b, "ha_get_operation_status", R"({"operation_id":")" + bulk_id + R"("})").is_error);
  EXPECT_TRUE(call_in(*b, "ha_get_operation_status", R"({"operation_id":")" + inner_id + R"("})").is_error);
  a->shutdown();
  b->shutdown();
}

}  // namespace
}  // namespace hamcp::tools::testing
