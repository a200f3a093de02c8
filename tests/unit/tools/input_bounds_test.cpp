// Hostile or sloppy numbers and sizes in tool arguments: every one gets a
// clear error naming the field, never a silent first page, an undefined cast
// or a megabyte echoed back.
#include "ha/snapshot.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string message_of(const CallResult& r) {
  return r.structured.contains("error") ? std::string(r.error().at("message").as_string()) : r.text;
}

// Before: 1e300 was cast double -> int64 (undefined; on x86 INT64_MIN, then
// clamped to 0) and 18446744073709551615 wrapped to -1: both served page one.
TEST_F(ToolsTest, HugeOffsetsAreRejectedNamingTheField) {
  start();
  for (const char* tool : {"ha_search", "ha_list_services", "ha_get_logs"}) {
    for (const char* offset : {"1e300", "18446744073709551615", "1e10"}) {
      const std::string args = std::string(R"({"offset":)") + offset + "}";
      CallResult r = call(
          tool, std::string(tool) == "ha_search" ? R"({"domain":"light","offset":)" + std::string(offset) + "}" : args);
      ASSERT_TRUE(r.is_error) << tool << " offset " << offset << " served: " << r.text.substr(0, 200);
      EXPECT_NE(message_of(r).find("offset"), std::string::npos) << tool << ": " << message_of(r);
      EXPECT_NE(message_of(r).find("1000000000"), std::string::npos) << "the range: " << message_of(r);
    }
  }
  CallResult fine = call("ha_search", R"({"domain":"light","offset":1,"limit":1})");
  EXPECT_FALSE(fine.is_error) << fine.text;
}

TEST(ToolArgs, IntegerRefusesWhatAnInt64CannotHold) {
  json::object o;
  o["huge_double"] = 1e300;
  o["uint64_max"] = std::numeric_limits<std::uint64_t>::max();
  o["fraction"] = 2.5;
  o["whole_double"] = 3.0;
  o["int"] = -7;
  o["int64_max_as_uint"] = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  Args args(o);
  for (const char* key : {"huge_double", "uint64_max", "fraction"}) {
    try {
      args.integer(key, 0);
      ADD_FAILURE() << key << " accepted";
    } catch (const ToolException& e) {
      EXPECT_NE(e.error().message.find(std::string("arguments.") + key), std::string::npos) << e.error().message;
    }
  }
  EXPECT_EQ(args.integer("whole_double", 0), 3);
  EXPECT_EQ(args.integer("int", 0), -7);
  EXPECT_EQ(args.integer("int64_max_as_uint", 0), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(args.integer("missing", 42), 42);
}

// Before: "start":1e300 became 1e300 hours ago, and the time was cast to
// time_t (undefined) when formatted for Home Assistant.
TEST_F(ToolsTest, TimesOutsideWhatAnIsoDateHoldsAreRejected) {
  start();
  for (const char* start_arg : {R"("99999999999999999999d")", R"("1e400")", R"("100000000000000000000000000000s")"}) {
    CallResult r =
        call("ha_get_history", std::string(R"({"entity_id":"light.kitchen_ceiling_light","start":)") + start_arg + "}");
    ASSERT_TRUE(r.is_error) << start_arg << ": " << r.text.substr(0, 200);
    EXPECT_EQ(r.code(), "invalid_argument") << r.text.substr(0, 300);
    EXPECT_NE(message_of(r).find("arguments.start"), std::string::npos) << message_of(r);
    EXPECT_NE(message_of(r).find("outside 1970-01-01 .. 9999-12-31"), std::string::npos) << message_of(r);
  }
  CallResult logs = call("ha_get_logs", R"({"start":"99999999999999999999d"})");
  ASSERT_TRUE(logs.is_error) << logs.text.substr(0, 200);
  EXPECT_NE(message_of(logs).find("outside 1970-01-01"), std::string::npos) << message_of(logs);
}

TEST(IsoTime, OutOfRangeTimesAreClampedNotCast) {
  EXPECT_EQ(ha::format_iso_time(1e300), "9999-12-31T23:59:59.000000+00:00");
  EXPECT_EQ(ha::format_iso_time(-1e300), "0001-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(ha::format_iso_time(std::nan("")), "1970-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(ha::format_iso_time(0.5), "1970-01-01T00:00:00.500000+00:00");
}

// Before: a megabyte entity id was fuzzy-matched against the index and echoed
// whole; an unknown argument name was echoed whole too.
TEST_F(ToolsTest, HugeUnknownIdsAndArgumentNamesGetShortErrors) {
  start();
  const std::string huge(std::size_t{1024} * 1024, 'x');
  CallResult r = call("ha_get_state", R"({"entity_id":"light.)" + huge + R"("})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "entity_not_found");
  EXPECT_FALSE(r.error().contains("suggestions"));
  EXPECT_LT(r.text.size(), 1000u) << "the id must not be echoed whole";

  r = call("ha_get_state", R"({"entity_id":["light.kitchen_ceiling_light","light.)" + huge + R"("]})");
  ASSERT_FALSE(r.is_error) << r.text.substr(0, 300);
  EXPECT_LT(json::serialize(r.structured).size(), 4000u);

  r = call("ha_get_state", R"({"entity_id":"light.kitchen_ceiling_light",")" + huge + R"(":1})");
  ASSERT_TRUE(r.is_error);
  EXPECT_LT(r.text.size(), 1000u) << "the argument name must not be echoed whole";
}

// Before: one 4 MB word was fuzzy-matched against the index for 1.8 s of the
// I/O thread. Queries are words; 1000 characters is plenty.
TEST_F(ToolsTest, HugeSearchQueryIsRefusedBeforeAnyMatching) {
  start();
  const std::string huge(std::size_t{1024} * 1024, 'k');
  CallResult r = call("ha_search", R"({"query":")" + huge + R"("})");
  ASSERT_TRUE(r.is_error) << r.text.substr(0, 200);
  EXPECT_NE(r.text.find("arguments.query"), std::string::npos) << r.text.substr(0, 300);
  EXPECT_LT(r.text.size(), 1000u);
  CallResult fine = call("ha_search", R"({"query":"kitchen"})");
  EXPECT_FALSE(fine.is_error) << fine.text.substr(0, 200);
}

}  // namespace
}  // namespace hamcp::tools::testing
