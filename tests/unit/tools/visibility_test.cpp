// Entity visibility (issue 14 item 3): with deny rules by entity glob, domain,
// area and label, and an entity planted in the simulated home, every tool the
// registry holds, under every name (hidden ha-mcp aliases too), is called with
// arguments derived from its schema. No answer may contain a hidden entity id,
// and the simulator's own record of received requests may name none: acting
// on a hidden entity is refused before anything is sent. The sweep reads the
// registry, so a tool added later is swept without editing this file.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "sim/core/sim_core.hpp"
#include "tools/gate/entity_filter.hpp"
#include "unit/tools/tool_sweep.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr const char* kPlanted = "sensor.planted_secret_code";       // planted, hidden by a glob
constexpr const char* kHiddenLight = "light.kitchen_ceiling_light";  // hidden by its id
constexpr const char* kHiddenLock = "lock.front_door_lock";          // hidden by its domain
constexpr const char* kVisibleLight = "light.kitchen_under_cabinet_lights";

bool id_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// The first of `ids` in `text` as a whole word (independent of the code under test).
std::string first_named(std::string_view text, const std::vector<std::string>& ids) {
  for (const auto& id : ids)
    for (std::size_t at = text.find(id); at != std::string_view::npos; at = text.find(id, at + 1)) {
      const bool starts = at == 0 || !id_char(text[at - 1]);
      const std::size_t end = at + id.size();
      if (starts && (end == text.size() || !id_char(text[end]))) return id;
    }
  return {};
}

class VisibilityTest : public ToolsTest {
 protected:
  void start_hidden() {
    EntityToolsOptions options;
    options.visibility.deny = {kHiddenLight, "lock", "area:garage", "label:Kids", "sensor.planted_*"};
    start(options);
    sim->store().set_state(kPlanted, "4711", json::object{{"friendly_name", "Planted secret code"}},
                           sim->store().new_context());
    ASSERT_TRUE(eventually([&] { return ha->snapshot()->states.find(kPlanted) != nullptr; }));
    for (const auto& id : ha->snapshot()->states.entity_ids())
      if (env->ha.hidden_now()->contains(id)) hidden.push_back(id);
  }

