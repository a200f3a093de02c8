// Calendar event and to-do item edits put back from the edit journal
// (ha_manage_backup scope=edits action=restore) against the demo sim: a
// created one deleted, a deleted one created again, an updated one back to its
// previous fields; each restore journaled, so it can be restored in turn.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::value& o, std::string_view key) {
  const json::value* v = o.is_object() ? o.as_object().if_contains(key) : nullptr;
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

class EverydayRestoreTest : public ToolsTest {
 protected:
  // "summary@start" of the calendar's events in a range whose summary starts with `prefix`.
  std::vector<std::string> events(const std::string& start, const std::string& end, const std::string& prefix) {
    CallResult r = call("ha_config_get_calendar_events",
                        R"({"entity_id":"calendar.family","start":")" + start + R"(","end":")" + end + R"("})");
    EXPECT_FALSE(r.is_error) << r.text;
    std::vector<std::string> out;
    if (!r.structured.contains("events")) return out;
    for (const auto& e : r.structured.at("events").as_array())
      if (str(e, "summary").rfind(prefix, 0) == 0) out.push_back(str(e, "summary") + "@" + str(e, "start"));
    return out;
  }
  json::value item(const std::string& list, const std::string& summary) {
    CallResult r = call("ha_get_todo", R"({"entity_id":")" + list + R"("})");
    EXPECT_FALSE(r.is_error) << r.text;
    for (const auto& i : r.structured.at("items").as_array())
      if (str(i, "summary") == summary) return i;
    return nullptr;
  }
  std::size_t count(const std::string& list) {
    CallResult r = call("ha_get_todo", R"({"entity_id":")" + list + R"("})");
    return r.structured.contains("items") ? r.structured.at("items").as_array().size() : 0;
  }
  CallResult restore(const CallResult& edit) {
    EXPECT_TRUE(edit.structured.contains("edit_id")) << edit.text;
    return call("ha_manage_backup",
                R"({"scope":"edits","action":"restore","backup_id":")" + str(edit.structured, "edit_id") + R"("})");
  }
};

TEST_F(EverydayRestoreTest, CalendarCreateUpdateAndDeleteAreRestored) {
  start();
  CallResult made = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","summary":"Dentist",
      "start":"2026-04-14T09:00:00+00:00","end":"2026-04-14T10:00:00+00:00","location":"Main St"})");
  ASSERT_FALSE(made.is_error) << made.text;
  const std::string uid = str(made.structured.at("event"), "uid");

  CallResult moved = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","uid":")" + uid +
                                                              R"J(","summary":"Dentist (moved)",
      "start":"2026-04-15T11:00:00+00:00","end":"2026-04-15T12:00:00+00:00"})J");
  ASSERT_FALSE(moved.is_error) << moved.text;
  EXPECT_EQ(events("2026-04-13", "2026-04-17", "Dentist"),
            std::vector<std::string>{"Dentist (moved)@2026-04-15T11:00:00+00:00"});
  CallResult back = restore(moved);
  ASSERT_FALSE(back.is_error) << back.text;
  EXPECT_EQ(events("2026-04-13", "2026-04-17", "Dentist"),
            std::vector<std::string>{"Dentist@2026-04-14T09:00:00+00:00"});
  EXPECT_EQ(str(back.structured.at("event"), "location"), "Main St") << back.text;
  EXPECT_TRUE(back.structured.contains("edit_id")) << "a restore is journaled too";

  // The create undone: the event is gone; that restore undone: it is back (a new uid).
  CallResult undone = restore(made);
  ASSERT_FALSE(undone.is_error) << undone.text;
  EXPECT_TRUE(events("2026-04-13", "2026-04-17", "Dentist").empty());
  CallResult again = restore(undone);
  ASSERT_FALSE(again.is_error) << again.text;
  EXPECT_EQ(events("2026-04-13", "2026-04-17", "Dentist"),
            std::vector<std::string>{"Dentist@2026-04-14T09:00:00+00:00"});

  // A deleted series comes back with its rule.
  CallResult series = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","summary":"Yoga",
      "start":"2026-04-06T07:00:00+00:00","end":"2026-04-06T08:00:00+00:00","rrule":"FREQ=WEEKLY;COUNT=3"})");
  ASSERT_FALSE(series.is_error) << series.text;
  CallResult gone =
      call("ha_config_remove_calendar_event", R"({"entity_id":"calendar.family","uid":")" +
                                                  str(series.structured.at("event"), "uid") + R"(","confirm":true})");
  ASSERT_FALSE(gone.is_error) << gone.text;
  EXPECT_TRUE(events("2026-04-01", "2026-05-01", "Yoga").empty());
  CallResult recreated = restore(gone);
  ASSERT_FALSE(recreated.is_error) << recreated.text;
  EXPECT_EQ(events("2026-04-01", "2026-05-01", "Yoga").size(), 3u);
}

