// The template guard (tools/gate/template_guard.hpp) over its Jinja lexer:
// while a visibility filter is active a template may read entities by literal
// ids only. Table-driven: what must render (no false refusal: words inside
// strings, comments and raw blocks, literal calls, filters and tests on a
// literal) and what must be refused (ids built at run time, domain loops,
// every function of Home Assistant's that walks entities, aliases, loaded
// templates), and the template's own variables named like HA's functions
// against HA's functions used where no such variable is in effect. HA 2026.2's template functions:
// helpers/template/__init__.py and helpers/template/extensions.

#include "tools/gate/template_guard.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/gate/jinja_lexer.hpp"
#include "unit/tools/template_guard_cases.hpp"

namespace hamcp::tools {
namespace {

using guard_cases::Case;
using guard_cases::Refused;

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
    {"map by a harmless filter", "{{ ['1', '2'] | map('int') | list }}"},
    {"map by attribute", "{{ xs | map(attribute='name') | list }}"},
    {"select by a harmless test", "{{ xs | select('odd') | list }}"},
    {"select without a test", "{{ xs | select | list }}"},
    {"selectattr by a harmless test", "{{ xs | selectattr('state', 'eq', 'on') | list }}"},
    {"selectattr without a test", "{{ xs | selectattr('on') | list }}"},
    {"rejectattr, a literal list", "{{ xs | rejectattr('name', 'in', ['a', 'b']) | list }}"},
};

// The template's own variables named like HA's functions (jinja_scope.hpp).
const std::vector<Case> kUserVariables = {
    {"a variable named states", "{% set states = 3 %}{{ states }}"},
    {"a variable named states, then attributes", "{% set states = {'a': 1} %}{{ states.a }} {{ states['a'] }}"},
    {"a loop variable", "{% for area_name in ['a', 'b'] %}{{ area_name | upper }}{% endfor %}"},
    {"two loop variables", "{% for area_id, states in pairs %}{{ area_id }}{{ states | count }}{% endfor %}"},
    {"a variable named distance", "{% set distance = 5 %}{{ distance * 2 }}"},
    {"keyword arguments", "{{ dict(states=1, area_id=2) }}"},
    {"a macro parameter", "{% macro show(states, labels=[]) %}{{ states | count }}{{ labels }}{% endmacro %}"},
    {"a macro named states", "{% macro states(x) %}{{ x }}{% endmacro %}{{ states('light.' ~ x) }}"},
    {"a namespace attribute",
     "{% set ns = namespace(labels=[]) %}{% set ns.labels = ns.labels + [1] %}{{ ns.labels }}"},
    {"a block set", "{% set area_name %}Kitchen{% endset %}{{ area_name }}"},
    {"a with target", "{% with states = [1] %}{{ states | count }}{% endwith %}"},
    {"a set in a branch, read in it", "{% if x %}{% set states = 1 %}{{ states }}{% endif %}"},
    {"a set in a loop, read in it", "{% for i in xs %}{% set expand = i %}{{ expand }}{% endfor %}"},
    {"a reassignment", "{% set states = 1 %}{% set states = states + 1 %}{{ states }}"},
    {"a call block parameter", "{% call(states) m() %}{{ states }}{% endcall %}"},
    {"a filter on a literal next to a variable", "{% set states = 1 %}{{ 'light.kitchen' | states }}"},
};

// Jinja's if opens no scope: a name every branch sets, an else included, is
// the template's after endif. A macro or call body defined at template level
// (or in another macro, at most inside ifs) reads the template's variables set
// before it: Jinja 3.1.6, as HA 2026.2 bundles it, renders each of these with
// the template's value.
const std::vector<Case> kScopedAccepted = {
    {"a set in if and else, read after",
     "{% if x %}{% set states = [1] %}{% else %}{% set states = [] %}{% endif %}{{ states | count }}"},
    {"a set in if, elif and else, read after",
     "{% if a %}{% set area_id = 1 %}{% elif b %}{% set area_id = 2 %}{% else %}{% set area_id = 3 %}{% endif %}"
     "{{ area_id }}"},
    {"nested ifs setting it in every branch",
     "{% if a %}{% if b %}{% set states = 1 %}{% else %}{% set states = 2 %}{% endif %}{% else %}"
     "{% set states = 3 %}{% endif %}{{ states }}"},
    {"a macro in every branch",
     "{% if a %}{% macro labels() %}1{% endmacro %}{% else %}{% set labels = 2 %}"
     "{% endif %}{{ labels }}"},
    {"an if setting it in every branch, in a loop",
     "{% for i in xs %}{% if i %}{% set expand = 1 %}{% else %}{% set expand = 2 %}{% endif %}{{ expand }}"
     "{% endfor %}"},
    {"a macro reading a template-level set",
     "{% set states = [1] %}{% macro m() %}{{ states | count }}{% endmacro %}"
     "{{ m() }}"},
    {"a macro reading a set promoted from an if",
     "{% if x %}{% set states = 1 %}{% else %}{% set states = 2 %}{% endif %}{% macro m() %}{{ states }}{% endmacro "
     "%}"},
    {"a macro in a template-level if, after the set in its branch",
     "{% if x %}{% set states = [1] %}{% macro m() %}{{ states | count }}{% endmacro %}{{ m() }}{% endif %}"},
    {"a macro in a macro reading the outer macro's set",
     "{% macro o() %}{% set states = 1 %}{% macro i() %}{{ states }}{% endmacro %}{{ i() }}{% endmacro %}"},
    {"a macro in a macro reading the outer macro's parameter",
     "{% macro o(states) %}{% macro i() %}{{ states | count }}{% endmacro %}{{ i() }}{% endmacro %}"},
    {"a call body reading a template-level set",
     "{% set states = 7 %}{% macro w() %}{{ caller() }}{% endmacro %}{% call w() %}{{ states }}{% endcall %}"},
};

// What the new paths must still refuse, each with the construct it names.
const std::vector<Refused> kScopedRefused = {
    {"if without else", "{% if x %}{% set states = 1 %}{% endif %}{{ states('light.' ~ x) }}", "some branches"},
    {"if and elif without else",
     "{% if a %}{% set states = 1 %}{% elif b %}{% set states = 2 %}{% endif %}{{ states.light | list }}",
     "some branches"},
    {"an elif that does not set it",
     "{% if a %}{% set states = 1 %}{% elif b %}{% else %}{% set states = 2 %}{% endif %}{{ states | count }}",
     "some branches"},
    {"a nested if's one branch",
     "{% if a %}{% if b %}{% set states = 1 %}{% endif %}{% else %}{% set states = 2 %}{% endif %}"
     "{{ states | count }}",
     "some branches"},
    {"a set inside a loop in one branch",
     "{% if a %}{% for i in x %}{% set states = 1 %}{% endfor %}{% else %}{% set states = 2 %}{% endif %}"
     "{{ states | count }}",
     "some branches"},
    {"a for's else does not make the loop's set stay",
     "{% for i in xs %}{% set states = 1 %}{% else %}{% set states = 2 %}{% endfor %}{{ states | count }}",
     "set only later, or in a block"},
    // Jinja 3.1.6 renders HA's states('light.' ~ x) here in the second iteration: the loop sets
    // states back to its outer value (HA's, read before) and ns.m from the first iteration reads it.
    {"a macro defined in a loop, carried out by a namespace",
     "{{ states('light.a') }}{% set ns = namespace(m=none) %}{% for i in [1, 2] %}{% if ns.m %}{{ ns.m() }}"
     "{% endif %}{% set states = 5 %}{% macro m() %}{{ states('light.' ~ x) }}{% endmacro %}{% set ns.m = m %}"
     "{% endfor %}",
     "defined inside a {% for %}"},
    {"a macro in a loop in a template-level if",
     "{% set states = 1 %}{% if c %}{% for i in x %}{% macro m() %}{{ states | count }}{% endmacro %}{% endfor %}"
     "{% endif %}",
     "defined inside a {% for %}"},
    {"a macro in a loop in a macro",
     "{% macro o() %}{% set states = 1 %}{% for i in x %}{% macro i() %}{{ states | count }}{% endmacro %}"
     "{% endfor %}{% endmacro %}",
     "defined inside a {% for %}"},
    {"a call body in a loop",
     "{% set states = 1 %}{% for i in x %}{% call w() %}{{ states | count }}{% endcall %}{% endfor %}",
     "defined inside a {% for %}"},
    {"a macro called before the template sets the name",
     "{% macro m() %}{{ states('light.' ~ x) }}{% endmacro %}{{ m() }}{% set states = 1 %}", "set only later"},
    {"a macro in the other branch",
     "{% if c %}{% set states = 1 %}{% else %}{% macro m() %}{{ states | count }}{% endmacro %}{% endif %}",
     "set only later, or in a block"},
    {"read before the set", "{{ states | count }}{% set states = 3 %}", "set only later"},
    // Smuggling a non-literal id through the new paths: the variable is the template's, its value is not a literal.
    {"HA's function through a branch",
     "{% if c %}{% set f = states %}{% else %}{% set f = 1 %}{% endif %}{{ f('light.' ~ x) }}", ""},
    {"a built id through a branch",
     "{% if c %}{% set e = 'light.kitchen' %}{% else %}{% set e = 'light.' ~ x %}{% endif %}{{ states(e) }}", ""},
    {"a built id through a macro", "{% set e = 'light.' ~ x %}{% macro m() %}{{ states(e) }}{% endmacro %}{{ m() }}",
     ""},
    {"a domain walk through a macro",
     "{% set d = 'light' %}{% macro m() %}{{ states[d] | list }}{% endmacro %}{{ m() }}", ""},
};

// What scoping must not let through: HA's functions wherever the variable is not in effect.
const std::vector<Case> kNotUserVariables = {
    {"read before it is set", "{{ states | count }}{% set states = 3 %}"},
    {"the right-hand side reads HA's", "{% set states = states.light | list %}"},
    {"a loop variable after its loop", "{% for states in [1] %}{% endfor %}{{ states.light | list }}"},
    {"the loop's iterable reads HA's", "{% for states in states.light %}{{ states }}{% endfor %}"},
    {"set in one branch, read in another",
     "{% if x %}{% set states = 1 %}{% else %}{{ states.light | list }}{% endif %}"},
    {"set in a branch, read after it", "{% if x %}{% set states = 1 %}{% endif %}{{ states.light | list }}"},
    {"a loop variable in the loop's else", "{% for states in xs %}{% else %}{{ states.light | list }}{% endfor %}"},
    {"a block set's body reads HA's", "{% set states %}{{ states.light | list }}{% endset %}"},
    {"a macro body sees no set that comes after it",
     "{% macro m() %}{{ states.light | list }}{% endmacro %}{% set states = 1 %}"},
    {"a macro default reads HA's", "{% macro m(x=states.light) %}{{ x }}{% endmacro %}"},
    {"a macro default reads a set that comes after it",
     "{% macro m(x=states.light) %}{{ x }}{% endmacro %}{% set states = 1 %}"},
    {"a filter, with a variable of its name", "{% set states = 1 %}{{ name | states }}"},
    {"a test, with a variable of its name", "{% set is_state = 1 %}{{ x is is_state('on') }}"},
    {"a filter block, with a variable of its name",
     "{% set states = 1 %}{% filter states %}light.{{ x }}{% endfilter %}"},
    {"a keyword argument's value", "{{ dict(a=states.light) }}"},
    {"a with value reads the outer name", "{% with states = states.light %}{{ states | list }}{% endwith %}"},
    {"a set in a loop does not leak", "{% for i in xs %}{% set states = 1 %}{% endfor %}{{ states | count }}"},
    {"a with target ends with its block", "{% with states = 1 %}{% endwith %}{{ states | count }}"},
    {"a keyword argument in an if stores nothing", "{% if f(states=1) %}{{ states | count }}{% endif %}"},
    {"a macro's name before its end", "{% macro states(x) %}{{ states('light.' ~ x) }}{% endmacro %}"},
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
    {"an uppercase attribute id (HA lowercases it)", "{{ states.light.KITCHEN.state }}"},
    {"a mixed-case attribute id", "{{ states.light.Kitchen_light.state }}"},
    {"an uppercase attribute domain", "{{ states.LIGHT.kitchen.state }}"},
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
    // Jinja's map, select, reject, selectattr and rejectattr apply a filter or test named by a string.
    {"map by states on a built id", "{{ ['light.' ~ x] | map('states') | list }}"},
    {"map by state_attr", "{{ ids | map('state_attr', 'brightness') | list }}"},
    {"map by area_entities", "{{ ['kitchen'] | map('area_entities') | list }}"},
    {"select by is_state", "{{ ids | select('is_state', 'on') | list }}"},
    {"reject by has_value", "{{ ids | reject('has_value') | list }}"},
    {"selectattr by is_state", "{{ xs | selectattr('entity_id', 'is_state', 'on') | list }}"},
    {"rejectattr by is_state_attr", "{{ xs | rejectattr('entity_id', 'is_state_attr', 'a', 1) | list }}"},
    {"map by a variable name", "{{ ids | map(f) | list }}"},
    {"selectattr by a variable test", "{{ xs | selectattr('entity_id', t, 'on') | list }}"},
    {"map by glued literals", "{{ ids | map('sta' 'tes') | list }}"},
    {"map by an escaped name", R"({{ ids | map('st\x61tes') | list }})"},
    {"a filter block mapping states", "{% filter map('states') %}x{% endfilter %}"},
};

TEST(TemplateGuardTest, AllowsLiteralReadsAndWordsJinjaNeverEvaluates) {
  for (const Case& c : kAllowed) {
    const auto found = unnamed_entity_access(c.text);
    EXPECT_FALSE(found) << c.why << ": " << c.text << " refused at " << (found ? found->at : "");
  }
}

TEST(TemplateGuardTest, RefusesEveryWayToReachEntitiesOtherThanByALiteralId) {
  for (const Case& c : kRefused) EXPECT_TRUE(unnamed_entity_access(c.text)) << c.why << ": " << c.text;
}

TEST(TemplateGuardTest, TheTemplatesOwnVariablesAreNotHasFunctions) {
  for (const Case& c : kUserVariables) {
    const auto found = unnamed_entity_access(c.text);
    EXPECT_FALSE(found) << c.why << ": " << c.text << " refused at " << (found ? found->at : "");
  }
  for (const Case& c : kNotUserVariables) EXPECT_TRUE(unnamed_entity_access(c.text)) << c.why << ": " << c.text;
}

TEST(TemplateGuardTest, FollowsJinjasScopingOfIfsAndMacroBodies) {
  guard_cases::expect_accepted(kScopedAccepted);
  guard_cases::expect_refused(kScopedRefused);
}

TEST(TemplateGuardTest, NamesWhereItRefused) {
  const auto found = unnamed_entity_access("{{ 'states(' }} {{ expand(x) }}");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->at, "expand(x) }}");
  EXPECT_EQ(found->why, "");
  const auto branch = unnamed_entity_access("{% if c %}{% set states = 1 %}{% endif %}{{ states | count }}");
  ASSERT_TRUE(branch);
  EXPECT_EQ(branch->at, "states | count }}");
  EXPECT_EQ(branch->why.rfind("`states` may be Home Assistant's here", 0), 0U) << branch->why;
  const auto mapped = unnamed_entity_access("{{ ids | map('states') | list }}");
  ASSERT_TRUE(mapped);
  EXPECT_EQ(mapped->at, "map('states') | list }}");
  EXPECT_EQ(mapped->why.rfind("`map` applies a filter or test named by its argument", 0), 0U) << mapped->why;
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
