#include "tools/config/config_target.hpp"

#include <boost/json/parse.hpp>
#include <cctype>

#include "common/ascii.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::config {

namespace {

std::optional<Kind> kind_named(std::string_view name) {
  if (name == "automation") return Kind::automation;
  if (name == "script") return Kind::script;
  if (name == "scene") return Kind::scene;
  return std::nullopt;
}

bool is_entity_of(std::string_view ref, Kind kind) {
  const std::string prefix = std::string(name_of(kind)) + ".";
  return ref.size() > prefix.size() && ref.substr(0, prefix.size()) == prefix;
}

std::string registry_unique_id(const ha::Snapshot& snap, const std::string& entity_id) {
  ha::RegistryItem e = snap.registry(ha::RegistryKind::entity).find(entity_id);
  if (!e) return {};
  const json::value* u = e->if_contains("unique_id");
  return u && u->is_string() ? std::string(u->get_string()) : std::string();
}

// The config key of an existing entity of `kind`.
std::string key_of(const ha::Snapshot& snap, Kind kind, const ha::EntityState& s) {
  if (kind != Kind::script) {
    std::string id = s.attributes.string_of("id");
    return id.empty() ? registry_unique_id(snap, s.entity_id) : id;
  }
  std::string unique = registry_unique_id(snap, s.entity_id);
  return unique.empty() ? s.entity_id.substr(7) : unique;
}

void percent_encode(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0x0f];
    }
  }
}

}  // namespace

std::string_view name_of(Kind kind) noexcept {
  switch (kind) {
    case Kind::automation:
      return "automation";
    case Kind::script:
      return "script";
    case Kind::scene:
      return "scene";
  }
  return "automation";
}

Request request_of(const Args& args) {
  struct Source {
    const char* arg;
    std::optional<Kind> kind;
  };
  static const Source kSources[] = {
      {"id", std::nullopt}, {"identifier", Kind::automation}, {"script_id", Kind::script}, {"scene_id", Kind::scene}};
  Request r;
  std::optional<Kind> implied;
  const char* used = nullptr;
  for (const Source& s : kSources) {
    std::optional<std::string> v = args.opt_str(s.arg);
    if (!v || v->empty()) continue;
    if (used)
      throw ToolException(
          bad_argument(s.arg, std::string("given together with ") + used, "Name the item once, in `id`."));
    used = s.arg;
    r.ref = *v;
    implied = s.kind;
  }
  const std::optional<std::string> kind_arg = args.opt_str("kind");
  std::optional<Kind> kind = kind_arg ? kind_named(*kind_arg) : std::nullopt;
  if (kind_arg && !kind)
    throw ToolException(bad_argument("kind", "must be automation, script or scene", "Pass kind: \"automation\"."));
  if (!implied) {
    const auto dot = r.ref.find('.');
    if (dot != std::string::npos) implied = kind_named(std::string_view(r.ref).substr(0, dot));
  }
  if (kind && implied && *kind != *implied && is_entity_of(r.ref, *implied))
    throw ToolException(bad_argument("kind", std::string(name_of(*kind)) + " does not match " + r.ref,
                                     "Drop `kind` or pass the matching one."));
  if (!kind) kind = implied;
  if (!kind && r.ref.empty()) {
    r.any_kind = true;
    return r;
  }
  if (!kind)
    throw ToolException(bad_argument("kind", "missing", "Pass kind (automation, script or scene) or an entity id."));
  r.kind = *kind;
  return r;
}

std::string entity_of(const ha::Snapshot& snap, Kind kind, std::string_view key) {
  if (kind == Kind::script && snap.states.find("script." + std::string(key))) {
    const std::string eid = "script." + std::string(key);
    const std::string unique = registry_unique_id(snap, eid);
    if (unique.empty() || unique == key) return eid;
  }
  const std::string prefix = std::string(name_of(kind)) + ".";
  std::string found;
  snap.states.for_each([&](const ha::EntityStatePtr& s) {
    if (!found.empty() || s->entity_id.compare(0, prefix.size(), prefix) != 0) return;
    if (key_of(snap, kind, *s) == key) found = s->entity_id;
  });
  return found;
}

