#pragma once
// Jinja's scoping over the lexer's tokens (jinja_lexer.hpp), for the template
// guard (template_guard.hpp): which names are the template's own variables
// rather than Home Assistant's globals. A user may name a variable like one of
// HA's functions ({% set states = 3 %}, {% for area_name in names %},
// {% macro m(distance) %}); the guard must not take its uses for HA's.
//
// Jinja 3.1 (HA 2026.2 bundles 3.1.6): for, with, filter, set...endset, macro,
// call and block open a scope (what is set inside is gone at their end); if
// does not (a set in a branch stays after endif, but only when that branch
// ran: the name keeps its outer value otherwise, HA's global if it had none).
// A macro or call body is a Python closure: it reads the enclosing frame's
// variable when it is called, not when it is defined; so do its parameters'
// default values, evaluated at each call before the body runs.
//
// A name is the user's when it is stored (a set, for, with or macro target, a
// macro or call parameter, a keyword argument `f(x=1)`, a macro or block
// name) or when it is loaded where such a store is surely in effect:
//  - after the statement that stores it (a set's right-hand side, a for's
//    iterable and with's values still read the outer name), within the block
//    it was stored in;
//  - after an {% if %} whose every branch, an {% else %} included, stored it
//    (stored in some branches only, the name may be HA's after endif);
//  - in a macro or call body and its parameters' defaults: its parameters,
//    and the enclosing frame's names stored before the definition when it is
//    defined at template level or in another macro, call or block body, at
//    most inside {% if %}s and {% with %}s (which run once per run of that
//    frame). Defined inside a for, filter or set...endset, the body sees none
//    of them: Jinja sets a loop's variables back to their outer value at each
//    iteration, so a macro kept from an earlier iteration (a namespace
//    carries it out) can see HA's value before the set runs again;
//  - in a {% block %} body: the names stored at template level (at most
//    inside {% if %}s) before the block, which Jinja keeps in the context the
//    block renders with; a `scoped` block sees the enclosing names, as a
//    with. When the template reads `self`, self.name() can render a block
//    anywhere, before those sets too: the block sees only its own names.
// A name after `|` (a filter), after `is` (a test) or in a {% filter %}
// statement is never a variable: Jinja looks it up among filters and tests.

#include <cstdint>
#include <vector>

#include "tools/gate/jinja_lexer.hpp"

namespace hamcp::tools::jinja {

// Whose a name token is. Only `user` is the template's own; the others say why
// a load of a name the template does store somewhere is HA's at that point.
enum class Owner : std::uint8_t {
  ha,           // Home Assistant's global (or not a variable at all)
  user,         // stored here, or a load of a variable the template set and is in effect
  partial_if,   // set before in only some branches of an {% if %}
  macro_outer,  // in a macro or call body defined inside a for, filter or set...endset
  block_outer,  // in a block body, stored only where the block cannot see it
  elsewhere,    // set later, or only inside a block (or another branch) that has ended
};

// One entry per token.
std::vector<Owner> owners(const std::vector<Token>& tokens);

}  // namespace hamcp::tools::jinja
