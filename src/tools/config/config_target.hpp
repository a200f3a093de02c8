#pragma once
// Which automation, script or scene a config tool call is about: the kind
// (from `kind`, from the ha-mcp argument used, or from an entity id's domain)
// and the item, found by entity_id, config id (unique id) or alias in the
// mirror. Also the REST reads/writes of HA's config editor
// (/api/config/<kind>/config/<id>), shared by the get/set/remove tools.

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools::config {

enum class Kind { automation, script, scene };
std::string_view name_of(Kind kind) noexcept;

struct Request {
  Kind kind = Kind::automation;
  std::string ref;        // what the caller named the item by; "" = none
  bool any_kind = false;  // neither kind nor ref given (a listing of every kind)
};

// Kind and reference from the arguments: `kind` + `id`, or ha-mcp's
// `identifier` (automation), `script_id`, `scene_id`. An entity id's domain
// decides when `kind` is absent; with neither, any_kind is set. Throws
// bad_argument for a conflict or a reference whose kind cannot be told.
Request request_of(const Args& args);

struct Target {
  Kind kind = Kind::automation;
  std::string key;        // the config id (scripts: the object id)
  std::string entity_id;  // "" while HA has not created the entity yet
  std::string alias;
};

// Finds an existing item in the snapshot: entity id, config id, then alias
// (case-insensitive). nullopt when nothing matches; throws "ambiguous_alias"
// when an alias names several items.
std::optional<Target> find_target(const ha::Snapshot& snap, Kind kind, std::string_view ref);

// The entity that carries config `key` in the snapshot ("" when none).
std::string entity_of(const ha::Snapshot& snap, Kind kind, std::string_view key);

// "config_not_found" naming the kind and ref, with the nearest items.
ToolError not_found(const ToolEnv& env, const ha::Snapshot& snap, Kind kind, std::string_view ref);

// The stored config, or nullopt when HA has none under `key` (404, or 400 for a malformed key).
boost::asio::awaitable<std::optional<json::value>> read_config(ToolEnv& env, Kind kind, std::string key);

// The item for a call on an existing config: found in the mirror, or a key
// HA's config editor knows although the mirror has no entity for it yet.
// Throws not_found.
boost::asio::awaitable<Target> require_target(ToolEnv& env, const ha::Snapshot& snap, const Request& request);

// "/api/config/<kind>/config/<key>" (key percent-encoded).
std::string config_path(Kind kind, std::string_view key);

}  // namespace hamcp::tools::config