TEST_F(EverydayRestoreTest, ARecurringOccurrenceEditIsRestoredAndADeletedOccurrenceComesBackAlone) {
  start();
  CallResult series = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","summary":"Choir",
      "start":"2026-06-01T18:00:00+00:00","end":"2026-06-01T19:00:00+00:00","rrule":"FREQ=WEEKLY;COUNT=3"})");
  ASSERT_FALSE(series.is_error) << series.text;
  const std::string uid = str(series.structured.at("event"), "uid");
  CallResult late = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","uid":")" + uid +
                                                             R"J(","recurrence_id":"20260608T180000",
      "summary":"Choir (late)","start":"2026-06-08T19:00:00+00:00","end":"2026-06-08T20:00:00+00:00"})J");
  ASSERT_FALSE(late.is_error) << late.text;
  ASSERT_FALSE(restore(late).is_error);
  EXPECT_EQ(events("2026-06-01", "2026-06-30", "Choir"),
            (std::vector<std::string>{"Choir@2026-06-01T18:00:00+00:00", "Choir@2026-06-08T18:00:00+00:00",
                                      "Choir@2026-06-15T18:00:00+00:00"}));

  CallResult skipped = call("ha_config_remove_calendar_event", R"({"entity_id":"calendar.family","uid":")" + uid +
                                                                   R"(","recurrence_id":"20260615T180000",
      "confirm":true})");
  ASSERT_FALSE(skipped.is_error) << skipped.text;
  EXPECT_EQ(events("2026-06-01", "2026-06-30", "Choir").size(), 2u);
  CallResult back = restore(skipped);
  ASSERT_FALSE(back.is_error) << back.text;
  EXPECT_EQ(events("2026-06-01", "2026-06-30", "Choir").size(), 3u);
  EXPECT_TRUE(back.structured.contains("note")) << back.text;
}

TEST_F(EverydayRestoreTest, TodoAddUpdateAndRemoveAreRestored) {
  start();
  const std::size_t before = count("todo.chores");
  CallResult added = call("ha_set_todo_item", R"({"entity_id":"todo.chores","summary":"Fix the gate",
      "due_date":"2026-07-01"})");
  ASSERT_FALSE(added.is_error) << added.text;
  CallResult done = call("ha_set_todo_item", R"({"entity_id":"todo.chores","item":"Fix the gate",
      "status":"completed","rename":"Fix the garden gate","due_date":"2026-07-03","description":"Hinge"})");
  ASSERT_FALSE(done.is_error) << done.text;
  CallResult back = restore(done);
  ASSERT_FALSE(back.is_error) << back.text;
  json::value it = item("todo.chores", "Fix the gate");
  ASSERT_TRUE(it.is_object()) << back.text;
  EXPECT_EQ(str(it, "status"), "needs_action");
  EXPECT_EQ(str(it, "due"), "2026-07-01");
  EXPECT_EQ(str(it, "description"), "") << "the description the update added is cleared";

  CallResult undone = restore(added);
  ASSERT_FALSE(undone.is_error) << undone.text;
  EXPECT_TRUE(item("todo.chores", "Fix the gate").is_null());
  EXPECT_EQ(count("todo.chores"), before);

  // A removed completed item comes back completed.
  CallResult removed =
      call("ha_remove_todo_item", R"({"entity_id":"todo.shopping_list","item":"Milk","confirm":true})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  const json::value milk = removed.structured.at("item");
  EXPECT_TRUE(item("todo.shopping_list", "Milk").is_null());
  CallResult again = restore(removed);
  ASSERT_FALSE(again.is_error) << again.text;
  json::value now = item("todo.shopping_list", "Milk");
  ASSERT_TRUE(now.is_object()) << again.text;
  EXPECT_EQ(str(now, "status"), str(milk, "status"));
  EXPECT_EQ(str(again.structured.at("item"), "uid"), str(now, "uid"));
}

}  // namespace
}  // namespace hamcp::tools::testing