std::optional<Target> find_target(const ha::Snapshot& snap, Kind kind, std::string_view ref) {
  if (ref.empty()) return std::nullopt;
  if (is_entity_of(ref, kind)) {
    ha::EntityStatePtr s = snap.states.find(ref);
    if (!s) return std::nullopt;
    return Target{kind, key_of(snap, kind, *s), s->entity_id, s->attributes.string_of("friendly_name")};
  }
  if (std::string eid = entity_of(snap, kind, ref); !eid.empty()) {
    ha::EntityStatePtr s = snap.states.find(eid);
    return Target{kind, std::string(ref), eid, s ? s->attributes.string_of("friendly_name") : std::string()};
  }
  const std::string wanted = ascii_lower(ref);
  const std::string prefix = std::string(name_of(kind)) + ".";
  std::vector<Target> matches;
  snap.states.for_each([&](const ha::EntityStatePtr& s) {
    if (s->entity_id.compare(0, prefix.size(), prefix) != 0) return;
    std::string alias = s->attributes.string_of("friendly_name");
    if (ascii_lower(alias) == wanted) matches.push_back(Target{kind, key_of(snap, kind, *s), s->entity_id, alias});
  });
  if (matches.size() > 1) {
    json::array ids;
    for (const auto& m : matches) ids.emplace_back(m.entity_id);
    throw ToolException(ToolError{"ambiguous_alias",
                                  "\"" + std::string(ref) + "\" is the name of " + std::to_string(matches.size()) +
                                      " " + std::string(name_of(kind)) + "s.",
                                  "Pass one of their entity ids instead.",
                                  {{"matches", std::move(ids)}}});
  }
  if (matches.empty()) return std::nullopt;
  return matches.front();
}

ToolError not_found(const ToolEnv& env, const ha::Snapshot& snap, Kind kind, std::string_view ref) {
  const std::string prefix = std::string(name_of(kind)) + ".";
  json::array near;
  for (const json::value& id : nearest_entities(env.index, ref, 20))
    if (id.is_string() && id.get_string().starts_with(prefix) && near.size() < 5) near.push_back(id);
  if (near.empty())
    snap.states.for_each([&](const ha::EntityStatePtr& s) {
      if (near.size() < 5 && s->entity_id.compare(0, prefix.size(), prefix) == 0) near.emplace_back(s->entity_id);
    });
  return ToolError{"config_not_found",
                   "No " + std::string(name_of(kind)) + " \"" + std::string(ref) +
                       "\" (looked for an entity id, a config id and an alias).",
                   "Pass one of the suggestions, or find it with ha_search.",
                   {{"suggestions", std::move(near)}}};
}

std::string config_path(Kind kind, std::string_view key) {
  std::string path = "/api/config/" + std::string(name_of(kind)) + "/config/";
  percent_encode(key, path);
  return path;
}

boost::asio::awaitable<std::optional<json::value>> read_config(ToolEnv& env, Kind kind, std::string key) {
  std::string path = config_path(kind, key);
  auto reading = env.ha.rest_get(std::move(path));  // named: GCC 12 coroutine temporaries
  ha::Response r = co_await std::move(reading);
  if (r.status == 404 || r.status == 400) co_return std::nullopt;  // 400: a key HA cannot hold ("Key malformed")
  if (!r.ok()) throw_http_failure(r.status, r.body);
  co_return r.json();
}

boost::asio::awaitable<Target> require_target(ToolEnv& env, const ha::Snapshot& snap, const Request& request) {
  if (request.ref.empty())
    throw ToolException(bad_argument("id", "missing", "Pass the entity id, config id or alias of the item."));
  if (std::optional<Target> t = find_target(snap, request.kind, request.ref)) co_return *t;
  // Written a moment ago: HA's config editor has it before the entity exists.
  if (!is_entity_of(request.ref, request.kind)) {
    std::string key = request.ref;
    auto reading = read_config(env, request.kind, std::move(key));
    std::optional<json::value> stored = co_await std::move(reading);
    if (stored) co_return Target{request.kind, request.ref, {}, {}};
  }
  throw ToolException(not_found(env, snap, request.kind, request.ref));
}

}  // namespace hamcp::tools::config
