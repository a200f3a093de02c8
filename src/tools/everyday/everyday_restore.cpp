// Restoring a calendar event or to-do item edit from the edit journal
// (ha_manage_backup scope=edits action=restore): a created event/item is
// deleted, a deleted one is created again (a new uid: HA assigns it), an
// updated one gets its previous fields back. One write, itself journaled as
// "restore" (so a restore can be undone too), never retried.
//
// Limits, said in the answer: a deleted occurrence of a recurring event comes
// back as a single event; a re-created recurring event starts at the first
// occurrence the delete saw (a year around the delete); a to-do item comes
// back at the end of its list.
#include <algorithm>

#include "tools/everyday/calendar_read.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/helpers/helper_ha.hpp"

namespace hamcp::tools::everyday {

namespace {

namespace asio = boost::asio;

std::string text_of(const json::value& v, std::string_view key) {
  const json::object* o = v.if_object();
  const json::value* f = o ? o->if_contains(key) : nullptr;
  return f && f->is_string() ? std::string(f->get_string()) : std::string();
}

[[noreturn]] void not_restorable(const home::EditRecord& rec, const std::string& why) {
  throw ToolException(ToolError{"not_restorable",
                                "Edit " + rec.id + " cannot be restored: " + why + " Nothing was changed.",
                                "action=view shows its `before`; write that back with the " + rec.kind + "'s tool.",
                                {{"written", false}}});
}

json::object answer(const home::EditRecord& rec, std::string done) {
  return json::object{
      {"restored", rec.id}, {"kind", rec.kind}, {"entity_id", rec.entity_id}, {"action", std::move(done)}};
}

// ---- calendar events -------------------------------------------------------

asio::awaitable<json::object> undo_event_create(ToolEnv& env, const home::EditRecord& rec) {
  const std::string uid = text_of(rec.after, "uid");
  if (uid.empty()) not_restorable(rec, "the journal does not know the created event's uid.");
  json::object message{{"type", "calendar/event/delete"}, {"entity_id", rec.entity_id}, {"uid", uid}};
  auto deleting = ws_write(env, std::move(message), "deleting event " + uid);
  co_await std::move(deleting);
  json::object body = answer(rec, "deleted the created event");
  body["event"] = rec.after;
  helpers::journal(env, body, "calendar_event", rec.key, rec.entity_id, "restore", rec.after, nullptr);
  co_return body;
}

asio::awaitable<json::object> undo_event_delete(ToolEnv& env, const home::EditRecord& rec) {
  if (!rec.before.is_object()) not_restorable(rec, "the journal did not see the deleted event.");
  const bool whole = text_of(rec.before, "scope") != "occurrence" && text_of(rec.before, "scope") != "";
  json::object event = ha_event_of(rec.before.get_object(), whole);
  json::object message{{"type", "calendar/event/create"}, {"entity_id", rec.entity_id}, {"event", event}};
  auto creating = ws_write(env, std::move(message), "creating the event again");
  co_await std::move(creating);
  auto reading = written_event(env, rec.entity_id, event);
  json::value now = co_await std::move(reading);
  json::object body = answer(rec, "created the deleted event again");
  body["event"] = now.is_null() ? json::value(flat_of(event)) : now;
  if (!whole && rec.before.as_object().contains("rrule"))
    body["note"] = "The deleted occurrence comes back as a single event (new uid), not as part of its series.";
  json::object recorded = body["event"].as_object();
  recorded["scope"] = "event";
  const std::string uid = text_of(recorded, "uid");
  helpers::journal(env, body, "calendar_event", rec.entity_id + "/" + uid, rec.entity_id, "restore", nullptr,
                   std::move(recorded));
  co_return body;
}

asio::awaitable<json::object> undo_event_update(ToolEnv& env, const home::EditRecord& rec) {
  if (!rec.before.is_object()) not_restorable(rec, "the journal did not see the event before the update.");
  const std::string uid = text_of(rec.before, "uid");
  const std::string scope = text_of(rec.after, "scope");
  const bool whole = scope.empty() || scope == "event";
  json::object event = ha_event_of(rec.before.get_object(), whole);
  json::object message{{"type", "calendar/event/update"}, {"entity_id", rec.entity_id}, {"uid", uid}, {"event", event}};
  if (!whole) {
    // The update forked the series at this occurrence, keeping uid and recurrence_id: the same pair finds it.
    message["recurrence_id"] = text_of(rec.before, "recurrence_id");
    if (scope == "this_and_following") message["recurrence_range"] = "THISANDFUTURE";
  }
  auto updating = ws_write(env, std::move(message), "updating event " + uid);
  co_await std::move(updating);
  auto reading = written_event(env, rec.entity_id, event);
  json::value now = co_await std::move(reading);
  json::object body = answer(rec, "put the event's previous fields back");
  body["scope"] = whole ? "event" : scope;
  body["event"] = now.is_null() ? json::value(flat_of(event)) : now;
  json::object recorded = body["event"].as_object();
  recorded["scope"] = body["scope"];
  helpers::journal(env, body, "calendar_event", rec.key, rec.entity_id, "restore", rec.after, std::move(recorded));
  co_return body;
}

// ---- to-do items -----------------------------------------------------------

asio::awaitable<json::array> todo_items(ToolEnv& env, const std::string& entity_id) {
  auto reading = helpers::ws_read(env, json::object{{"type", "todo/item/list"}, {"entity_id", entity_id}});
  json::value listed = co_await std::move(reading);
  const json::value* items = listed.is_object() ? listed.as_object().if_contains("items") : nullptr;
  co_return items && items->is_array() ? items->get_array() : json::array{};
}

// The item's due as the action's field: a date (10 characters) or a date-time.
void put_due(json::object& data, const json::value* due) {
  if (!due || !due->is_string()) return;
  data[due->get_string().size() == 10 ? "due_date" : "due_datetime"] = *due;
}

asio::awaitable<json::object> undo_item_create(ToolEnv& env, const home::EditRecord& rec) {
  const std::string uid = text_of(rec.after, "uid");
  if (uid.empty()) not_restorable(rec, "the journal does not know the added item's uid.");
  auto removing = call_action(env, "todo", "remove_item", rec.entity_id, json::object{{"item", uid}});
  co_await std::move(removing);
  json::object body = answer(rec, "removed the added item");
  body["item"] = rec.after;
  helpers::journal(env, body, "todo_item", rec.key, rec.entity_id, "restore", rec.after, nullptr);
  co_return body;
}

// The item with `summary` that `known` did not have (the one just added); null when none.
json::value new_item(const json::array& now, const json::array& known, const json::value& summary) {
  for (const auto& i : now) {
    if (i.as_object().at("summary") != summary) continue;
    const bool seen = std::any_of(known.begin(), known.end(), [&](const json::value& k) {
      return k.as_object().at("uid") == i.as_object().at("uid");
    });
    if (!seen) return i;
  }
  return nullptr;
}

asio::awaitable<json::object> undo_item_delete(ToolEnv& env, const home::EditRecord& rec) {
  if (!rec.before.is_object()) not_restorable(rec, "the journal did not see the removed item.");
  const json::object& item = rec.before.get_object();
  auto listing = todo_items(env, rec.entity_id);
  const json::array known = co_await std::move(listing);
  json::object data{{"item", item.at("summary")}};
  put_due(data, item.if_contains("due"));
  if (const json::value* d = item.if_contains("description"); d && d->is_string()) data["description"] = *d;
  auto adding = call_action(env, "todo", "add_item", rec.entity_id, std::move(data));
  co_await std::move(adding);
  if (text_of(rec.before, "status") == "completed") {
    json::object done{{"item", item.at("summary")}, {"status", "completed"}};
    auto completing = call_action(env, "todo", "update_item", rec.entity_id, std::move(done));
    co_await std::move(completing);
  }
  auto rereading = todo_items(env, rec.entity_id);
  const json::array now = co_await std::move(rereading);
  json::value added = new_item(now, known, item.at("summary"));
  json::object body = answer(rec, "added the removed item again");
  body["item"] = added;
  body["note"] = "The item has a new uid and sits at the end of the list.";
  const std::string uid = text_of(added, "uid");
  helpers::journal(env, body, "todo_item", rec.entity_id + "/" + uid, rec.entity_id, "restore", nullptr, added);
  co_return body;
}

// update_item's fields turning `after` back into `before`: only fields that differ (a list
// refuses fields it does not support), null clearing a field the edit added.
json::object item_changes(const json::object& before, const json::object& after) {
  json::object data;
  if (before.at("summary") != after.at("summary")) data["rename"] = before.at("summary");
  if (before.if_contains("status") && before.at("status") != after.at("status")) data["status"] = before.at("status");
  const json::value* due_before = before.if_contains("due");
  const json::value* due_after = after.if_contains("due");
  if (due_before && (!due_after || *due_before != *due_after)) put_due(data, due_before);
  if (!due_before && due_after && due_after->is_string())
    data[due_after->get_string().size() == 10 ? "due_date" : "due_datetime"] = nullptr;
  const json::value* desc_before = before.if_contains("description");
  const json::value* desc_after = after.if_contains("description");
  if (desc_before && (!desc_after || *desc_before != *desc_after)) data["description"] = *desc_before;
  if (!desc_before && desc_after && !desc_after->is_null()) data["description"] = nullptr;
  return data;
}

asio::awaitable<json::object> undo_item_update(ToolEnv& env, const home::EditRecord& rec) {
  if (!rec.before.is_object() || !rec.after.is_object())
    not_restorable(rec, "the journal does not have the item before and after the update.");
  json::object data = item_changes(rec.before.get_object(), rec.after.get_object());
  const std::string uid = text_of(rec.after, "uid");
  json::object body = answer(
      rec, data.empty() ? "nothing to put back (only its position changed)" : "put the item's previous fields back");
  if (!data.empty()) {
    data["item"] = uid;
    auto updating = call_action(env, "todo", "update_item", rec.entity_id, std::move(data));
    co_await std::move(updating);
  }
  auto rereading = todo_items(env, rec.entity_id);
  const json::array now = co_await std::move(rereading);
  json::value current = nullptr;
  for (const auto& i : now)
    if (text_of(i, "uid") == uid) current = i;
  body["item"] = current;
  helpers::journal(env, body, "todo_item", rec.key, rec.entity_id, "restore", rec.after, current);
  co_return body;
}

}  // namespace

bool is_everyday_restorable(std::string_view kind) { return kind == "calendar_event" || kind == "todo_item"; }

asio::awaitable<mcp::ToolResult> restore_everyday_edit(ToolEnv& env, home::EditRecord rec) {
  if (env.read_only())
    throw ToolException(ToolError{"read_only",
                                  "hamcp is in read-only mode: edit " + rec.id + " is not restored.",
                                  "Reads (list, view, diff) still work.",
                                  {{"written", false}}});
  const bool calendar = rec.kind == "calendar_event";
  json::object body;
  if (rec.action == "create" || (rec.action == "restore" && rec.before.is_null())) {
    auto undoing = calendar ? undo_event_create(env, rec) : undo_item_create(env, rec);
    body = co_await std::move(undoing);
  } else if (rec.action == "delete" || (rec.action == "restore" && rec.after.is_null())) {
    auto undoing = calendar ? undo_event_delete(env, rec) : undo_item_delete(env, rec);
    body = co_await std::move(undoing);
  } else {
    auto undoing = calendar ? undo_event_update(env, rec) : undo_item_update(env, rec);
    body = co_await std::move(undoing);
  }
  co_return ok(std::move(body));
}

}  // namespace hamcp::tools::everyday
