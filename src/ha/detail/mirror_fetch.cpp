#include "ha/detail/mirror_fetch.hpp"

#include <array>
#include <boost/json/array.hpp>
#include <string>

#include "ha/errors.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha::detail {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {
// Category scopes the HA frontend uses.
constexpr std::array<const char*, 4> kCategoryScopes = {"automation", "script", "scene", "helpers"};
}  // namespace

bool unsupported(const HaError& e) {
  return e.cause == ErrorCause::command_failed &&
         (e.ha_code == "unknown_command" || e.ha_code == "not_found" || e.ha_code == "invalid_format");
}

asio::awaitable<json::array> MirrorFetch::category_items() {
  json::array items;
  for (const char* scope : kCategoryScopes) {
    json::object cmd;
    cmd["type"] = "config/category_registry/list";
    cmd["scope"] = scope;
    json::value r = co_await ws_.command(std::move(cmd), timeout_);
    if (!r.is_array()) continue;
    for (auto& item : r.as_array()) {
      if (auto* o = item.if_object()) (*o)["scope"] = scope;
      items.push_back(std::move(item));
    }
  }
  co_return items;
}

asio::awaitable<FetchedRegistry> MirrorFetch::registry(RegistryKind kind) {
  json::array items;
  bool available = true;
  try {
    if (kind == RegistryKind::category) {
      json::array got = co_await category_items();
      items = std::move(got);
    } else {
      json::object cmd;
      cmd["type"] = "config/" + std::string(to_string(kind)) + "_registry/list";
      json::value r = co_await ws_.command(std::move(cmd), timeout_);
      if (r.is_array()) items = std::move(r.as_array());
    }
  } catch (const HaException& e) {
    if (!unsupported(e.error())) throw;
    available = false;  // e.g. floors/labels/categories before HA 2024.4
    items.clear();
  }
  auto reg = Registry::make(kind, std::move(items), available);
  co_return FetchedRegistry{kind, std::move(reg), available};
}

asio::awaitable<std::shared_ptr<const json::object>> MirrorFetch::object_command(const char* type) {
  json::object cmd;
  cmd["type"] = type;
  json::value r = co_await ws_.command(std::move(cmd), timeout_);
  co_return std::make_shared<const json::object>(r.is_object() ? std::move(r.as_object()) : json::object{});
}

asio::awaitable<std::shared_ptr<const json::object>> MirrorFetch::config() { return object_command("get_config"); }

asio::awaitable<std::shared_ptr<const json::object>> MirrorFetch::services() { return object_command("get_services"); }

void MirrorFetch::install(Snapshot& s, const FetchedRegistry& f) {
  s.registries[static_cast<std::size_t>(f.kind)] = f.registry;
  s.capabilities.registries[static_cast<std::size_t>(f.kind)] = f.available;
}

}  // namespace hamcp::ha::detail
