// Old-style groups: group.set creates or changes group.<object_id> (members,
// name, icon, all), group.remove deletes it, as HA's group integration does.
#include <algorithm>

#include "sim/core/service_spec.hpp"

namespace hamcp::sim::svc {

namespace {

std::vector<std::string> members_of(const StoredState* s) {
  return s && s->attributes.contains("entity_id") ? string_list(s->attributes.at("entity_id"))
                                                  : std::vector<std::string>{};
}

// on when any member is on (all: every member), off otherwise; unknown without members.
std::string group_state(StateStore& store, const std::vector<std::string>& members, bool all) {
  int on = 0, known = 0;
  for (const auto& m : members)
    if (StatePtr s = store.get(m)) {
      ++known;
      on += (s->state == "on" || s->state == "home" || s->state == "open") ? 1 : 0;
    }
  if (known == 0) return "unknown";
  return (all ? on == known : on > 0) ? "on" : "off";
}

std::optional<json::value> group_set(Run& r, const json::object& d) {
  const std::string object_id(d.at("object_id").as_string());
  const std::string eid = "group." + object_id;
  StatePtr old = r.impl.store.get(eid);
  std::vector<std::string> members = members_of(old.get());
  if (d.contains("entities")) members = string_list(d.at("entities"));
  for (const auto& m : d.contains("add_entities") ? string_list(d.at("add_entities")) : std::vector<std::string>{})
    if (std::find(members.begin(), members.end(), m) == members.end()) members.push_back(m);
  if (d.contains("remove_entities"))
    for (const auto& m : string_list(d.at("remove_entities")))
      members.erase(std::remove(members.begin(), members.end(), m), members.end());
  // HA applies add/remove as a set operation: the order is not the caller's (here: sorted).
  if (d.contains("add_entities") || d.contains("remove_entities")) std::sort(members.begin(), members.end());
  json::object attrs = old ? old->attributes : json::object{{"order", 0}, {"auto", true}, {"friendly_name", object_id}};
  json::array list;
  for (const auto& m : members) list.emplace_back(m);
  attrs["entity_id"] = std::move(list);
  if (d.contains("name")) attrs["friendly_name"] = d.at("name");
  if (d.contains("icon")) attrs["icon"] = d.at("icon");
  if (d.contains("all")) attrs["all"] = d.at("all");
  const bool all = attrs.contains("all") && attrs.at("all") == true;
  r.changed.push_back(r.impl.store.set_state(eid, group_state(r.impl.store, members, all), std::move(attrs), r.ctx));
  return std::nullopt;
}

std::optional<json::value> group_remove(Run& r, const json::object& d) {
  r.impl.store.remove_state("group." + std::string(d.at("object_id").as_string()), r.ctx);
  return std::nullopt;
}

}  // namespace

void add_group_services(Services::Impl& impl) {
  impl.add(plain_spec("group", "set", "Creates/Updates a group.",
                      {fstr("object_id", "Object ID of this group.", true), fstr("name", "Name of the group."),
                       fstr("icon", "Icon of the group."), fany("entities", "List of all members in the group."),
                       fany("add_entities", "List of members to be added to the group."),
                       fany("remove_entities", "List of members to be removed from a group."),
                       fbool("all", "Enable this option if the group should only be on when all entities are on.")},
                      group_set));
  impl.add(plain_spec("group", "remove", "Removes a group.", {fstr("object_id", "Object ID of this group.", true)},
                      group_remove));
}

}  // namespace hamcp::sim::svc
