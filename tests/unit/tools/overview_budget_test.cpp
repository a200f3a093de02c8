// ha_get_overview on a 10k-entity generated home: every detail level stays
// within the response budget (the structuredContent's compact JSON) and says
// so explicitly when it cut the listing; the numbers served from the live
// aggregates equal a from-scratch walk after real state changes.
#include <string>

#include "home/overview_data.hpp"
#include "tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class OverviewBigHome : public ToolsTest {
 protected:
  void start_big(EntityToolsOptions options = {}) {
    big = std::make_unique<sim::SimServer>(sim::generate_home(10000, 1), sim::SimServerOptions{"127.0.0.1", 0, "tok"});
    big->start();
    start(options, big->url(), "tok");
    ASSERT_TRUE(eventually([&] { return ha->status().state == ha::MirrorState::synced && index->size() >= 10000; },
                           std::chrono::seconds(120)))
        << "mirror never synced the 10k home";
    // Registries arrive after the states: wait until the mirror goes quiet.
    for (std::uint64_t v = 0; v != ha->snapshot()->version;) {
      v = ha->snapshot()->version;
      h.run_for(std::chrono::milliseconds(700));
    }
  }
  void TearDown() override {
    ToolsTest::TearDown();
    if (big) big->stop();
  }

  // Checks the size and the bookkeeping of one overview response.
  void check_level(const std::string& args, bool lists_entities) {
    SCOPED_TRACE(args);
    CallResult r = call("ha_get_overview", args);
    ASSERT_FALSE(r.is_error) << r.text;
    const std::size_t size = json_size(json::value(r.structured));
    EXPECT_LE(size, env->options.response_budget);
    EXPECT_GT(size, env->options.response_budget / 4) << "a 10k home should use its budget";
    const json::object& domains = r.structured.at("domains").as_object();
    ASSERT_FALSE(domains.empty());
    std::size_t counted = 0, listed = 0;
    for (const auto& [name, v] : domains) {
      const json::object& d = v.as_object();
      const std::size_t count = d.at("count").to_number<std::size_t>();
      counted += count;
      if (!lists_entities) {
        EXPECT_FALSE(d.contains("entities")) << name;
        continue;
      }
      const std::size_t shown = d.at("entities").as_array().size();
      const std::size_t more = d.contains("more") ? d.at("more").to_number<std::size_t>() : 0;
      EXPECT_EQ(shown + more, count) << name;
      listed += shown;
    }
    if (!r.structured.contains("domains_total") && !r.structured.contains("area")) {
      EXPECT_EQ(counted, ha->snapshot()->states.size());
    }
    if (lists_entities) {
      EXPECT_GT(listed, 0u);
      // 10k entities never fit: the cut is explicit and points at narrower calls.
      ASSERT_TRUE(r.structured.contains("truncated"));
      EXPECT_TRUE(r.structured.at("truncated").as_bool());
      const std::string notice(r.structured.at("notice").as_string());
      EXPECT_NE(notice.find("domains=[...]"), std::string::npos) << notice;
      EXPECT_NE(notice.find("ha_search"), std::string::npos) << notice;
    }
  }

  std::unique_ptr<sim::SimServer> big;
};

TEST_F(OverviewBigHome, EveryDetailLevelHonoursTheBudget) {
  start_big();
  if (HasFatalFailure()) return;
  check_level(R"({})", false);
  check_level(R"({"detail":"minimal"})", false);
  check_level(R"({"detail":"standard"})", true);
  check_level(R"({"detail":"full"})", true);
  check_level(R"({"detail":"full","limit":1000})", true);
  // Same snapshot, same answer.
  CallResult a = call("ha_get_overview", R"({"detail":"standard"})");
  CallResult b = call("ha_get_overview", R"({"detail":"standard"})");
  EXPECT_EQ(json::serialize(a.structured), json::serialize(b.structured));
}

TEST_F(OverviewBigHome, SmallBudgetsAreHonouredToo) {
  EntityToolsOptions o;
  o.response_budget = 4096;
  start_big(o);
  if (HasFatalFailure()) return;
  check_level(R"({})", false);
  check_level(R"({"detail":"standard"})", true);
  check_level(R"({"detail":"full"})", true);
}

TEST_F(OverviewBigHome, LiveAggregatesEqualAFromScratchWalkAfterChanges) {
  start_big();
  if (HasFatalFailure()) return;
  CallResult first = call("ha_get_overview", R"({"detail":"standard","domains":["light"],"limit":5})");
  ASSERT_FALSE(first.is_error) << first.text;
  const json::array& lights = first.structured.at("domains").at("light").at("entities").as_array();
  ASSERT_GE(lights.size(), 2u);
  const std::size_t rebuilds = env->overview.rebuilds();
  EXPECT_EQ(rebuilds, 1u);
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string id(lights[i].at("entity_id").as_string());
    const std::uint64_t before = ha->snapshot()->version;
    CallResult t = call("ha_call_service", R"({"domain":"light","service":"toggle","entity_id":")" + id + "\"}");
    ASSERT_FALSE(t.is_error) << t.text;
    ASSERT_TRUE(eventually([&] { return ha->snapshot()->version > before; }));
  }
  h.run_for(std::chrono::milliseconds(300));
  const ha::SnapshotPtr snap = ha->snapshot();
  overview::Query q;
  q.list_entities = true;
  q.per_domain = 25;
  const overview::Summary live = env->overview.summarize(snap, q);
  ASSERT_EQ(live.snapshot, snap) << "the listener keeps the aggregates at the mirror's version";
  EXPECT_TRUE(live.same_numbers(overview::summarize_from_scratch(snap, q)));
  overview::Query minimal;
  EXPECT_TRUE(env->overview.summarize(snap, minimal).same_numbers(overview::summarize_from_scratch(snap, minimal)));
  // The changes were applied incrementally: no further full walk.
  EXPECT_EQ(env->overview.rebuilds(), rebuilds);
}

}  // namespace
}  // namespace hamcp::tools::testing
