// ha_get_todo, ha_set_todo_item, ha_remove_todo_item: to-do lists (from the
// mirror) and their items (todo/item/list); an item added (todo.add_item),
// updated (todo.update_item: rename, status, due, description) or moved
// (todo/item/move after previous_uid); removed (todo.remove_item,
// confirm=true; without it a preview). Writes are journalled with the item
// as it was and answer with the item as it is now.
#include "tools/confirmation.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/helpers/helper_ha.hpp"

namespace hamcp::tools {

namespace {

using namespace everyday;

json::object list_lists(const ha::Snapshot& snap) {
  json::array lists;
  for (const auto& id : snap.states.entity_ids()) {
    if (id.rfind("todo.", 0) != 0) continue;
    ha::EntityStatePtr s = snap.states.find(id);
    lists.push_back(
        json::object{{"entity_id", id}, {"name", s->attributes.string_of("friendly_name")}, {"open_items", s->state}});
  }
  const std::size_t count = lists.size();
  return {{"lists", std::move(lists)}, {"count", count}};
}

boost::asio::awaitable<json::array> items_of(ToolEnv& env, const std::string& entity_id) {
  auto reading = helpers::ws_read(env, json::object{{"type", "todo/item/list"}, {"entity_id", entity_id}});
  json::value listed = co_await std::move(reading);
  json::array items;
  if (const json::object* o = listed.if_object())
    if (const json::value* i = o->if_contains("items"); i && i->is_array()) items = i->get_array();
  co_return items;
}

// The item whose uid, else whose summary, is `key`; null when none.
json::value find_item(const json::array& items, const std::string& key) {
  for (const char* field : {"uid", "summary"})
    for (const auto& i : items)
      if (const json::value* v = i.as_object().if_contains(field); v && v->is_string() && v->get_string() == key)
        return i;
  return nullptr;
}

ToolException item_not_found(const json::array& items, const std::string& key) {
  json::array names;
  for (const auto& i : items)
    if (names.size() < 20) names.push_back(i.as_object().at("summary"));
  ToolError err{"item_not_found",
                "No item '" + key + "' in this list.",
                "Pass an item's uid or exact summary (see ha_manage_todo action=get).",
                {{"items", std::move(names)}}};
  return ToolException(std::move(err));
}

boost::asio::awaitable<mcp::ToolResult> run_get_todo(Args& args, ToolEnv& env, mcp::RequestContext&) {
  if (!args.has("entity_id")) {
    auto waiting = env.snapshot();
    ha::SnapshotPtr snap = co_await std::move(waiting);
    co_return ok(list_lists(*snap));
  }
  auto checking = entity_arg(args, env, "todo");
  const ha::EntityStatePtr list = co_await std::move(checking);
  auto reading = items_of(env, list->entity_id);
  json::array items = co_await std::move(reading);
  const std::string status = args.str("status");
  json::array shown;
  for (auto& i : items)
    if (status.empty() || i.as_object().at("status").as_string() == status) shown.push_back(std::move(i));
  const std::size_t count = shown.size();
  co_return ok(json::object{{"entity_id", list->entity_id}, {"items", std::move(shown)}, {"count", count}});
}

json::object item_fields(Args& args) {
  json::object data;
  for (const char* key : {"due_date", "due_datetime", "description"})
    if (auto v = args.opt_str(key)) data[key] = *v;
  return data;
}

// By value: a coroutine's reference parameters would outlive the caller's temporaries.
boost::asio::awaitable<void> move_item(ToolEnv& env, std::string entity_id, std::string uid, std::string previous) {
  json::object message{{"type", "todo/item/move"}, {"entity_id", entity_id}, {"uid", uid}};
  if (!previous.empty()) message["previous_uid"] = previous;
  auto moving = ws_write(env, std::move(message), "moving item " + uid);
  co_await std::move(moving);
}

// Adds (no `item`) or updates `item`; returns the key to find it by afterwards.
boost::asio::awaitable<std::string> write_item(Args& args, ToolEnv& env, const std::string& entity_id,
                                               const json::value& before) {
  json::object data = item_fields(args);
  if (before.is_null()) {
    const std::string summary = args.str("summary");
    if (summary.empty())
      throw ToolException(bad_argument("summary", "is needed to add an item", "Pass summary, or item to update one."));
    data["item"] = summary;
    auto adding = call_action(env, "todo", "add_item", entity_id, std::move(data));
    co_await std::move(adding);
    if (!args.has("status") || args.str("status") == "needs_action") co_return summary;
    data = json::object{{"item", summary}, {"status", args.str("status")}};
    auto completing = call_action(env, "todo", "update_item", entity_id, std::move(data));
    co_await std::move(completing);
    co_return summary;
  }
  const std::string uid(before.as_object().at("uid").as_string());
  std::string rename = args.str("rename");
  if (rename.empty() && args.has("summary") && args.str("summary") != before.as_object().at("summary").as_string())
    rename = args.str("summary");
  if (!rename.empty()) data["rename"] = rename;
  if (args.has("status")) data["status"] = args.str("status");
  if (!data.empty()) {
    data["item"] = uid;
    auto updating = call_action(env, "todo", "update_item", entity_id, std::move(data));
    co_await std::move(updating);
  }
  if (const json::value* previous = args.get("previous_uid"); previous && previous->is_string()) {
    auto moving = move_item(env, entity_id, uid, std::string(previous->get_string()));
    co_await std::move(moving);
  }
  co_return uid;
}

boost::asio::awaitable<mcp::ToolResult> run_set_item(Args& args, ToolEnv& env, mcp::RequestContext&) {
  auto checking = entity_arg(args, env, "todo");
  const ha::EntityStatePtr list = co_await std::move(checking);
  auto reading = items_of(env, list->entity_id);
  const json::array items = co_await std::move(reading);
  json::value before = nullptr;
  if (args.has("item")) {
    before = find_item(items, args.str("item"));
    if (before.is_null()) throw item_not_found(items, args.str("item"));
  }
  auto writing = write_item(args, env, list->entity_id, before);
  const std::string key = co_await std::move(writing);
  auto rereading = items_of(env, list->entity_id);
  const json::array now = co_await std::move(rereading);
  json::value after = find_item(now, key);
  json::object body{
      {"entity_id", list->entity_id}, {"action", before.is_null() ? "added" : "updated"}, {"item", after}};
  const json::value* uid = after.is_object() ? after.as_object().if_contains("uid") : nullptr;
  const std::string journal_key = list->entity_id + "/" + (uid ? std::string(uid->as_string()) : key);
  helpers::journal(env, body, "todo_item", journal_key, list->entity_id, before.is_null() ? "create" : "update", before,
                   after);
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_remove_item(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  auto checking = entity_arg(args, env, "todo");
  const ha::EntityStatePtr list = co_await std::move(checking);
  auto reading = items_of(env, list->entity_id);
  const json::array items = co_await std::move(reading);
  const json::value item = find_item(items, args.str("item"));
  if (item.is_null()) throw item_not_found(items, args.str("item"));
  json::object body{{"entity_id", list->entity_id}, {"item", item}};
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{"remove",
                                           json::string(list->entity_id),
                                           json::object{{"removes_item", item}},
                                           {},
                                           {{"item", item}, {"removed", false}}});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  const std::string uid(item.as_object().at("uid").as_string());
  auto removing = call_action(env, "todo", "remove_item", list->entity_id, json::object{{"item", uid}});
  co_await std::move(removing);
  body["removed"] = true;
  helpers::journal(env, body, "todo_item", list->entity_id + "/" + uid, list->entity_id, "delete", item, nullptr);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_get_todo_spec() {
  ToolSpec s;
  s.name = "ha_get_todo";
  s.title = "To-do lists and items";
  s.description = "Items of a to-do list (optionally by status); no entity_id: the lists.";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},
"status":{"type":"string","enum":["needs_action","completed"]}}})J";
  s.output_schema = R"J({"type":"object","properties":{"items":{"type":"array"}}})J";
  s.annotations = read_only();
  s.run = run_get_todo;
  return s;
}

