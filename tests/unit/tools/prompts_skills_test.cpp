// The prompts (src/prompts/), their argument completion, and the skills guide
// (skill:// resources, skills/list, skills/get, ha_get_skill_guide) against
// the simulated demo home.
#include "skills/skill_guide.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class PromptsTest : public ToolsTest {
 protected:
  // The JSON-RPC response to one request on the main session.
  json::object rpc(const std::string& method, json::object params) { return rpc_in(*h.session, method, params); }

  json::object rpc_in(mcp::Session& session, const std::string& method, json::object params) {
    json::object req{{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", method}, {"params", std::move(params)}};
    auto channel = std::make_shared<mcp::testing::MemoryChannel>();
    session.deliver(json::value(std::move(req)), channel);
    h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(15000));
    auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << method;
    return responses.empty() ? json::object() : responses.front();
  }

  // prompts/get's single message text ("" and a failure when it errs).
  std::string prompt_text(const std::string& name, json::object arguments) {
    json::object r = rpc("prompts/get", {{"name", name}, {"arguments", std::move(arguments)}});
    if (!r.contains("result")) {
      ADD_FAILURE() << name << ": " << json::serialize(r);
      return {};
    }
    const json::array& messages = r.at("result").at("messages").as_array();
    EXPECT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].at("role"), "user");
    return std::string(messages[0].at("content").at("text").as_string());
  }

  std::int64_t error_code_of(const json::object& r) {
    const json::value* e = r.if_contains("error");
    return e ? e->at("code").as_int64() : 0;
  }

  std::vector<std::string> complete(const std::string& prompt, const std::string& argument, const std::string& value) {
    json::object r = rpc("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", prompt}}},
                                                 {"argument", {{"name", argument}, {"value", value}}}});
    std::vector<std::string> out;
    if (!r.contains("result")) {
      ADD_FAILURE() << json::serialize(r);
      return out;
    }
    for (const auto& v : r.at("result").at("completion").at("values").as_array()) out.emplace_back(v.as_string());
    return out;
  }

  static bool contains(const std::vector<std::string>& values, std::string_view wanted) {
    return std::find(values.begin(), values.end(), wanted) != values.end();
  }
};

TEST_F(PromptsTest, ListsTheFourPromptsWithTheirArguments) {
  start();
  json::object r = rpc("prompts/list", {});
  std::map<std::string, json::array> args;
  for (const auto& p : r.at("result").at("prompts").as_array())
    args[std::string(p.at("name").as_string())] = p.at("arguments").as_array();
  ASSERT_EQ(args.size(), 4u) << json::serialize(r);
  EXPECT_EQ(args.at("troubleshoot_automation").at(0).at("name"), "automation_id");
  EXPECT_EQ(args.at("troubleshoot_automation").at(0).at("required"), true);
  EXPECT_EQ(args.at("review_energy").at(0).at("name"), "period");
  EXPECT_EQ(args.at("tidy_areas_and_names").at(0).at("required"), false);
  EXPECT_EQ(args.at("write_automation").size(), 2u);
}

TEST_F(PromptsTest, TroubleshootAutomationShowsItsConfigStatesAndRuns) {
  start();
  const std::string text =
      prompt_text("troubleshoot_automation", {{"automation_id", "automation.hallway_light_on_motion"}});
  EXPECT_NE(text.find("automation.hallway_light_on_motion"), std::string::npos) << text;
  EXPECT_NE(text.find("Config:"), std::string::npos) << text;
  EXPECT_NE(text.find("Recent runs"), std::string::npos) << text;
  EXPECT_NE(text.find("ha_get_automation_traces"), std::string::npos) << text;
  EXPECT_NE(text.find("ha_config_set"), std::string::npos) << text;
  // The alias finds it too.
  const std::string by_alias = prompt_text("troubleshoot_automation", {{"automation_id", "Hallway light on motion"}});
  EXPECT_NE(by_alias.find("automation.hallway_light_on_motion"), std::string::npos) << by_alias;
}

TEST_F(PromptsTest, MissingOrUnknownArgumentsAreInvalidParams) {
  start();
  EXPECT_EQ(error_code_of(rpc("prompts/get", {{"name", "troubleshoot_automation"}})), -32602);
  EXPECT_EQ(error_code_of(rpc("prompts/get", {{"name", "review_energy"}, {"arguments", json::object()}})), -32602);
  EXPECT_EQ(error_code_of(rpc("prompts/get", {{"name", "write_automation"}})), -32602);
  json::object unknown =
      rpc("prompts/get", {{"name", "troubleshoot_automation"}, {"arguments", {{"automation_id", "automation.nope"}}}});
  EXPECT_EQ(error_code_of(unknown), -32602);
  EXPECT_NE(json::serialize(unknown).find("automation_id"), std::string::npos) << json::serialize(unknown);
  EXPECT_EQ(error_code_of(rpc("prompts/get", {{"name", "review_energy"}, {"arguments", {{"period", "decade"}}}})),
            -32602);
  EXPECT_EQ(error_code_of(rpc("prompts/get", {{"name", "tidy_areas_and_names"}, {"arguments", {{"area", "mars"}}}})),
            -32602);
}

