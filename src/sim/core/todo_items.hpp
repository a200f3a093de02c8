#pragma once
// The simulated to-do lists' items (Home::todo_lists), shared by the todo.*
// actions and the todo/item/* WebSocket commands: HA's item JSON, lookup by
// uid or summary, and the entity's state (the count of items not done).

#include <string>
#include <vector>

#include "sim/home/home_model.hpp"

namespace hamcp::sim::todo {

// HA's to-do features (todo/const.py TodoListEntityFeature).
inline constexpr int kCreate = 1, kDelete = 2, kUpdate = 4, kMove = 8, kDueDate = 16, kDueDatetime = 32,
                     kDescription = 64;

// {uid, summary, status, due?, description?} (HA drops the unset members).
json::object item_json(const TodoItem& item);

// The item whose uid, else whose summary, is `key`; null when none.
TodoItem* find(std::vector<TodoItem>& items, const std::string& key);

// The entity's state: how many items still need action.
std::string state_of(const std::vector<TodoItem>& items);

}  // namespace hamcp::sim::todo
