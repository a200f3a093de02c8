// The template guard (tools/gate/template_guard.hpp) over its Jinja lexer:
// while a visibility filter is active a template may read entities by literal
// ids only. Table-driven: what must render (no false refusal: words inside
// strings, comments and raw blocks, literal calls, filters and tests on a
// literal) and what must be refused (ids built at run time, domain loops,
// every function of Home Assistant's that walks entities, aliases, loaded
// templates). HA 2026.2's template functions: helpers/template/__init__.py and
// helpers/template/extensions.

#include "tools/gate/template_guard.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/gate/jinja_lexer.hpp"

namespace hamcp::tools {
namespace {

struct Case {
  const char* why;
  const char* text;
};

const std::vector<Case> kAllowed = {
    {"a literal call", "{{ states('light.kitchen') }}"},
    {"double quotes", R"({{ is_state("light.kitchen", 'on') }})"},
    {"runtime second argument", "{{ state_attr('light.kitchen', attr) }}"},
    {"attribute access", "{{ states.light.kitchen.state }}"},
    {"attribute access, then a filter", "{{ states.light.kitchen.attributes.brightness | int }}"},
    {"no entity at all", "{{ now() }} {{ 1 + 2 }} {{ [1, 2] | sum }}"},
    {"states( inside a string", "{{ 'call states(x) to read one' }}"},
    {"expand( inside a string", R"({{ "expand(group) " ~ 'x' }})"},
    {"states in plain text", "The states of my lights: {{ states('light.kitchen') }}"},
    {"states in a comment", "{# loop over states.light and expand(x) #}{{ 1 }}"},
    {"a raw block", "{% raw %}{{ states.light | list }} {{ expand(x) }}{% endraw %}{{ 2 }}"},
    {"a raw block with whitespace control", "{%- raw -%}{{ states | count }}{%- endraw -%}"},
    {"a filter on a literal", "{{ 'light.kitchen' | states }}"},
    {"a filter with arguments on a literal", "{{ 'light.kitchen' | state_attr('brightness') }}"},
    {"a test on a literal", "{{ 'light.kitchen' is is_state('on') }}"},
    {"a negated test on a literal", "{{ 'light.kitchen' is not is_state('on') }}"},
    {"a filter binds tighter than ~", "{{ 'x: ' ~ 'light.kitchen' | states }}"},
    {"an attribute named states", "{{ trigger.to_state.states }}"},
    {"an attribute named expand", "{{ foo.expand(1) }}"},
    {"an area by name", "{{ area_id('Kitchen') }}"},
    {"labels of nothing", "{{ labels() }}"},
    {"a name containing states", "{{ my_states + all_states_count }}"},
    {"nested dict braces", "{{ {'a': {'b': states('sensor.power')}} }}"},
    {"a statement with literals", "{% if is_state('light.kitchen', 'on') %}on{% endif %}"},
    {"lone braces in text", "a { b } {{ 1 }}"},
};

const std::vector<Case> kRefused = {
    {"an id built with ~", "{{ states('light.' ~ 'kitchen') }}"},
    {"an id built with +", "{{ is_state('light.' + x, 'on') }}"},
    {"a variable id", "{{ states(name) }}"},
    {"a subscript with a variable", "{{ states[var] }}"},
    {"a subscript", "{{ states['light.kitchen'] }}"},
    {"a domain", "{{ states.light | list }}"},
    {"all states", "{{ states | count }}"},
    {"a domain loop", "{% for s in states.light %}{{ s.name }}{% endfor %}"},
    {"a spaced attribute", "{{ states . light . kitchen }}"},
    {"a domain, subscripted", "{{ states.light['kitchen'] }}"},
    {"expand", "{{ expand('group.all') }}"},
    {"expand as a filter", "{{ ['group.all'] | expand | list }}"},
    {"area_entities", "{{ area_entities('kitchen') }}"},
    {"area_entities as a filter", "{{ 'kitchen' | area_entities }}"},
    {"device_entities", "{{ device_entities(d) }}"},
    {"label_entities", "{{ label_entities('x') }}"},
    {"floor_entities", "{{ floor_entities('x') }}"},
    {"integration_entities", "{{ integration_entities('hue') }}"},
    {"integration_entities as a filter", "{{ 'hue' | integration_entities }}"},
    {"closest", "{{ closest(states.person) }}"},
    {"distance", "{{ distance('zone.home') }}"},
    {"an alias of states", "{% set s = states %}{{ s.light | list }}"},
    {"an alias of is_state", "{% set f = is_state %}{{ f(x, 'on') }}"},
    {"a filter on a variable", "{{ name | states }}"},
    {"a filter on a filtered literal", "{{ 'LIGHT.KITCHEN' | lower | states }}"},
    {"a filter on a built id", "{{ ('light.' ~ x) | states }}"},
    {"glued literals", "{{ 'li' 'ght.kitchen' | states }}"},
    {"glued literals in a call", "{{ states('li' 'ght.kitchen') }}"},
    {"an escape in the id", R"({{ states('light.\x6bitchen') }})"},
    {"uppercase id", "{{ states('LIGHT.KITCHEN') }}"},
    {"a test on a variable", "{{ x is is_state('on') }}"},
    {"has_value on a variable", "{{ has_value(x) }}"},
    {"device_id on a variable", "{{ device_id(x) }}"},
    {"is_hidden_entity test", "{{ x is is_hidden_entity }}"},
    {"states inside a statement", "{% if states.light | count > 0 %}x{% endif %}"},
    {"an included template", "{% include 'lights.jinja' %}"},
    {"an imported macro", "{% from 'tools.jinja' import all_lights %}{{ all_lights() }}"},
    {"an unterminated string", "{{ states('light.kitchen) }}"},
    {"an unterminated comment", "{# {{ 1 }}"},
    {"an unterminated raw block", "{% raw %}{{ states | list }}"},
    {"after a string with a brace", "{{ '}}' ~ states | list }}"},
};

TEST(TemplateGuardTest, AllowsLiteralReadsAndWordsJinjaNeverEvaluates) {
  for (const Case& c : kAllowed) {
    const auto found = unnamed_entity_access(c.text);
    EXPECT_FALSE(found) << c.why << ": " << c.text << " refused at " << found.value_or("");
  }
}

TEST(TemplateGuardTest, RefusesEveryWayToReachEntitiesOtherThanByALiteralId) {
  for (const Case& c : kRefused) EXPECT_TRUE(unnamed_entity_access(c.text)) << c.why << ": " << c.text;
}

TEST(TemplateGuardTest, NamesWhereItRefused) {
  EXPECT_EQ(unnamed_entity_access("{{ 'states(' }} {{ expand(x) }}").value_or(""), "expand(x) }}");
}

TEST(JinjaLexerTest, StringsAreOneTokenAndCommentsAndTextAreSkipped) {
  const jinja::Lexed lexed = jinja::lex("text {# c #}{{ f('a \\' b', 1.5) }}");
  ASSERT_EQ(lexed.broken_at, std::string_view::npos);
  std::vector<std::string> texts;
  for (const auto& t : lexed.tokens) texts.emplace_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"f", "(", "a \\' b", ",", "1.5", ")", "}}"}));
  EXPECT_EQ(lexed.tokens[2].kind, jinja::TokenKind::string);
  EXPECT_EQ(lexed.tokens[4].kind, jinja::TokenKind::number);
}

}  // namespace
}  // namespace hamcp::tools