TEST_F(PromptsTest, ReviewEnergyNamesTheDashboardsStatisticsWithAmounts) {
  start();
  const std::string text = prompt_text("review_energy", {{"period", "week"}});
  EXPECT_NE(text.find("sensor.grid_meter_energy_import"), std::string::npos) << text;
  EXPECT_NE(text.find("sensor.solar_inverter_energy"), std::string::npos) << text;
  EXPECT_NE(text.find("device: Dishwasher"), std::string::npos) << text;
  EXPECT_NE(text.find("kWh"), std::string::npos) << text;
  EXPECT_NE(text.find("ha_manage_energy_prefs"), std::string::npos) << text;
}

TEST_F(PromptsTest, TidyAreasListsAreasAndEntitiesWithoutOne) {
  start();
  const std::string home = prompt_text("tidy_areas_and_names", {});
  EXPECT_NE(home.find("hallway ("), std::string::npos) << home;
  EXPECT_NE(home.find("Without an area"), std::string::npos) << home;
  EXPECT_NE(home.find("ha_set_registry"), std::string::npos) << home;
  const std::string one = prompt_text("tidy_areas_and_names", {{"area", "hallway"}});
  EXPECT_NE(one.find("(hallway)"), std::string::npos) << one;
  EXPECT_EQ(one.find("bedroom ("), std::string::npos) << one;  // only the area asked for
}

TEST_F(PromptsTest, WriteAutomationOffersTheAreasEntities) {
  start();
  const std::string text =
      prompt_text("write_automation", {{"description", "turn the light on at sunset"}, {"area", "hallway"}});
  EXPECT_NE(text.find("turn the light on at sunset"), std::string::npos) << text;
  EXPECT_NE(text.find("light.hallway"), std::string::npos) << text;
  EXPECT_NE(text.find("ha_get_skill_guide"), std::string::npos) << text;
  const std::string searched = prompt_text("write_automation", {{"description", "hallway motion light"}});
  EXPECT_NE(searched.find("hallway"), std::string::npos) << searched;
}

TEST_F(PromptsTest, PromptsWorkInAReadOnlySession) {
  start();
  auto session = other_session("read-only-prompts");
  session->make_read_only();
  const std::vector<std::pair<std::string, json::object>> calls = {
      {"troubleshoot_automation", {{"automation_id", "automation.hallway_light_on_motion"}}},
      {"review_energy", {{"period", "month"}}},
      {"tidy_areas_and_names", {}},
      {"write_automation", {{"description", "lights off at midnight"}}}};
  for (const auto& [name, args] : calls) {
    json::object r = rpc_in(*session, "prompts/get", {{"name", name}, {"arguments", args}});
    EXPECT_TRUE(r.contains("result")) << name << ": " << json::serialize(r);
  }
}

TEST_F(PromptsTest, CompletesAutomationIdsAreasAndPeriods) {
  start();
  const auto automations = complete("troubleshoot_automation", "automation_id", "automation.hall");
  ASSERT_FALSE(automations.empty());
  EXPECT_EQ(automations.front(), "automation.hallway_light_on_motion");
  EXPECT_TRUE(contains(complete("troubleshoot_automation", "automation_id", "motion"),
                       "automation.hallway_light_on_motion"));  // by name, not only prefix
  EXPECT_TRUE(contains(complete("tidy_areas_and_names", "area", "hall"), "hallway"));
  EXPECT_TRUE(contains(complete("write_automation", "area", ""), "bedroom"));
  EXPECT_EQ(complete("review_energy", "period", "mo"), std::vector<std::string>{"month"});
  EXPECT_TRUE(complete("review_energy", "period", "zzz").empty());
  EXPECT_LE(complete("troubleshoot_automation", "automation_id", "").size(), 100u);
}

