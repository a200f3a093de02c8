// Entity visibility gaps (issue 14 item 3): hidden entities are not counted
// in the overview; a rendered template may read entities only by literal ids
// while a filter hides some (an id built at run time renders a hidden state
// that no mask can catch); a config read back with hidden parts taken out
// cannot be written back over the stored one (its config_hash is tagged, and
// a full config that loses a hidden entity is refused; one that keeps them
// names a hidden entity and the gate refuses it): nothing is lost.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>

#include "tools/gate/template_guard.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr const char* kHiddenLight = "light.kitchen_ceiling_light";

TEST(TemplateGuard, LiteralIdsPassEverythingElseIsNamed) {
  for (const char* ok : {"{{ states('light.kitchen') }}", "{{ is_state(\"light.kitchen\", 'on') }}",
                         "{{ state_attr('light.kitchen', 'brightness') }}", "{{ states.light.kitchen.state }}",
                         "{{ now() }} {{ 1 + 2 }}", "{{ has_value('sensor.power') and states('sensor.power') }}"})
    EXPECT_FALSE(unnamed_entity_access(ok)) << ok;
  for (const char* bad :
       {"{{ states('light.' ~ 'kitchen') }}", "{{ states(name) }}", "{{ states.light | list }}", "{{ states | count }}",
        "{{ states['light.kitchen'] }}", "{{ expand('group.all') }}", "{{ area_entities('kitchen') }}",
        "{{ is_state('light.' + x, 'on') }}", "{{ states . light }}"})
    EXPECT_TRUE(unnamed_entity_access(bad)) << bad;
}

class VisibilityGapsTest : public ToolsTest {
 protected:
  void start_hidden() {
    EntityToolsOptions options;
    options.visibility.deny = {kHiddenLight, "lock"};
    start(options);
  }
  std::size_t states_of_domain(std::string_view domain) {
    std::size_t n = 0;
    for (const auto& id : ha->snapshot()->states.entity_ids())
      if (std::string_view(id).substr(0, domain.size() + 1) == std::string(domain) + ".") ++n;
    return n;
  }
};

