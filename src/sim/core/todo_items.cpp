#include "sim/core/todo_items.hpp"

#include <algorithm>

namespace hamcp::sim::todo {

json::object item_json(const TodoItem& item) {
  json::object o{{"uid", item.uid}, {"summary", item.summary}, {"status", item.status}};
  if (!item.due.empty()) o["due"] = item.due;
  if (!item.description.empty()) o["description"] = item.description;
  return o;
}

TodoItem* find(std::vector<TodoItem>& items, const std::string& key) {
  for (auto& i : items)
    if (i.uid == key) return &i;
  for (auto& i : items)
    if (i.summary == key) return &i;
  return nullptr;
}

std::string state_of(const std::vector<TodoItem>& items) {
  return std::to_string(
      std::count_if(items.begin(), items.end(), [](const TodoItem& i) { return i.status == "needs_action"; }));
}

}  // namespace hamcp::sim::todo
