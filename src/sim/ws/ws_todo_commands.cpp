// WebSocket commands of HA's todo domain: todo/item/list ({"items":[…]}) and
// todo/item/move (uid after previous_uid, or first), over Home::todo_lists.
// HA 2026.2 todo/__init__.py: unknown entity not_found "Entity not found", a
// list that cannot reorder not_supported, an unknown uid "failed".
#include <algorithm>

#include "sim/core/todo_items.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

std::vector<TodoItem>* list_of(WsConnection& c, int64_t id, const std::string& entity_id) {
  auto it = home(c).todo_lists.find(entity_id);
  if (it == home(c).todo_lists.end() || !c.core().store().get(entity_id)) {
    c.send_error(id, "not_found", "Entity not found");
    return nullptr;
  }
  return &it->second;
}

void item_list(WsConnection& c, int64_t id, const json::object& msg) {
  auto* items = list_of(c, id, req_string(msg, "entity_id"));
  if (!items) return;
  json::array out;
  for (const auto& i : *items) out.push_back(todo::item_json(i));
  c.send_result(id, json::object{{"items", std::move(out)}});
}

void item_move(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string entity_id = req_string(msg, "entity_id"), uid = req_string(msg, "uid");
  const auto previous = opt_string(msg, "previous_uid");
  auto* items = list_of(c, id, entity_id);
  if (!items) return;
  auto state = c.core().store().get(entity_id);
  const json::value* f = state->attributes.if_contains("supported_features");
  if (!f || !f->is_int64() || (f->as_int64() & todo::kMove) == 0)
    return c.send_error(id, "not_supported", "To-do list does not support To-do item reordering");
  auto it = std::find_if(items->begin(), items->end(), [&](const TodoItem& i) { return i.uid == uid; });
  if (it == items->end()) return c.send_error(id, "failed", "Item '" + uid + "' not found in todo list");
  if (previous && std::none_of(items->begin(), items->end(), [&](const TodoItem& i) { return i.uid == *previous; }))
    return c.send_error(id, "failed", "Item '" + *previous + "' not found in todo list");
  TodoItem moved = *it;
  items->erase(it);
  auto at = items->begin();
  if (previous)
    at = std::find_if(items->begin(), items->end(), [&](const TodoItem& i) { return i.uid == *previous; }) + 1;
  items->insert(at, std::move(moved));
  c.send_result(id, nullptr);
}

}  // namespace

void register_todo_commands(Table& t) {
  t["todo/item/list"] = item_list;
  t["todo/item/move"] = item_move;
}

}  // namespace hamcp::sim