TEST_F(VisibilityGapsTest, OverviewCountsLeaveHiddenEntitiesOut) {
  start_hidden();
  const std::size_t lights = states_of_domain("light");
  ASSERT_GT(states_of_domain("lock"), 0u);
  CallResult r = call("ha_get_overview", R"({"detail":"standard"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::object& domains = r.structured.at("domains").as_object();
  EXPECT_FALSE(domains.contains("lock")) << r.text;
  ASSERT_TRUE(domains.contains("light"));
  EXPECT_EQ(domains.at("light").at("count").to_number<std::size_t>(), lights - 1) << r.text;
  std::size_t hidden = 0;
  for (const auto& id : ha->snapshot()->states.entity_ids()) hidden += env->ha.hidden_now()->contains(id) ? 1 : 0;
  EXPECT_EQ(r.structured.at("home").at("entities").to_number<std::size_t>(), ha->snapshot()->states.size() - hidden);
}

TEST_F(VisibilityGapsTest, TemplatesReadLiteralIdsOnly) {
  start_hidden();
  CallResult built = call("ha_eval_template", R"({"template":"{{ states('light.' ~ 'kitchen_ceiling_light') }}"})");
  EXPECT_EQ(built.code(), "template_not_allowed") << built.text;
  EXPECT_NE(built.text.find("literal"), std::string::npos) << built.text;
  CallResult walk = call("ha_eval_template", R"({"template":"{{ states.lock | list | count }}"})");
  EXPECT_EQ(walk.code(), "template_not_allowed") << walk.text;
  CallResult literal = call("ha_eval_template", R"({"template":"{{ states('light.kitchen_under_cabinet_lights') }}"})");
  EXPECT_FALSE(literal.is_error) << literal.text;
}

// The guard follows Jinja into a macro's defaults, block bodies and macros in
// a with (template_guard_frames_test.cpp): a hidden entity named there is
// still refused, a visible one passes the gate, an id built there is refused.
TEST_F(VisibilityGapsTest, TemplateFramesStillRefuseHiddenEntities) {
  start_hidden();
  const std::vector<std::string> forms = {
      // each reads the template's own area_name, which HA also has
      "{% macro m(area_name, s=states('ID') ~ area_name) %}{{ s }}{% endmacro %}{{ m('a') }}",
      "{% set area_name = 'a' %}{% block b %}{{ states('ID') }}{{ area_name }}{% endblock %}",
      "{% set area_name = 'a' %}{% with a = 1 %}{% macro m() %}{{ states('ID') }}{{ area_name }}{% endmacro %}"
      "{{ m() }}{% endwith %}"};
  for (const std::string& form : forms) {
    auto with_id = [&](std::string_view id) {
      json::object args{
          {"template", form.substr(0, form.find("ID")) + std::string(id) + form.substr(form.find("ID") + 2)}};
      return call("ha_eval_template", json::serialize(args));
    };
    CallResult hidden = with_id(kHiddenLight);
    EXPECT_EQ(hidden.code(), "entity_hidden") << form << ": " << hidden.text;
    CallResult shown = with_id("light.kitchen_under_cabinet_lights");  // the simulator renders no statements
    EXPECT_NE(shown.code(), "entity_hidden") << form << ": " << shown.text;
    EXPECT_NE(shown.code(), "template_not_allowed") << form << ": " << shown.text;
  }
  for (const char* built :
       {"{% macro m(e='light.' ~ 'kitchen_ceiling_light') %}{{ states(e) }}{% endmacro %}{{ m() }}",
        "{% set e = 'light.' ~ 'kitchen_ceiling_light' %}{% block b %}{{ states(e) }}{% endblock %}",
        "{% with e = 'light.' ~ 'kitchen_ceiling_light' %}{% macro m() %}{{ states(e) }}"
        "{% endmacro %}{{ m() }}{% endwith %}"}) {
    CallResult r = call("ha_eval_template", json::serialize(json::object{{"template", built}}));
    EXPECT_EQ(r.code(), "template_not_allowed") << built << ": " << r.text;
  }
}

TEST_F(VisibilityGapsTest, TemplatesAreFreeWithoutAFilter) {
  start();
  CallResult built = call("ha_eval_template", R"({"template":"{{ states('light.' ~ 'kitchen_ceiling_light') }}"})");
  EXPECT_FALSE(built.is_error) << built.text;
}

TEST_F(VisibilityGapsTest, AFilteredConfigCannotBeWrittenBackButAPatchKeepsTheHiddenParts) {
  start_hidden();
  CallResult read = call("ha_config_get", R"({"kind":"scene","id":"scene.all_off_downstairs"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_EQ(read.text.find(kHiddenLight), std::string::npos) << read.text;
  ASSERT_TRUE(read.structured.contains("config_hash") && read.structured.contains("config")) << read.text;
  const std::string hash(read.structured.at("config_hash").as_string());
  EXPECT_EQ(hash.rfind("filtered:", 0), 0u) << "a filtered read's hash must say so: " << hash;
  const std::string config = json::serialize(read.structured.at("config"));
  CallResult with_hash = call("ha_config_set", R"({"kind":"scene","id":"scene.all_off_downstairs","config":)" + config +
                                                   R"(,"config_hash":")" + hash + "\"}");
  ASSERT_TRUE(with_hash.is_error) << with_hash.text;
  EXPECT_NE(with_hash.text.find("config_hash"), std::string::npos) << with_hash.text;
  CallResult no_hash =
      call("ha_config_set", R"({"kind":"scene","id":"scene.all_off_downstairs","config":)" + config + "}");
  EXPECT_EQ(no_hash.code(), "hidden_entities_would_be_lost") << no_hash.text;
  const std::string patch = R"({"kind":"scene","id":"scene.all_off_downstairs","config_hash":")" + hash +
                            R"(","patch":[{"op":"replace","path":"/name","value":"All off downstairs"}]})";
  // A patch keeps the hidden parts, so the config sent names a hidden entity: the gate refuses it too.
  CallResult patched = call("ha_config_set", patch);
  EXPECT_EQ(patched.code(), "entity_hidden") << patched.text;
  CallResult again = call("ha_config_get", R"({"kind":"scene","id":"scene.all_off_downstairs"})");
  EXPECT_EQ(again.structured.at("config").at("name"), "All Off Downstairs") << "nothing was written";
}

}  // namespace
}  // namespace hamcp::tools::testing
