#pragma once
// A small, honest subset of Home Assistant's Jinja templates, enough for the
// calls clients make to probe state. Supported inside {{ … }}:
//   literals (strings, numbers, true/false/none, [lists]), variables,
//   states('x.y'), states.x.y(.state|.attributes.k|.name|.entity_id), state_attr('x.y','k'),
//   is_state('x.y','v'), is_state_attr('x.y','k','v'), has_value('x.y'),
//   area_name('x.y'|area_id), area_id('x.y'|name), area_entities('area'), floor_name/floor_id,
//   label_entities('label'), device_id('x.y'), now(), utcnow(), as_timestamp(x), int(x), float(x),
//   + - * / comparisons (== != < > <= >=), and/or/not, ( ), x.y attribute access, x['k'],
//   filters: int float round(n) lower upper title trim length count default(v) string join(s) abs list
// Everything else (statements {% … %}, other functions/filters) is rejected
// with a TemplateError, as HA rejects an invalid template.

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/state_store.hpp"

namespace hamcp::sim {

struct TemplateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct TemplateResult {
  std::string text;                   // the rendered text (REST /api/template)
  json::value value;                  // parsed like HA's parse_result (WS render_template)
  std::vector<std::string> entities;  // entities the template read (listeners)
  bool all_states = false;
  bool time = false;
};

// Renders under the store's lock. Throws TemplateError.
TemplateResult render_template(StateStore& store, const std::string& source, const json::object& variables);

}  // namespace hamcp::sim
