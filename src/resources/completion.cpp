// completion/complete for the templates' variables (entity_id, area_id,
// floor_id, device_id): ids from the live mirror, best first: the id starts
// with the typed text, then a word of it (object id, name) does, then the text
// occurs anywhere, then its letters occur in order (a typo-tolerant "lkit" ->
// light.kitchen). At most 100 values; total counts every match.
#include <algorithm>

#include "common/ascii.hpp"
#include "resources/resource_kinds.hpp"

namespace hamcp::resources {

namespace {

constexpr std::size_t kMaxValues = 100;

struct Candidate {
  std::string id;
  std::string name;  // lower case; may be empty
};

bool in_order(std::string_view letters, std::string_view text) {
  std::size_t at = 0;
  for (char c : letters) {
    at = text.find(c, at);
    if (at == std::string_view::npos) return false;
    ++at;
  }
  return true;
}

// 0 best .. 3 worst; -1 no match. `typed` is lower case.
int rank(const Candidate& c, std::string_view typed) {
  const std::string id = ascii_lower(c.id);
  if (id.rfind(typed, 0) == 0) return 0;
  const std::size_t dot = id.find('.');
  const bool object_id_starts = dot != std::string::npos && id.compare(dot + 1, typed.size(), typed) == 0;
  if (object_id_starts || (!c.name.empty() && c.name.rfind(typed, 0) == 0)) return 1;
  if (id.find(typed) != std::string::npos || c.name.find(typed) != std::string::npos) return 2;
  if (in_order(typed, id)) return 3;
  return -1;
}

std::vector<Candidate> registry_candidates(const ha::Snapshot& snap, ha::RegistryKind kind) {
  std::vector<Candidate> out;
  const std::string_view key = ha::registry_key_field(kind);
  snap.registry(kind).for_each([&](const json::value& v) {
    const json::object* o = v.if_object();
    if (!o || string_at(*o, key).empty()) return;
    std::string_view name = string_at(*o, "name_by_user");
    if (name.empty()) name = string_at(*o, "name");
    out.push_back({std::string(string_at(*o, key)), ascii_lower(name)});
  });
  return out;
}

std::vector<Candidate> candidates(const ha::Snapshot& snap, std::string_view variable) {
  if (variable == "area_id") return registry_candidates(snap, ha::RegistryKind::area);
  if (variable == "floor_id") return registry_candidates(snap, ha::RegistryKind::floor);
  if (variable == "device_id") return registry_candidates(snap, ha::RegistryKind::device);
  std::vector<Candidate> out;
  if (variable != "entity_id") return out;
  out.reserve(snap.states.size());
  snap.states.for_each([&](const ha::EntityStatePtr& st) { out.push_back({st->entity_id, {}}); });
  return out;
}

mcp::Completion complete(const ha::Snapshot& snap, std::string_view variable, std::string_view typed_text) {
  const std::string typed = ascii_lower(typed_text);
  std::vector<std::pair<int, std::string>> matches;
  for (Candidate& c : candidates(snap, variable)) {
    const int r = typed.empty() ? 0 : rank(c, typed);
    if (r >= 0) matches.emplace_back(r, std::move(c.id));
  }
  std::sort(matches.begin(), matches.end());
  mcp::Completion out;
  out.total = matches.size();
  out.has_more = matches.size() > kMaxValues;
  for (std::size_t i = 0; i < matches.size() && i < kMaxValues; ++i) out.values.push_back(std::move(matches[i].second));
  return out;
}

}  // namespace

mcp::CompletionHandler completion_handler(std::shared_ptr<ResourceContext> ctx) {
  return [ctx](mcp::CompletionRequest request, mcp::RequestContext&) -> boost::asio::awaitable<mcp::Completion> {
    const std::string_view uri = string_at(request.ref, "uri");
    if (uri.rfind("ha://", 0) != 0) co_return mcp::Completion{};
    auto reading = ctx->snapshot();
    const ha::SnapshotPtr snap = co_await std::move(reading);
    co_return complete(*snap, request.argument_name, request.argument_value);
  };
}

}  // namespace hamcp::resources
