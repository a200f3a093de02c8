// Numbers no real home has (1e300, -1e300, 30-digit integers) reach the
// simulator through templates, states written over REST and service data. Each
// is answered with a bounded value instead of an out-of-range double -> int
// conversion (undefined behaviour: the asan lane's UBSan halts on it).
#include <gtest/gtest.h>

#include "sim/core/sim_core.hpp"
#include "sim/core/template.hpp"

namespace hamcp::sim {
namespace {

class HostileNumbers : public ::testing::Test {
 protected:
  SimCore core{demo_home(), "tok"};
  StateStore& store = core.store();
  std::string render(const std::string& t) { return render_template(store, t, {}).text; }
  ServiceOutcome call(const std::string& domain, const std::string& service, json::object data,
                      const std::string& entity) {
    return core.services().call(
        ServiceCall{domain, service, std::move(data), json::object{{"entity_id", entity}}, store.new_context(), false});
  }
};

TEST_F(HostileNumbers, TemplateIntFilterSaturatesInsteadOfOverflowing) {
  // The simulator's tokenizer has no exponent literals; strings reach the same conversions.
  EXPECT_EQ(render("{{ '1e300' | int }}"), "9223372036854775807");
  EXPECT_EQ(render("{{ '-1e300' | float | int }}"), "-9223372036854775808");
  EXPECT_EQ(render("{{ int('1e300') }}"), "9223372036854775807");
  EXPECT_EQ(render("{{ 123456789012345678901234567890 | abs }}"), "9223372036854775807");
}

TEST_F(HostileNumbers, TemplateHugeIntegerLiteralsAndResultsStayBounded) {
  EXPECT_EQ(render("{{ 123456789012345678901234567890 }}"), "9223372036854775807");
  EXPECT_EQ(render("{{ 2.5 | round('1e300' | float) }}"), "2.5");
}

TEST_F(HostileNumbers, ServicesClampAttributesAStateClaims) {
  Context c = store.new_context();
  const std::string light = "light.living_room_floor_lamp";
  json::object attrs = store.get(light)->attributes;
  attrs["brightness"] = 1e300;
  attrs["supported_features"] = 1e300;
  attrs["color_temp_kelvin"] = -1e300;
  store.set_state(light, "on", attrs, c);
  call("light", "turn_on", {{"brightness_step", 10}}, light);
  EXPECT_EQ(store.get(light)->attributes.at("brightness"), 255);
  attrs["rgb_color"] = json::array{1e300, -1e300, 0};
  store.set_state(light, "on", attrs, c);
  EXPECT_NO_THROW(call("light", "turn_on", {{"brightness", 100}}, light));
  EXPECT_EQ(store.get(light)->state, "on");
}

}  // namespace
}  // namespace hamcp::sim