ToolSpec make_set_todo_item_spec() {
  ToolSpec s;
  s.name = "ha_set_todo_item";
  s.title = "Add or update a to-do item";
  s.description =
      "Add an item (summary), or update one (item: uid or summary): rename, status, due_date or due_datetime, "
      "description; previous_uid moves it after that item (\"\": to the top).";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},"summary":{"type":"string"},
"item":{"type":"string"},"rename":{"type":"string"},"status":{"type":"string","enum":["needs_action","completed"]},
"due_date":{"type":"string"},"due_datetime":{"type":"string"},"description":{"type":"string"},
"previous_uid":{"type":"string"}},"required":["entity_id"]})J";
  s.output_schema = R"J({"type":"object","properties":{"item":{"type":"object"}}})J";
  s.annotations = writes(false, false);
  s.run = run_set_item;
  return s;
}

ToolSpec make_remove_todo_item_spec() {
  ToolSpec s;
  s.name = "ha_remove_todo_item";
  s.title = "Remove a to-do item";
  s.description = "Remove an item (uid or summary). Without confirm=true: a preview.";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},"item":{"type":"string"},
"confirm":{"type":"boolean"}},"required":["entity_id","item"]})J";
  s.output_schema = R"J({"type":"object","properties":{"item":{"type":"object"}}})J";
  s.annotations = writes(true, true);
  s.run = run_remove_item;
  return s;
}

}  // namespace hamcp::tools