TEST_F(PromptsTest, SkillResourcesFollowTheSkillsExtension) {
  start();
  json::object caps = h.server.capabilities();
  ASSERT_TRUE(caps.contains("extensions")) << json::serialize(caps);
  EXPECT_TRUE(caps.at("extensions").as_object().contains("io.modelcontextprotocol/skills"));
  EXPECT_TRUE(caps.contains("resources"));

  json::object listed = rpc("resources/list", {});
  bool skill_md = false;
  for (const auto& r : listed.at("result").at("resources").as_array())
    if (r.at("uri") == "skill://home-assistant-authoring/SKILL.md") {
      skill_md = true;
      EXPECT_EQ(r.at("name"), "home-assistant-authoring");
      EXPECT_EQ(r.at("mimeType"), "text/markdown");
      EXPECT_EQ(r.at("description").as_string(), skills::frontmatter().description);
    }
  EXPECT_TRUE(skill_md) << json::serialize(listed);

  json::object read = rpc("resources/read", {{"uri", "skill://home-assistant-authoring/references/automations.md"}});
  const auto& contents = read.at("result").at("contents").as_array();
  ASSERT_EQ(contents.size(), 1u);
  EXPECT_NE(std::string(contents[0].at("text").as_string()).find("# Automations"), std::string::npos);

  json::object skills_list = rpc("skills/list", {});
  const auto& entries = skills_list.at("result").at("skills").as_array();
  ASSERT_EQ(entries.size(), 1u);
  const json::object& entry = entries[0].as_object();
  EXPECT_EQ(entry.at("uri"), "skill://home-assistant-authoring/SKILL.md");
  EXPECT_EQ(entry.at("frontmatter").at("name"), "home-assistant-authoring");
  const auto& files = entry.at("resources").as_array();
  EXPECT_EQ(files.size(), skills::guide_files().size());
  for (const auto& f : files) {
    const std::string uri(f.at("uri").as_string());
    json::object file = rpc("resources/read", {{"uri", uri}});
    const std::string text(file.at("result").at("contents").at(0).at("text").as_string());
    EXPECT_EQ(f.at("digest").as_string(), skills::sha256_digest(text)) << uri;
    EXPECT_EQ(f.at("size").as_uint64(), text.size()) << uri;
  }

  json::object got = rpc("skills/get", {{"uri", "skill://home-assistant-authoring/SKILL.md"}});
  EXPECT_EQ(got.at("result").at("skill").at("uri"), "skill://home-assistant-authoring/SKILL.md");
  EXPECT_FALSE(got.at("result").as_object().contains("nextCursor"));
  EXPECT_EQ(error_code_of(rpc("skills/get", {{"uri", "skill://nope/SKILL.md"}})), -32602);
}

TEST(SkillGuide, FrontmatterIsPlainAndMatchesTheSkillName) {
  const skills::Frontmatter& f = skills::frontmatter();
  EXPECT_EQ(f.name, "home-assistant-authoring");
  EXPECT_FALSE(f.description.empty());
  // Plain YAML scalars only: what a YAML parser reads equals the listed entry.
  for (char c : {'"', '\'', '#', '{', '[', '&', '*', '|', '>'})
    EXPECT_EQ(f.description.find(c), std::string::npos) << c;
  EXPECT_EQ(f.description.find(": "), std::string::npos);
  EXPECT_EQ(skills::parse_frontmatter("---\nname: x\n").size(), 0u);  // unterminated
  EXPECT_EQ(skills::topics(),
            (std::vector<std::string>{"automations", "dashboards", "helpers", "refactoring", "scripts", "templates"}));
  EXPECT_EQ(skills::sha256_digest("abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(PromptsTest, SkillGuideToolAnswersIndexTopicsAndHaMcpFiles) {
  start();
  CallResult index = call("ha_get_skill_guide");
  EXPECT_FALSE(index.is_error);
  EXPECT_NE(index.text.find("name: home-assistant-authoring"), std::string::npos) << index.text;
  CallResult topic = call("ha_get_skill_guide", R"({"topic":"templates"})");
  EXPECT_NE(topic.text.find("# Templates"), std::string::npos) << topic.text;
  CallResult file = call("ha_get_skill_guide", R"({"file":"references/safe-refactoring.md"})");
  EXPECT_NE(file.text.find("# Safe refactoring"), std::string::npos) << file.text;
  CallResult bad = call("ha_get_skill_guide", R"({"file":"references/appdaemon.md"})");
  EXPECT_TRUE(bad.is_error);
  EXPECT_NE(bad.text.find("file"), std::string::npos) << bad.text;
  CallResult bad_topic = call("ha_get_skill_guide", R"({"topic":"nope"})");
  EXPECT_TRUE(bad_topic.is_error);
}

}  // namespace
}  // namespace hamcp::tools::testing
