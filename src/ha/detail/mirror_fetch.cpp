#include "ha/detail/mirror_fetch.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/array.hpp>
#include <chrono>
#include <exception>
#include <string>
#include <vector>

#include "common/elapsed.hpp"
#include "ha/errors.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha::detail {
namespace asio = boost::asio;
namespace json = boost::json;

using common::elapsed_ms;

namespace {
// Category scopes the HA frontend uses.
constexpr std::array<const char*, 4> kCategoryScopes = {"automation", "script", "scene", "helpers"};

// Runs op and stores its result in out (which outlives the awaiting group).
template <typename T>
asio::awaitable<void> store_into(asio::awaitable<T> op, T& out) {
  out = co_await std::move(op);
}
}  // namespace

bool unsupported(const HaError& e) {
  return e.cause == ErrorCause::command_failed &&
         (e.ha_code == "unknown_command" || e.ha_code == "not_found" || e.ha_code == "invalid_format");
}

asio::awaitable<json::array> MirrorFetch::category_items() {
  const auto sent = std::chrono::steady_clock::now();
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
  spdlog::debug("ha mirror: category registry answered in {} ms", elapsed_ms(sent, std::chrono::steady_clock::now()));
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
      RegistryPtr streamed = co_await list_registry(kind);
      if (streamed) co_return FetchedRegistry{kind, std::move(streamed), true};
    }
  } catch (const HaException& e) {
    if (!unsupported(e.error())) throw;
    available = false;  // e.g. floors/labels/categories before HA 2024.4
    items.clear();
  }
  auto reg = Registry::make(kind, std::move(items), available);
  co_return FetchedRegistry{kind, std::move(reg), available};
}

// The list is read from the frame's text item by item: a 100k-entity registry
// as one DOM set the sync's memory peak. It is decoded here, on the mirror's
// strand, as the DOM was converted before. (Handing it to a worker thread
// passed the strand's executor across threads, whose reference count Asio
// orders with a fence that ThreadSanitizer cannot see.) A result that is not
// an array: nullptr (an empty registry, as before); a malformed one fails the
// sync.
asio::awaitable<RegistryPtr> MirrorFetch::list_registry(RegistryKind kind) {
  json::object cmd;
  cmd["type"] = "config/" + std::string(to_string(kind)) + "_registry/list";
  const auto sent = std::chrono::steady_clock::now();
  RawResult raw = co_await ws_.command_raw(std::move(cmd), timeout_);
  const auto arrived = std::chrono::steady_clock::now();
  boost::system::error_code ec;
  RegistryPtr reg = Registry::make_from_text(kind, raw.text, ec);
  // Where a big home's sync time goes: Home Assistant's answer, or the decode here.
  spdlog::debug("ha mirror: {} registry: {} bytes answered in {} ms, decoded in {} ms", to_string(kind),
                raw.text.size(), elapsed_ms(sent, arrived), elapsed_ms(arrived, std::chrono::steady_clock::now()));
  if (ec && raw.text.substr(0, 1) == "[") {
    throw HaException(make_error(ErrorCause::protocol_error, "",
                                 "Home Assistant's " + std::string(to_string(kind)) +
                                     " registry list is not valid JSON (" + ec.message() + ")"));
  }
  co_return reg;
}

asio::awaitable<std::shared_ptr<const json::object>> MirrorFetch::object_command(const char* type) {
  json::object cmd;
  cmd["type"] = type;
  const auto sent = std::chrono::steady_clock::now();
  json::value r = co_await ws_.command(std::move(cmd), timeout_);
  spdlog::debug("ha mirror: {} answered in {} ms", type, elapsed_ms(sent, std::chrono::steady_clock::now()));
  co_return std::make_shared<const json::object>(r.is_object() ? std::move(r.as_object()) : json::object{});
}

asio::awaitable<std::shared_ptr<const json::object>> MirrorFetch::config() { return object_command("get_config"); }

asio::awaitable<std::shared_ptr<const json::object>> MirrorFetch::services() { return object_command("get_services"); }

asio::awaitable<FetchedAll> MirrorFetch::all() {
  FetchedAll out;
  out.registries.resize(kRegistryKinds);
  const auto ex = co_await asio::this_coro::executor;
  using Op = decltype(asio::co_spawn(ex, std::declval<asio::awaitable<void>>(), asio::deferred));
  std::vector<Op> ops;
  ops.push_back(asio::co_spawn(ex, store_into(config(), out.config), asio::deferred));
  ops.push_back(asio::co_spawn(ex, store_into(services(), out.services), asio::deferred));
  // Sent in this order, answered in this order: the entity registry (the
  // biggest list) last, so HA builds it while the device list is decoded
  // here, and the two big texts are not held at once.
  for (RegistryKind kind : {RegistryKind::device, RegistryKind::area, RegistryKind::floor, RegistryKind::label,
                            RegistryKind::category, RegistryKind::entity}) {
    auto op = registry(kind);
    auto& into = out.registries[static_cast<std::size_t>(kind)];
    ops.push_back(asio::co_spawn(ex, store_into(std::move(op), into), asio::deferred));
  }
  auto group = asio::experimental::make_parallel_group(std::move(ops));
  auto waited = group.async_wait(asio::experimental::wait_for_all(), asio::use_awaitable);
  auto [order, errors] = co_await std::move(waited);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  co_return out;
}

void MirrorFetch::install(Snapshot& s, const FetchedRegistry& f) {
  s.registries[static_cast<std::size_t>(f.kind)] = f.registry;
  s.capabilities.registries[static_cast<std::size_t>(f.kind)] = f.available;
}

}  // namespace hamcp::ha::detail
