#pragma once
// Templates under entity visibility (visibility.hpp). A template naming a
// hidden entity literally is refused by the gate like any request; but Jinja
// can build an id at run time (states('light.' ~ name)) or walk every entity
// (states.light, expand(...), area_entities(...)), and what it renders (a
// state, a count) cannot be masked afterwards. So while a visibility filter is
// active, a rendered template may read entities only by literal ids:
// states('light.x'), is_state('light.x', 'on'), state_attr('light.x', 'a'),
// states.light.x. Anything else is refused before it reaches Home Assistant.
// The template's own variables named like HA's functions ({% set states = 3 %},
// loop variables, macro parameters) are not HA's: jinja_scope.hpp.

#include <optional>
#include <string>
#include <string_view>

namespace hamcp::tools {

struct TemplateRefusal {
  std::string at;   // the template from the refused piece on (40 characters at most)
  std::string why;  // when a name is HA's there by Jinja's scoping although the template
                    // sets a variable of that name: the construct (jinja_scope.hpp); else empty
};

// The first piece of `text` that reads entities by a non-literal id or walks
// them (e.g. "states('light.' ~", "states.light |", "expand("); nullopt when
// every entity access names a literal entity id.
std::optional<TemplateRefusal> unnamed_entity_access(std::string_view text);

}  // namespace hamcp::tools
