#pragma once
// Blueprints as Home Assistant handles them (components/blueprint/models.py,
// errors.py): schema check of a blueprint document, its inputs (sections
// flattened), substitution of !input values into its config, the automations
// and scripts that use one, and the check HA runs on a config's use_blueprint.
// Pure functions over the Home's plain data; callers hold the store's mutex.

#include <optional>
#include <string>
#include <vector>

#include "sim/home/home_model.hpp"

namespace hamcp::sim {

// Blueprint domains HA knows (blueprint/list of another domain answers {}).
bool is_blueprint_domain(std::string_view domain);

// Home::blueprints key.
std::string blueprint_key(std::string_view domain, std::string_view path);

// HA's check of a parsed blueprint document: "Invalid blueprint: ..." or
// "Found incorrect blueprint type ..." (nullopt: valid). `expected_domain` empty: any.
std::optional<std::string> blueprint_problem(const json::value& doc, std::string_view expected_domain);

// The blueprint's declared inputs, sections flattened: name -> definition.
std::map<std::string, json::object> blueprint_inputs(const json::object& metadata);

// HA's substitution of `inputs` (declared defaults fill the gaps) into the
// blueprint's config (everything but its `blueprint:` key). Throws
// std::runtime_error "Missing input a, b" when a required input has no value.
json::object substitute_blueprint(const json::object& data, const json::object& inputs);

// entity ids of the automations (domain "automation") or scripts using `path`.
std::vector<std::string> blueprint_users(const Home& home, std::string_view domain, std::string_view path);

// HA's check of a config that has use_blueprint (nullopt: fine or none):
// "Failed to load blueprint: ..." or "Missing input ...".
std::optional<std::string> use_blueprint_problem(const Home& home, std::string_view domain, const json::object& cfg);

// The demo home's blueprint: HA's own motion-activated light, trimmed.
BlueprintFile demo_motion_light_blueprint();

}  // namespace hamcp::sim
