// Actions of HA's todo domain over the simulator's lists (Home::todo_lists)
// and camera.turn_on / turn_off (Home::cameras_off; the state stays as it is, as in HA):
// todo.add_item, todo.update_item, todo.remove_item, with HA 2026.2's
// refusals (todo/__init__.py): an unknown item is the service validation
// error item_not_found, a field the list cannot store update_field_not_supported.
#include <algorithm>

#include "sim/core/service_spec.hpp"
#include "sim/core/sim_core.hpp"
#include "sim/core/todo_items.hpp"

namespace hamcp::sim::svc {

namespace {

std::vector<TodoItem>& list_of(Services::Impl& impl, const StoredState& s) {
  return impl.store.home().todo_lists[s.entity_id];
}

std::string text(const json::object& d, const char* key) {
  const json::value* v = d.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The optional fields of add/update, checked against the list's features.
void apply_fields(const StoredState& s, const json::object& d, TodoItem& item) {
  const struct {
    const char* key;
    int feature;
  } kFields[] = {
      {"due_date", todo::kDueDate}, {"due_datetime", todo::kDueDatetime}, {"description", todo::kDescription}};
  if (d.contains("due_date") && d.contains("due_datetime"))
    throw invalid("two or more values in the same group of exclusion 'due' @ data[<due>]");
  for (const auto& f : kFields) {
    if (!d.contains(f.key)) continue;
    if ((features(s) & f.feature) == 0)
      throw validation(std::string("Entity does not support setting field: ") + f.key, "update_field_not_supported");
    // HA: vol.Any(<type>, None); null clears the field.
    if (const json::value& v = d.at(f.key); !v.is_string() && !v.is_null())
      throw invalid(std::string("expected str for dictionary value @ data['") + f.key + "']");
    if (std::string_view(f.key) == "description")
      item.description = text(d, f.key);
    else
      item.due = text(d, f.key);
  }
}

void set_status(const json::object& d, TodoItem& item) {
  if (!d.contains("status")) return;
  const std::string status = text(d, "status");
  if (status != "needs_action" && status != "completed")
    throw invalid("value must be one of ['completed', 'needs_action'] for dictionary value @ data['status']");
  item.status = status;
}

void add_item(Services::Impl& impl, Run& r, const StoredState& s, const json::object& d) {
  TodoItem item;
  item.summary = text(d, "item");
  if (item.summary.find_first_not_of(' ') == std::string::npos)
    throw invalid("length of value must be at least 1 for dictionary value @ data['item']");
  apply_fields(s, d, item);
  item.uid = impl.store.new_context().id;
  auto& items = list_of(impl, s);
  items.push_back(std::move(item));
  r.set(s, todo::state_of(items), s.attributes);
}

void update_item(Services::Impl& impl, Run& r, const StoredState& s, const json::object& d) {
  auto& items = list_of(impl, s);
  const std::string key = text(d, "item");
  TodoItem* item = todo::find(items, key);
  if (!item) throw validation("Unable to find To-do item: " + key, "item_not_found");
  TodoItem changed = *item;
  if (d.contains("rename")) changed.summary = text(d, "rename");
  set_status(d, changed);
  apply_fields(s, d, changed);
  *item = std::move(changed);
  r.set(s, todo::state_of(items), s.attributes);
}

void remove_item(Services::Impl& impl, Run& r, const StoredState& s, const json::object& d) {
  auto& items = list_of(impl, s);
  std::vector<std::string> uids;
  std::vector<std::string> keys;  // one text or a list (HA: vol.All(cv.ensure_list, [cv.string]); no comma split)
  if (const json::value& v = d.at("item"); v.is_string())
    keys.emplace_back(v.get_string());
  else if (v.is_array())
    for (const auto& x : v.get_array())
      if (x.is_string()) keys.emplace_back(x.get_string());
  for (const auto& key : keys) {
    TodoItem* item = todo::find(items, key);
    if (!item) throw validation("Unable to find To-do item: " + key, "item_not_found");
    uids.push_back(item->uid);
  }
  std::erase_if(items, [&](const TodoItem& i) { return std::find(uids.begin(), uids.end(), i.uid) != uids.end(); });
  r.set(s, todo::state_of(items), s.attributes);
}

}  // namespace

void add_camera_services(Services::Impl& impl) {
  impl.add(entity_spec("camera", "turn_off", "Turns off the camera.", {},
                       [&impl](Run&, const StoredState& s, const json::object&) {
                         auto& off = impl.store.home().cameras_off;
                         if (std::find(off.begin(), off.end(), s.entity_id) == off.end()) off.push_back(s.entity_id);
                       }));
  impl.add(entity_spec("camera", "turn_on", "Turns on the camera.", {},
                       [&impl](Run&, const StoredState& s, const json::object&) {
                         std::erase(impl.store.home().cameras_off, s.entity_id);
                       }));
}

void add_todo_services(Services::Impl& impl) {
  add_camera_services(impl);
  const Field due_date = fany("due_date", "The date the to-do item is expected to be completed.");
  const Field due_datetime = fany("due_datetime", "The date and time the to-do item is expected to be completed.");
  const Field description = fany("description", "A more complete description of the to-do item.");
  impl.add(entity_spec(
      "todo", "add_item", "Adds a new to-do list item.",
      {fstr("item", "The name that represents the to-do item.", true), due_date, due_datetime, description},
      [&impl](Run& r, const StoredState& s, const json::object& d) { add_item(impl, r, s, d); }, todo::kCreate));
  impl.add(entity_spec(
      "todo", "update_item", "Updates an existing to-do list item based on its name or UID.",
      {fstr("item", "The name/summary or UID of the to-do item.", true),
       fstr("rename", "The new name for the to-do item"), fstr("status", "A status or confirmation of the to-do item."),
       due_date, due_datetime, description},
      [&impl](Run& r, const StoredState& s, const json::object& d) { update_item(impl, r, s, d); }, todo::kUpdate));
  impl.add(entity_spec(
      "todo", "remove_item", "Removes an existing to-do list item by its name or UID.",
      {fany("item", "The name/summary or UID for the to-do list items.", true)},
      [&impl](Run& r, const StoredState& s, const json::object& d) { remove_item(impl, r, s, d); }, todo::kDelete));
}

}  // namespace hamcp::sim::svc