  json::object call_raw(mcp::Session& session, const std::string& name, const json::object& args) {
    json::object req{{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", "tools/call"}};
    req["params"] = json::object{{"name", name}, {"arguments", args}};
    auto channel = std::make_shared<mcp::testing::MemoryChannel>();
    session.deliver(json::value(std::move(req)), channel);
    h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(15000));
    auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << name << " " << json::serialize(args);
    return responses.empty() ? json::object() : responses.front();
  }

  std::vector<std::pair<std::string, const mcp::RegisteredTool*>> every_name() {
    std::vector<std::pair<std::string, const mcp::RegisteredTool*>> names;
    for (const auto& t : h.server.registry().tools()) {
      names.emplace_back(t->tool.name, t.get());
      for (const auto& alias : t->tool.aliases) names.emplace_back(alias, t.get());
    }
    return names;
  }

  void expect_record_names_no_hidden() {
    const auto received = sim->core().received_requests();
    for (const auto& r : received)
      EXPECT_EQ(first_named(r.message, hidden), "")
          << "HA received a request naming a hidden entity: " << r.what << " " << r.message;
  }

  std::vector<std::string> hidden;
};

TEST_F(VisibilityTest, RulesHideByIdDomainAreaLabelAndGlob) {
  start_hidden();
  const HiddenSetPtr set = env->ha.hidden_now();
  EXPECT_TRUE(set->contains(kHiddenLight));
  EXPECT_TRUE(set->contains(kHiddenLock));
  EXPECT_TRUE(set->contains(kPlanted));
  EXPECT_FALSE(set->contains(kVisibleLight));
  EXPECT_GT(hidden.size(), 4u) << "area:garage and label:Kids should hide more";
  EXPECT_FALSE(set->first_in("light.turn_on states.light").has_value());
  EXPECT_EQ(set->first_in("{{ states('light.kitchen_ceiling_light') }}").value_or(""), kHiddenLight);
  // Home Assistant lower-cases the ids it is given: any case names the hidden entity.
  EXPECT_EQ(set->first_in("{{ states('LIGHT.KITCHEN_CEILING_LIGHT') }}").value_or(""), kHiddenLight);
  EXPECT_FALSE(set->first_in("XLIGHT.KITCHEN_CEILING_LIGHT").has_value());
}

TEST_F(VisibilityTest, EveryToolUnderEveryNameShowsNoHiddenEntity) {
  start_hidden();
  auto session = other_session("visibility-sweep");
  session->make_read_only();  // the sweep's writes with visible entities must not change the home under it
  ASSERT_TRUE(eventually([&] { return env->configs.status().ready; }, std::chrono::milliseconds(30000)));
  sim->core().record_requests(true);
  std::size_t calls = 0;
  for (const auto& [name, tool] : every_name())
    for (const char* entity : {kVisibleLight, kHiddenLight, kPlanted})
      for (const json::object& args : sweep_argument_sets(tool->tool.input_schema, entity)) {
        const json::object response = call_raw(*session, name, args);
        EXPECT_EQ(first_named(json::serialize(response), hidden), "")
            << name << " " << json::serialize(args) << " showed a hidden entity: " << json::serialize(response);
        ++calls;
      }
  // The reads that list many entities, with arguments that find the hidden ones.
  const std::vector<std::pair<std::string, std::string>> reads = {
      {"ha_search", R"({"query":"kitchen ceiling"})"},
      {"ha_search", R"({"query":"lock"})"},
      {"ha_search", R"({"query":"planted secret"})"},
      {"ha_get_overview", R"({})"},
      {"ha_get_registry", R"({"kind":"entity"})"},
      {"ha_get_registry", R"({"kind":"exposure"})"},
      {"ha_eval_template", R"({"template":"{{ states.light | map(attribute='entity_id') | list }}"})"},
      {"ha_eval_template", R"({"template":"{{ states | map(attribute='entity_id') | join(',') }}"})"},
  };
  for (const auto& [name, args] : reads) {
    const json::object response = call_raw(*session, name, json::parse(args).as_object());
    EXPECT_EQ(first_named(json::serialize(response), hidden), "")
        << name << " " << args << " showed a hidden entity: " << json::serialize(response);
  }
  h.run_for(std::chrono::milliseconds(200));
  sim->core().record_requests(false);
  EXPECT_GT(calls, 300u) << "the sweep made too few calls to mean anything";
  EXPECT_FALSE(sim->core().received_requests().empty()) << "the sim recorded nothing: is the record wired?";
  expect_record_names_no_hidden();
}

// In a session that may write: every argument set naming a hidden entity is
// refused, the known writes through areas and labels too, and HA receives nothing naming one.
TEST_F(VisibilityTest, ActingOnAHiddenEntityIsRefusedAndNothingIsSent) {
  start_hidden();
  ASSERT_TRUE(eventually([&] { return env->configs.status().ready; }, std::chrono::milliseconds(30000)));
  const std::string states_before = sim->store().states_array_json();
  sim->core().record_requests(true);
  std::size_t refused = 0, named = 0;
  for (const auto& [name, tool] : every_name())
    for (const json::object& args : sweep_argument_sets(tool->tool.input_schema, kHiddenLight)) {
      if (json::serialize(args).find(kHiddenLight) == std::string::npos) continue;  // acts on nothing hidden
      ++named;
      const json::object response = call_raw(*h.session, name, args);
      const std::string text = json::serialize(response);
      EXPECT_EQ(first_named(text, hidden), "") << name << ": " << text;
      refused += text.find("entity_hidden") != std::string::npos;
    }
  const std::vector<std::pair<std::string, std::string>> writes = {
      {"ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":"light.kitchen_ceiling_light"})"},
      {"ha_call_service", R"({"domain":"lock","service":"unlock","target":{"entity_id":["lock.front_door_lock"]}})"},
      {"ha_call_service", R"({"domain":"light","service":"turn_off","target":{"area_id":"kitchen"}})"},
      // HA lower-cases entity ids in a service call (cv.entity_id): these act on the hidden ones.
      {"ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":"LIGHT.KITCHEN_CEILING_LIGHT"})"},
      {"ha_call_service", R"({"domain":"lock","service":"unlock","target":{"entity_id":["Lock.Front_Door_Lock"]}})"},
      {"ha_bulk_control", R"({"operations":[{"entity_id":"LOCK.FRONT_DOOR_LOCK","action":"unlock"}]})"},
      {"ha_bulk_control", R"({"operations":[{"entity_id":"lock.front_door_lock","action":"unlock"}]})"},
      {"ha_eval_template", R"({"template":"{{ states('sensor.planted_secret_code') }}"})"},
      {"ha_config_set",
       R"({"kind":"automation","config":{"alias":"Leak","triggers":[{"trigger":"state","entity_id":"sensor.planted_secret_code"}],"actions":[]}})"},
  };
  for (const auto& [name, args] : writes) {
    const json::object response = call_raw(*h.session, name, json::parse(args).as_object());
    const std::string text = json::serialize(response);
    EXPECT_NE(text.find("entity_hidden"), std::string::npos) << name << " " << args << ": " << text;
    EXPECT_EQ(first_named(text, hidden), "") << name << ": " << text;
  }
  h.run_for(std::chrono::milliseconds(200));
  sim->core().record_requests(false);
  EXPECT_GT(named, 20u);
  EXPECT_GT(refused, named / 2) << "most calls naming a hidden entity should be refused as entity_hidden";
  expect_record_names_no_hidden();
  for (const char* id : {kHiddenLight, kHiddenLock, kPlanted})
    EXPECT_EQ(first_named(states_before, {id}), id) << "the home lost " << id;
  const std::string states_after = sim->store().states_array_json();
  EXPECT_EQ(states_after, states_before) << "a state changed while only hidden entities were acted on";
}

TEST_F(VisibilityTest, ExposedOnlyHidesWhatAssistDoesNotSee) {
  EntityToolsOptions options;
  options.visibility.exposed_only = true;
  start(options);
  sim->core().exposure()["conversation"][kVisibleLight] = true;
  sim->core().exposure()["conversation"][kHiddenLight] = false;
  const CallResult found = call("ha_search", R"({"query":"kitchen"})");
  EXPECT_NE(found.text.find(kVisibleLight), std::string::npos) << found.text;
  EXPECT_EQ(found.text.find(kHiddenLight), std::string::npos) << found.text;
  const CallResult refused = call("ha_get_state", R"({"entity_id":"light.kitchen_ceiling_light"})");
  EXPECT_EQ(refused.code(), "entity_hidden") << refused.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
