#pragma once
// Jinja's scoping over the lexer's tokens (jinja_lexer.hpp), for the template
// guard (template_guard.hpp): which names are the template's own variables
// rather than Home Assistant's globals. A user may name a variable like one of
// HA's functions ({% set states = 3 %}, {% for area_name in names %},
// {% macro m(distance) %}); the guard must not take its uses for HA's.
//
// A name is the user's when it is stored (a set, for, with or macro target, a
// macro or call parameter, a keyword argument `f(x=1)`, a macro or block
// name) or when it is loaded where such a store is surely in effect:
//  - after the statement that stores it (a set's right-hand side, a for's
//    iterable and with's values still read the outer name), within the block
//    it was stored in (for, with, filter, set...endset, macro and call bodies
//    do not leak; a set inside if/elif/else is dropped at the next branch and
//    at endif, as the branch may not have run);
//  - macro, call and block bodies start with no user names (conservative:
//    what they see of the outer template depends on where they are called).
// A name after `|` (a filter), after `is` (a test) or in a {% filter %}
// statement is never a variable: Jinja looks it up among filters and tests.

#include <vector>

#include "tools/gate/jinja_lexer.hpp"

namespace hamcp::tools::jinja {

// One flag per token: true for a name token that is the template's own
// (stored, or a load of a variable the template set); false otherwise.
std::vector<bool> user_names(const std::vector<Token>& tokens);

}  // namespace hamcp::tools::jinja
