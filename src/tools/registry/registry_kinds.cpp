#include "tools/registry/registry_kinds.hpp"

#include <algorithm>
#include <array>

#include "common/ascii.hpp"
#include "home/entity_docs.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/write_outcome.hpp"

namespace hamcp::tools::registry {

namespace {

constexpr std::array<KindInfo, 7> kKinds = {{
    {Kind::device, "device", ha::RegistryKind::device, "id", "config/device_registry", "device_id"},
    {Kind::area, "area", ha::RegistryKind::area, "area_id", "config/area_registry", "area_id"},
    {Kind::floor, "floor", ha::RegistryKind::floor, "floor_id", "config/floor_registry", "floor_id"},
    {Kind::label, "label", ha::RegistryKind::label, "label_id", "config/label_registry", "label_id"},
    {Kind::category, "category", ha::RegistryKind::category, "category_id", "config/category_registry", "category_id"},
    {Kind::zone, "zone", std::nullopt, "id", "zone", "zone_id"},
    {Kind::exposure, "exposure", std::nullopt, "entity_id", "homeassistant/expose_entity", "entity_id"},
}};

// The category scopes HA's frontend uses (the mirror lists these too).
constexpr std::array<const char*, 4> kScopes = {"automation", "script", "scene", "helpers"};

boost::asio::awaitable<std::vector<json::object>> ws_list(ToolEnv& env, Kind kind, const std::string& scope) {
  std::vector<json::object> out;
  std::vector<std::string> scopes;
  if (kind == Kind::category) {
    if (!scope.empty()) scopes.push_back(scope);
    if (scope.empty())
      for (const char* s : kScopes) scopes.emplace_back(s);
  } else {
    scopes.emplace_back();
  }
  for (const std::string& s : scopes) {
    json::object msg{{"type", std::string(info(kind).prefix) + "/list"}};
    if (kind == Kind::category) msg["scope"] = s;
    auto reading = helpers::ws_read(env, std::move(msg));  // named: GCC 12 coroutine temporaries
    json::value r = co_await std::move(reading);
    if (!r.is_array()) continue;
    for (auto& v : r.as_array()) {
      if (!v.is_object()) continue;
      if (kind == Kind::category) v.as_object()["scope"] = s;
      out.push_back(std::move(v.as_object()));
    }
  }
  co_return out;
}

}  // namespace

const KindInfo& info(Kind kind) { return kKinds[static_cast<std::size_t>(kind)]; }

Kind kind_of(const Args& args, const std::vector<Kind>& allowed) {
  const std::string wanted = args.str("kind");
  std::string names;
  for (const KindInfo& k : kKinds) {
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), k.kind) == allowed.end()) continue;
    if (k.name == wanted) return k.kind;
    names += (names.empty() ? "" : ", ") + std::string(k.name);
  }
  const std::string extra = wanted == "exposure" ? " To expose entities use ha_set_entity expose={...}." : "";
  throw ToolException(bad_argument("kind", wanted.empty() ? "missing" : "'" + wanted + "' is not allowed here",
                                   "Use one of: " + names + "." + extra));
}

std::string name_of_item(const json::object& item, Kind kind) {
  if (kind == Kind::device) {
    const std::string by_user = home::str_of(&item, "name_by_user");
    if (!by_user.empty()) return by_user;
  }
  return home::str_of(&item, "name");
}

std::string key_of(const json::object& item, Kind kind) { return home::str_of(&item, info(kind).key); }

boost::asio::awaitable<std::vector<json::object>> list_items(ToolEnv& env, const ha::Snapshot& snap, Kind kind,
                                                             std::string scope) {
  const KindInfo& k = info(kind);
  const bool mirrored = k.mirror && snap.capabilities.registries[static_cast<std::size_t>(*k.mirror)] &&
                        snap.registry(*k.mirror).available;
  if (!mirrored) {
    auto listing = ws_list(env, kind, scope);  // named: GCC 12 coroutine temporaries
    std::vector<json::object> got = co_await std::move(listing);
    co_return got;
  }
  std::vector<json::object> out;
  snap.registry(*k.mirror).for_each([&](const json::value& v) {
    const json::object* o = v.if_object();
    if (!o || (!scope.empty() && home::str_of(o, "scope") != scope)) return;
    out.emplace_back(*o, json::storage_ptr());  // a deep copy: the walk's arena dies with the call
  });
  co_return out;
}

const json::object* find_item(const std::vector<json::object>& items, Kind kind, std::string_view ref) {
  for (const auto& item : items)
    if (key_of(item, kind) == ref) return &item;
  const std::string wanted = ascii_lower(ref);
  for (const auto& item : items)
    if (ascii_lower(name_of_item(item, kind)) == wanted) return &item;
  return nullptr;
}

ToolError not_found(Kind kind, std::string_view ref, const std::vector<json::object>& items) {
  json::array known;
  for (const auto& item : items) {
    if (known.size() >= 10) break;
    known.emplace_back(name_of_item(item, kind) + " (" + key_of(item, kind) + ")");
  }
  const std::string name(info(kind).name);
  return ToolError{name + "_not_found",
                   "No " + name + " '" + std::string(ref) + "'.",
                   "List them with ha_get_registry kind=" + name + " and use an id or exact name.",
                   {{"known", std::move(known)}}};
}

boost::asio::awaitable<json::value> write(ToolEnv& env, json::object message) {
  ha::HaError failure;
  try {
    auto sending = env.ha.command(std::move(message));  // never retried
    json::value result = co_await std::move(sending);
    co_return result;
  } catch (const ha::HaException& e) {
    failure = e.error();
  }
  if (outcome_unknown(failure))
    throw ToolException(
        unknown_outcome(failure, "the registry write", "Check with ha_get_registry before calling again."));
  ToolError err = from_ha_error(failure);
  err.message += " Nothing was written.";
  err.extra["written"] = false;
  throw ToolException(std::move(err));
}

boost::asio::awaitable<json::object> wait_mirror(ToolEnv& env, Kind kind, std::string key, const json::object& expect,
                                                 bool gone) {
  const KindInfo& k = info(kind);
  if (!k.mirror) co_return json::object{};
  const ha::RegistryKind reg = *k.mirror;
  auto done = [reg, key, expect, gone](const ha::Snapshot& snap) {
    const ha::RegistryItem item = snap.registry(reg).find(key);
    if (gone) return !item;
    if (!item) return false;
    for (const auto& kv : expect) {
      const json::value* have = item->if_contains(kv.key());
      if (!have || *have != kv.value()) return false;
    }
    return true;
  };
  auto waiting = helpers::wait_for(env, done, env.options.default_wait);
  json::object report = co_await std::move(waiting);
  co_return report;
}

}  // namespace hamcp::tools::registry
