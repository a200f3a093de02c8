#include "sim/core/template.hpp"

#include <gtest/gtest.h>

namespace hamcp::sim {
namespace {

class TemplateTest : public ::testing::Test {
 protected:
  StateStore store{demo_home()};
  void SetUp() override {
    Context c = store.new_context();
    store.set_state("sensor.t", "21.5", {{"unit_of_measurement", "°C"}, {"friendly_name", "T"}}, c);
    store.set_state("light.l", "on", {{"brightness", 128}}, c);
  }
  std::string text(const std::string& t, json::object vars = {}) { return render_template(store, t, vars).text; }
};

TEST_F(TemplateTest, SupportedSubset) {
  EXPECT_EQ(text("{{ states('sensor.t') }}"), "21.5");
  EXPECT_EQ(text("{{ states.sensor.t.state }}"), "21.5");
  EXPECT_EQ(text("{{ states.sensor.t.attributes.unit_of_measurement }}"), "°C");
  EXPECT_EQ(text("{{ state_attr('light.l', 'brightness') }}"), "128");
  EXPECT_EQ(text("{{ is_state('light.l', 'on') }}"), "True");
  EXPECT_EQ(text("{{ is_state_attr('light.l', 'brightness', 128) }}"), "True");
  EXPECT_EQ(text("{{ states('sensor.t') | float + 1 }}"), "22.5");
  EXPECT_EQ(text("{{ (states('sensor.t') | float * 2) | round(0) }}"), "43.0");
  EXPECT_EQ(text("{{ states('sensor.missing') }}"), "unknown");
  EXPECT_EQ(text("{{ has_value('sensor.missing') }}"), "False");
  EXPECT_EQ(text("Temp: {{ states('sensor.t') }} {{ 'C' | lower }}"), "Temp: 21.5 c");
  EXPECT_EQ(text("{{ [1, 2, 3] | length }}"), "3");
  EXPECT_EQ(text("{{ x * 2 }}", {{"x", 4}}), "8");
  EXPECT_EQ(text("{{ 1 < 2 and not false }}"), "True");
  EXPECT_EQ(text("{{ area_name('light.kitchen_ceiling_light') }}"), "Kitchen");
  EXPECT_EQ(text("{{ none }}"), "None");
  EXPECT_EQ(text("{# comment #}plain"), "plain");
  auto r = render_template(store, "{{ states('sensor.t') | float }}", {});
  EXPECT_EQ(r.value, 21.5);
  EXPECT_EQ(r.entities, std::vector<std::string>{"sensor.t"});
}

TEST_F(TemplateTest, UnsupportedAndInvalidTemplatesAreErrors) {
  EXPECT_THROW(text("{% if true %}x{% endif %}"), TemplateError);
  EXPECT_THROW(text("{{ unknown_function() }}"), TemplateError);
  EXPECT_THROW(text("{{ 1 + }}"), TemplateError);
  EXPECT_THROW(text("{{ states('sensor.t') | nofilter }}"), TemplateError);
  EXPECT_THROW(text("{{ 'abc' | float }}"), TemplateError);
  EXPECT_EQ(text("{{ 'abc' | float(0) }}"), "0");
  EXPECT_THROW(text("{{ states('x'"), TemplateError);
}

}  // namespace
}  // namespace hamcp::sim
