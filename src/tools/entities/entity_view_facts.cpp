#include "tools/entities/entity_view_facts.hpp"

#include <array>
#include <boost/json/monotonic_resource.hpp>
#include <mutex>
#include <unordered_map>

#include "home/entity_docs.hpp"

namespace hamcp::tools {
namespace {

constexpr std::array<ha::RegistryKind, 4> kUsed = {ha::RegistryKind::entity, ha::RegistryKind::device,
                                                   ha::RegistryKind::area, ha::RegistryKind::floor};

RegistryViewFacts find_facts(const ha::Snapshot& snap, std::string_view entity_id) {
  unsigned char buffer[4096];  // the entry is parsed on the stack, read, and dropped
  boost::json::monotonic_resource arena(buffer, sizeof buffer);
  const ha::RegistryItem entry = snap.registry(ha::RegistryKind::entity).find(entity_id, &arena);
  RegistryViewFacts facts;
  if (!entry) return facts;
  facts.has_entry = true;
  facts.name = home::str_of(entry.get(), "name");
  facts.original_name = home::str_of(entry.get(), "original_name");
  home::EntityPlace place = home::place_of(snap, entry.get());
  facts.area_name = std::move(place.area_name);
  facts.floor_name = std::move(place.floor_name);
  return facts;
}

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class FactsMemory {
 public:
  std::shared_ptr<const RegistryViewFacts> find(const ha::Snapshot& snap, std::string_view entity_id) {
    std::lock_guard lock(mutex_);
    if (!same_registries_locked(snap)) return nullptr;
    const auto it = facts_.find(entity_id);
    return it == facts_.end() ? nullptr : it->second;
  }

  void remember(const ha::Snapshot& snap, std::string_view entity_id, std::shared_ptr<const RegistryViewFacts> facts) {
    std::lock_guard lock(mutex_);
    if (!same_registries_locked(snap)) start_afresh_locked(snap);
    if (facts_.size() >= kMaxRememberedViewFacts) facts_.clear();
    facts_.insert_or_assign(std::string(entity_id), std::move(facts));
  }

 private:
  // Same objects as remembered: a weak reference that still locks to the
  // current pointer (an object that died cannot be mistaken for a new one at
  // the same address), or no registry then and now.
  bool same_registries_locked(const ha::Snapshot& snap) const {
    for (std::size_t i = 0; i < kUsed.size(); ++i) {
      const ha::RegistryPtr& current = snap.registries[static_cast<std::size_t>(kUsed[i])];
      if (had_[i] ? (!current || seen_[i].lock() != current) : static_cast<bool>(current)) return false;
    }
    return true;
  }
  void start_afresh_locked(const ha::Snapshot& snap) {
    facts_.clear();
    for (std::size_t i = 0; i < kUsed.size(); ++i) {
      const ha::RegistryPtr& current = snap.registries[static_cast<std::size_t>(kUsed[i])];
      seen_[i] = current;
      had_[i] = static_cast<bool>(current);
    }
  }

  std::mutex mutex_;
  std::array<std::weak_ptr<const ha::Registry>, kUsed.size()> seen_;
  std::array<bool, kUsed.size()> had_{};
  std::unordered_map<std::string, std::shared_ptr<const RegistryViewFacts>, StringHash, std::equal_to<>> facts_;
};

FactsMemory& memory() {
  static FactsMemory instance;
  return instance;
}

}  // namespace

std::shared_ptr<const RegistryViewFacts> registry_view_facts(const ha::Snapshot& snap, std::string_view entity_id) {
  if (auto known = memory().find(snap, entity_id)) return known;
  auto facts = std::make_shared<const RegistryViewFacts>(find_facts(snap, entity_id));
  memory().remember(snap, entity_id, facts);
  return facts;
}

}  // namespace hamcp::tools
