// The template guard (tools/gate/template_guard.hpp) on Jinja's frames beyond
// if and macro bodies: a macro's default values, {% block %} bodies, and
// macros defined inside a {% with %}. Each accepted template renders the
// template's own value under Jinja 3.1.6 (HA 2026.2.3's); each refused one
// reaches Home Assistant's function in Jinja 3.1.6 (or builds the id at run
// time), and names the construct where scoping is the reason.

#include <gtest/gtest.h>

#include <vector>

#include "unit/tools/template_guard_cases.hpp"

namespace hamcp::tools {
namespace {

using guard_cases::Case;
using guard_cases::Refused;

const std::vector<Case> kAccepted = {
    // A default is evaluated in the macro's frame at each call: it sees the
    // parameters and what the body sees.
    {"a default reading an earlier parameter", "{% macro m(states, n=states | count) %}{{ n }}{% endmacro %}"},
    {"a default reading a template-level set",
     "{% set states = [1] %}{% macro m(n=states | count) %}{{ n }}{% endmacro %}{{ m() }}"},
    {"a default reading the outer macro's parameter",
     "{% macro o(area_name) %}{% macro i(x=area_name) %}{{ x }}{% endmacro %}{{ i() }}{% endmacro %}"},
    {"a call block parameter's default",
     "{% set states = 2 %}{% macro w() %}{{ caller() }}{% endmacro %}{% call(n=states) w() %}{{ n }}{% endcall %}"},
    {"a default in a macro in a with",
     "{% set states = [1] %}{% with a = 1 %}{% macro m(n=states | count) %}{{ n }}{% endmacro %}{{ m() }}"
     "{% endwith %}"},
    // A block renders with the template's context: the template-level sets before it.
    {"a block reading a template-level set", "{% set states = [1] %}{% block b %}{{ states | count }}{% endblock %}"},
    {"a block in a template-level if, after the set in its branch",
     "{% if x %}{% set states = [1] %}{% block b %}{{ states | count }}{% endblock %}{% endif %}"},
    {"a block after an if setting it in every branch",
     "{% if x %}{% set states = [1] %}{% else %}{% set states = [1, 2] %}{% endif %}{% block b %}{{ states | count }}"
     "{% endblock %}"},
    {"a block in a loop reading a template-level set",
     "{% set states = [1] %}{% for i in xs %}{% block b %}{{ states | count }}{% endblock %}{% endfor %}"},
    {"a block in a block",
     "{% set states = [1] %}{% block a %}{% block b %}{{ states | count }}{% endblock %}{% endblock %}"},
    {"a block in a macro",
     "{% set states = [1] %}{% macro m() %}{% block b %}{{ states | count }}{% endblock %}{% endmacro %}"},
    {"a block's own set", "{% block b %}{% set states = [1] %}{{ states | count }}{% endblock %}"},
    {"a scoped block in a loop reading the loop's set",
     "{% for i in xs %}{% set states = [i] %}{% block b scoped %}{{ states | count }}{% endblock %}{% endfor %}"},
    {"a macro in a block",
     "{% set states = [1] %}{% block b %}{% macro m() %}{{ states | count }}{% endmacro %}{{ m() }}{% endblock %}"},
    // A template-level with (or one in a macro) runs once per run of its frame.
    {"a macro in a with reading a template-level set",
     "{% set states = [1] %}{% with a = 1 %}{% macro m() %}{{ states | count }}{% endmacro %}{{ m() }}{% endwith %}"},
    {"a macro in a with reading its target",
     "{% with states = [1] %}{% macro m() %}{{ states | count }}{% endmacro %}{{ m() }}{% endwith %}"},
    {"a macro in nested withs reading a set in the outer one",
     "{% with a = 1 %}{% set states = [1] %}{% with b = 2 %}{% macro m() %}{{ states | count }}{% endmacro %}"
     "{{ m() }}{% endwith %}{% endwith %}"},
    {"a macro in a with in a template-level if",
     "{% if x %}{% with a = 1 %}{% set states = [1] %}{% macro m() %}{{ states | count }}{% endmacro %}{{ m() }}"
     "{% endwith %}{% endif %}"},
    {"a macro in a with in a macro",
     "{% macro o() %}{% with states = [1] %}{% macro i() %}{{ states | count }}{% endmacro %}{{ i() }}{% endwith %}"
     "{% endmacro %}"},
};

const std::vector<Refused> kRefused = {
    {"a default after an if without else",
     "{% if c %}{% set states = 1 %}{% endif %}{% macro m(n=states('light.' ~ x)) %}{{ n }}{% endmacro %}",
     "some branches"},
    {"a default called before the template sets the name",
     "{{ states('light.a') }}{% macro m(n=states('light.' ~ x)) %}{{ n }}{% endmacro %}{{ m() }}{% set states = 1 %}",
     "set only later"},
    {"a default reading the body's own set",
     "{% macro m(n=states('light.' ~ x)) %}{% set states = 1 %}{{ n }}{% endmacro %}", "set only later"},
    {"a default in a macro defined in a loop",
     "{% set ns = namespace(m=none) %}{% for i in [1, 2] %}{% if ns.m %}{{ ns.m() }}{% endif %}{% set states = 5 %}"
     "{% macro m(n=states('light.' ~ x)) %}{{ n }}{% endmacro %}{% set ns.m = m %}{% endfor %}",
     "defined inside a {% for %}"},
    {"a block before the template sets the name",
     "{% block b %}{{ states('light.' ~ x) }}{% endblock %}{% set states = 1 %}", "set only later"},
    {"a block after an if without else",
     "{% if c %}{% set states = 1 %}{% endif %}{% block b %}{{ states('light.' ~ x) }}{% endblock %}", "some branches"},
    {"a block reading its loop's set",
     "{% for i in xs %}{% set states = 1 %}{% block b %}{{ states('light.' ~ x) }}{% endblock %}{% endfor %}",
     "in this {% block %}"},
    {"a block reading a with target",
     "{% with states = 1 %}{% block b %}{{ states('light.' ~ x) }}{% endblock %}{% endwith %}", "in this {% block %}"},
    {"a block reading its macro's parameter",
     "{% macro m(states) %}{% block b %}{{ states('light.' ~ x) }}{% endblock %}{% endmacro %}", "in this {% block %}"},
    // self.b() renders the block where it stands, before the set too.
    {"a block when the template uses self",
     "{{ self.b() }}{% macro states(e) %}u{% endmacro %}{% block b %}{{ states('light.' ~ x) }}{% endblock %}",
     "uses `self`"},
    {"a scoped block when the template uses self",
     "{% for i in xs %}{% macro states(e) %}u{% endmacro %}{% block b scoped %}{{ states('light.' ~ x) }}"
     "{% endblock %}{% endfor %}{{ self.b() }}",
     "uses `self`"},
    {"a macro in a with in a loop, carried out by a namespace",
     "{{ states('light.a') }}{% set ns = namespace(m=none) %}{% for i in [1, 2] %}{% if ns.m %}{{ ns.m() }}{% endif %}"
     "{% set states = 5 %}{% with %}{% macro m() %}{{ states('light.' ~ x) }}{% endmacro %}{% set ns.m = m %}"
     "{% endwith %}{% endfor %}",
     "defined inside a {% for %}"},
    {"a macro in a with called before the with's set",
     "{% with a = 1 %}{% macro m() %}{{ states('light.' ~ x) }}{% endmacro %}{{ m() }}{% set states = 1 %}"
     "{% endwith %}",
     "set only later"},
    // Smuggling a built id through the new paths: the variable is the template's, its value is no literal.
    {"a built id as a default", "{% macro m(e='light.' ~ x) %}{{ states(e) }}{% endmacro %}{{ m() }}", ""},
    {"a built id in a default's call", "{% macro m(n=states('light.' ~ x)) %}{{ n }}{% endmacro %}", ""},
    {"a built id through a block", "{% set e = 'light.' ~ x %}{% block b %}{{ states(e) }}{% endblock %}", ""},
    {"a domain walk through a block", "{% set d = 'light' %}{% block b %}{{ states[d] | list }}{% endblock %}", ""},
    {"a built id through a macro in a with",
     "{% with e = 'light.' ~ x %}{% macro m() %}{{ states(e) }}{% endmacro %}{{ m() }}{% endwith %}", ""},
    {"HA's function as a default", "{% macro m(f=states) %}{{ f('light.' ~ x) }}{% endmacro %}", ""},
};

TEST(TemplateGuardFramesTest, AcceptsWhatJinjaScopesToTheTemplatesOwnVariables) {
  guard_cases::expect_accepted(kAccepted);
}

TEST(TemplateGuardFramesTest, RefusesWhereHomeAssistantsFunctionOrABuiltIdCanBeReached) {
  guard_cases::expect_refused(kRefused);
}

}  // namespace
}  // namespace hamcp::tools
