// Read tools against the demo home: search, overview, state, services,
// template, history, logs — happy paths, pagination/truncation, errors.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

TEST_F(ToolsTest, SearchFindsByNameAliasAreaAndTypos) {
  start();
  CallResult r = call("ha_search", R"({"query":"kitchen ceiling light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto& results = r.structured.at("results").as_array();
  ASSERT_FALSE(results.empty());
  EXPECT_EQ(results[0].at("entity_id").as_string(), "light.kitchen_ceiling_light");
  EXPECT_EQ(results[0].at("area").as_string(), "Kitchen");
  EXPECT_TRUE(results[0].as_object().contains("state"));
  EXPECT_TRUE(results[0].as_object().contains("score"));

  r = call("ha_search", R"({"query":"robot vacuum"})");  // alias of "Robbie"
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("results").at(0).at("entity_id").as_string().subview(0, 7), "vacuum.");

  r = call("ha_search", R"({"query":"kitchn celing"})");  // typos
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("results").at(0).at("entity_id").as_string(), "light.kitchen_ceiling_light");

  r = call("ha_search", R"({"query":"zzqqxx nothing like this"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("total").to_number<std::int64_t>(), 0);
  EXPECT_TRUE(r.structured.contains("hint"));
}

TEST_F(ToolsTest, SearchFindsRoomsByTheirFloorsAlias) {
  start();
  // "Cellar" is only an alias of the Basement floor (no name, area or alias says it): the hit
  // must come through the floor's alias.
  CallResult r = call("ha_search", R"({"query":"cellar"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto& results = r.structured.at("results").as_array();
  ASSERT_FALSE(results.empty()) << r.text;
  const auto& top = results[0].as_object();
  ASSERT_TRUE(top.contains("match")) << r.text;
  EXPECT_EQ(top.at("match").as_string(), "floor: Cellar") << r.text;
}

TEST_F(ToolsTest, SearchFiltersPaginationFieldsAndGroups) {
  start();
  CallResult all = call("ha_search", R"({"domain":"light","limit":100})");
  ASSERT_FALSE(all.is_error) << all.text;
  const auto total = all.structured.at("total").to_number<std::int64_t>();
  ASSERT_GT(total, 5);
  for (const auto& id : ids_of(all.structured.at("results").as_array())) EXPECT_EQ(id.rfind("light.", 0), 0u);

  CallResult p1 = call("ha_search", R"({"domain":"light","limit":2})");
  EXPECT_TRUE(p1.structured.at("has_more").as_bool());
  EXPECT_EQ(p1.structured.at("next_offset").to_number<std::int64_t>(), 2);
  CallResult p2 = call("ha_search", R"({"domain":"light","limit":2,"offset":2})");
  EXPECT_EQ(p2.structured.at("offset").to_number<std::int64_t>(), 2);
  auto a = ids_of(p1.structured.at("results").as_array()), b = ids_of(p2.structured.at("results").as_array());
  ASSERT_EQ(b.size(), 2u);
  EXPECT_NE(a[0], b[0]);
  EXPECT_NE(a[1], b[0]);

  CallResult area = call("ha_search", R"({"area":"Kitchen","domain":"light"})");
  ASSERT_FALSE(area.is_error) << area.text;
  for (const auto& item : area.structured.at("results").as_array()) EXPECT_EQ(item.at("area").as_string(), "Kitchen");

  CallResult f = call(
      "ha_search", R"({"query":"kitchen ceiling","limit":1,"fields":["entity_id","state","attributes.brightness"]})");
  ASSERT_FALSE(f.is_error) << f.text;
  const auto& item = f.structured.at("results").at(0).as_object();
  EXPECT_TRUE(item.contains("entity_id"));
  EXPECT_TRUE(item.contains("state"));
  EXPECT_FALSE(item.contains("name"));
  EXPECT_FALSE(item.contains("score"));

  CallResult g = call("ha_search", R"({"query":"kitchen","group_by_domain":true,"limit":20})");
  ASSERT_FALSE(g.is_error) << g.text;
  const auto& groups = g.structured.at("groups").as_object();
  EXPECT_TRUE(groups.contains("light"));
  for (const auto& kv : groups)
    for (const auto& id : ids_of(kv.value().as_array())) EXPECT_EQ(id.substr(0, id.find('.')), std::string(kv.key()));
}

TEST_F(ToolsTest, SearchTruncatesAtTheByteBudgetWithNextOffset) {
  EntityToolsOptions o;
  o.response_budget = 600;
  start(o);
  CallResult r = call("ha_search", R"({"domain":"sensor","limit":100})");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto n = r.structured.at("results").as_array().size();
  EXPECT_GE(n, 1u);
  EXPECT_LT(n, 20u);
  EXPECT_TRUE(r.structured.at("truncated").as_bool());
  EXPECT_EQ(r.structured.at("next_offset").to_number<std::int64_t>(), static_cast<std::int64_t>(n));
  EXPECT_NE(std::string(r.structured.at("notice").as_string()).find("offset=" + std::to_string(n)), std::string::npos);
  // The text block is the same compact JSON (no pretty-printing, no nulls).
  EXPECT_EQ(r.text.find('\n'), std::string::npos);
  EXPECT_EQ(r.text.find("null"), std::string::npos);
  EXPECT_LT(r.text.size(), 900u);
}

TEST_F(ToolsTest, OverviewIsDeterministicAndSizedByDetail) {
  start();
  CallResult m1 = call("ha_get_overview");
  CallResult m2 = call("ha_get_overview");
  ASSERT_FALSE(m1.is_error) << m1.text;
  EXPECT_EQ(m1.text, m2.text);
  EXPECT_GT(m1.structured.at("home").at("entities").to_number<std::int64_t>(), 100);
  EXPECT_FALSE(m1.structured.at("areas").as_array().empty());
  const auto& lights = m1.structured.at("domains").at("light").as_object();
  EXPECT_GT(lights.at("count").to_number<std::int64_t>(), 0);
  EXPECT_FALSE(lights.contains("entities"));

  CallResult s = call("ha_get_overview", R"({"detail":"standard","limit":3})");
  ASSERT_FALSE(s.is_error) << s.text;
  const auto& sl = s.structured.at("domains").at("light").as_object();
  EXPECT_EQ(sl.at("entities").as_array().size(), 3u);
  EXPECT_EQ(sl.at("more").to_number<std::int64_t>(), sl.at("count").to_number<std::int64_t>() - 3);
  auto ids = ids_of(sl.at("entities").as_array());
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_GT(s.text.size(), m1.text.size());

  CallResult f = call("ha_get_overview", R"({"detail":"full","domains":["light"]})");
  ASSERT_FALSE(f.is_error) << f.text;
  EXPECT_EQ(f.structured.at("domains").as_object().size(), 1u);
  EXPECT_TRUE(f.structured.at("domains").at("light").at("entities").at(0).as_object().contains("last_changed"));

  CallResult a = call("ha_get_overview", R"({"area":"Kitchen","detail":"standard"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.structured.at("areas").as_array().size(), 1u);

  CallResult bad = call("ha_get_overview", R"({"area":"Narnia"})");
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.code(), "area_not_found");
}

TEST_F(ToolsTest, OverviewFullOfABigHomeIsTruncatedWithNotice) {
  EntityToolsOptions o;
  o.response_budget = 2000;
  start(o);
  CallResult f = call("ha_get_overview", R"({"detail":"full","limit":1000})");
  ASSERT_FALSE(f.is_error) << f.text;
  EXPECT_TRUE(f.structured.at("truncated").as_bool());
  EXPECT_TRUE(f.structured.contains("notice"));
  // Items obey the budget; per-domain counts are always kept.
  EXPECT_LT(f.text.size(), 6000u);
}

TEST_F(ToolsTest, GetStateOneManyAndUnknownWithSuggestions) {
  start();
  CallResult r = call("ha_get_state", R"({"entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("entity_id").as_string(), "light.kitchen_ceiling_light");
  EXPECT_TRUE(r.structured.contains("attributes"));
  EXPECT_TRUE(r.structured.contains("last_changed"));

  r = call("ha_get_state", R"({"entity_id":"light.kitchen_ceiling_light","attribute_keys":["friendly_name"]})");
  EXPECT_EQ(r.structured.at("attributes").as_object().size(), 1u);

  r = call("ha_get_state", R"({"entity_id":"light.kitchn_ceilng"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "entity_not_found");
  EXPECT_EQ(r.error().at("suggestions").at(0).as_string(), "light.kitchen_ceiling_light");
  EXPECT_FALSE(r.error().at("suggestion").as_string().empty());
  EXPECT_NE(r.text.find("entity_not_found"), std::string::npos);  // text carries the same JSON

  r = call("ha_get_state",
           R"({"entity_id":["light.kitchen_ceiling_light","switch.nope_nothing"],"fields":["entity_id","state"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("states").as_array().size(), 1u);
  EXPECT_EQ(r.structured.at("states").at(0).as_object().size(), 2u);
  EXPECT_EQ(r.structured.at("not_found").at(0).at("entity_id").as_string(), "switch.nope_nothing");
}

TEST_F(ToolsTest, ListServicesFiltersPaginatesAndDetails) {
  start();
  CallResult r = call("ha_list_services", R"({"domain":"light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  std::vector<std::string> names;
  for (const auto& s : r.structured.at("services").as_array()) names.emplace_back(s.at("service").as_string());
  EXPECT_NE(std::find(names.begin(), names.end(), "light.turn_on"), names.end());

  CallResult p = call("ha_list_services", R"({"limit":1})");
  EXPECT_EQ(p.structured.at("services").as_array().size(), 1u);
  EXPECT_TRUE(p.structured.at("has_more").as_bool());
  EXPECT_GT(p.structured.at("total").to_number<std::int64_t>(), 20);

  CallResult f = call("ha_list_services", R"({"domain":"light","query":"turn_on","detail":"full"})");
  ASSERT_FALSE(f.is_error) << f.text;
  ASSERT_EQ(f.structured.at("services").as_array().size(), 1u);
  EXPECT_TRUE(f.structured.at("services").at(0).as_object().contains("fields"));

  CallResult bad = call("ha_list_services", R"({"domain":"nosuchdomain"})");
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.code(), "domain_not_found");
}

TEST_F(ToolsTest, EvalTemplateRendersAndExplainsErrors) {
  start();
  CallResult r = call("ha_eval_template", R"({"template":"{{ 1 + 2 }}"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result").as_string(), "3");
  r = call("ha_eval_template", R"({"template":"{{ states('light.kitchen_ceiling_light') }}"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result").as_string(), "on");
  r = call("ha_eval_template", R"({"template":"{{ 1 + }}"})");
  ASSERT_TRUE(r.is_error) << r.text;
  EXPECT_EQ(r.code(), "template_error");
}

TEST_F(ToolsTest, HistoryAndStatistics) {
  start();
  CallResult c =
      call("ha_call_service", R"({"domain":"light","service":"toggle","entity_id":"light.kitchen_ceiling_light"})");
  ASSERT_FALSE(c.is_error) << c.text;
  CallResult h1 = call("ha_get_history", R"({"entity_id":"light.kitchen_ceiling_light","start":"1h"})");
  ASSERT_FALSE(h1.is_error) << h1.text;
  const auto& e = h1.structured.at("entities").at(0).as_object();
  EXPECT_GE(e.at("changes").as_array().size(), 1u);
  EXPECT_EQ(e.at("changes").as_array().back().at("state").as_string(), "off");

  CallResult stats = call(
      "ha_get_history",
      R"({"entity_id":"sensor.living_room_climate_temperature","source":"statistics","start":"2d","period":"hour","limit":5})");
  ASSERT_FALSE(stats.is_error) << stats.text;
  EXPECT_LE(stats.structured.at("entities").at(0).at("rows").as_array().size(), 5u);

  CallResult bad = call("ha_get_history", R"({"entity_id":"light.kitchen_ceiling_light","start":"yesterday-ish"})");
  ASSERT_TRUE(bad.is_error);
  EXPECT_EQ(bad.code(), "invalid_argument");
  EXPECT_NE(bad.error().at("message").as_string().find("arguments.start"), std::string::npos);

  CallResult unknown = call("ha_get_history", R"({"entity_id":"light.no_such_lamp"})");
  ASSERT_TRUE(unknown.is_error);
  EXPECT_EQ(unknown.code(), "entity_not_found");

  CallResult order = call("ha_get_history", R"({"entity_id":"light.kitchen_ceiling_light","start":"1h","end":"2h"})");
  ASSERT_TRUE(order.is_error);
  EXPECT_EQ(order.code(), "invalid_argument");
}

TEST_F(ToolsTest, LogsFromLogbookSystemLogAndErrorLog) {
  start();
  call("ha_call_service", R"({"domain":"switch","service":"toggle","entity_id":"switch.kuche_wasserkocher"})");
  CallResult lb = call("ha_get_logs", R"({"entity_id":"switch.kuche_wasserkocher","start":"1h"})");
  ASSERT_FALSE(lb.is_error) << lb.text;
  EXPECT_GE(lb.structured.at("total").to_number<std::int64_t>(), 1);

  CallResult sys = call("ha_get_logs", R"({"source":"system"})");
  ASSERT_FALSE(sys.is_error) << sys.text;
  ASSERT_FALSE(sys.structured.at("entries").as_array().empty());
  EXPECT_TRUE(sys.structured.at("entries").at(0).as_object().contains("level"));

  CallResult err = call("ha_get_logs", R"({"source":"system","level":"error"})");
  for (const auto& e : err.structured.at("entries").as_array()) EXPECT_EQ(e.at("level").as_string(), "ERROR");

  CallResult raw = call("ha_get_logs", R"({"source":"error_log","limit":1})");
  ASSERT_FALSE(raw.is_error) << raw.text;
  EXPECT_EQ(raw.structured.at("entries").as_array().size(), 1u);

  CallResult bad = call("ha_get_logs", R"({"source":"kernel"})");
  EXPECT_TRUE(bad.is_error);
  EXPECT_NE(bad.text.find("arguments.source"), std::string::npos);
}

}  // namespace
}  // namespace hamcp::tools::testing
