// What a full resync really changed. A reconnect or a REST poll re-downloads
// the whole home and the mirror reports it as "anything may have changed";
// most of it is the same, so announcing every subscribed uri would wake every
// subscriber for nothing. Here the new snapshot is compared with the one
// before: entities whose state, attributes or timestamps differ, that
// appeared or went, or that moved to another area or device; areas, floors
// and devices whose registry item differs; ha://home when the summary can
// differ (entities appearing, going or becoming (un)available, a registry
// item or the config changing).
#include "resources/resource_feed.hpp"

namespace hamcp::resources {

namespace {

bool same_state(const ha::EntityState& a, const ha::EntityState& b) {
  return a.state == b.state && a.last_changed == b.last_changed && a.last_updated == b.last_updated &&
         a.attributes == b.attributes;
}

// Registry items of `kind` that differ (or exist on one side only), as uris.
bool add_changed_items(const ha::Snapshot& before, const ha::Snapshot& now, ha::RegistryKind kind,
                       std::string_view prefix, std::unordered_set<std::string>& out) {
  const ha::Registry& was = before.registry(kind);
  const ha::Registry& is = now.registry(kind);
  if (&was == &is) return false;
  bool changed = false;
  auto note = [&](std::string_view key) {
    out.insert(std::string(prefix) + std::string(key));
    changed = true;
  };
  is.for_each_key([&](std::string_view key) {
    const ha::RegistryItem old_item = was.find(key), new_item = is.find(key);
    if (!old_item || *old_item != *new_item) note(key);
  });
  was.for_each_key([&](std::string_view key) {
    if (!is.find(key)) note(key);
  });
  return changed;
}

void add_membership(const std::string& id, const Membership& members, std::unordered_set<std::string>& out) {
  if (const std::string_view area = members.area(id); !area.empty()) out.insert("ha://area/" + std::string(area));
  if (const std::string_view device = members.device(id); !device.empty())
    out.insert("ha://device/" + std::string(device));
}

bool same_config(const ha::Snapshot& before, const ha::Snapshot& now) {
  if (before.config == now.config) return true;
  return before.config && now.config && *before.config == *now.config;
}

}  // namespace

std::vector<std::string> ResourceFeed::resync_uris(const ha::Snapshot& before, const Membership& before_members,
                                                   const ha::Snapshot& now, const Membership& members,
                                                   std::unordered_set<std::string>& unavailable) {
  std::unordered_set<std::string> out;
  bool home = !same_config(before, now);
  now.states.for_each([&](const ha::EntityStatePtr& st) {
    const std::string& id = st->entity_id;
    const ha::EntityStatePtr old = before.states.find(id);
    const bool moved = before_members.area(id) != members.area(id) || before_members.device(id) != members.device(id);
    if (old && (old == st || same_state(*old, *st)) && !moved) return;
    out.insert("ha://entity/" + id);
    add_membership(id, members, out);
    if (moved) add_membership(id, before_members, out);
    const bool now_unavailable = st->state == "unavailable";
    if (!old || now_unavailable != (unavailable.count(id) > 0)) home = true;
    if (now_unavailable)
      unavailable.insert(id);
    else
      unavailable.erase(id);
  });
  before.states.for_each([&](const ha::EntityStatePtr& st) {
    if (now.states.find(st->entity_id)) return;
    out.insert("ha://entity/" + st->entity_id);
    add_membership(st->entity_id, before_members, out);
    unavailable.erase(st->entity_id);
    home = true;
  });
  home |= add_changed_items(before, now, ha::RegistryKind::area, "ha://area/", out);
  home |= add_changed_items(before, now, ha::RegistryKind::floor, "ha://floor/", out);
  home |= add_changed_items(before, now, ha::RegistryKind::device, "ha://device/", out);
  if (home) out.insert("ha://home");
  return {out.begin(), out.end()};
}

}  // namespace hamcp::resources
