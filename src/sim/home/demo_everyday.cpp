// The demo home's local calendar and to-do lists: a family calendar with
// weekly and monthly series (they start at kHomeEpoch, so "this week" always
// has events) and a one-off event, the shopping list (HA's shopping_list:
// no due dates or descriptions) and a chores list (local_todo: every field).
#include "sim/core/todo_items.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

namespace {

constexpr double kHour = 3600, kDay = 86400;

CalendarEvent event(std::string uid, std::string summary, double start, double length, std::string rrule) {
  CalendarEvent e;
  e.uid = std::move(uid);
  e.summary = std::move(summary);
  e.start = start;
  e.end = start + length;
  e.rrule = std::move(rrule);
  return e;
}

void add_list(HomeBuilder& b, const std::string& object_id, const std::string& name, const std::string& platform,
              int features, std::vector<TodoItem> items) {
  EntitySpec s;
  s.domain = "todo";
  s.object_id = object_id;
  s.original_name = name;
  s.platform = platform;
  s.state = todo::state_of(items);
  s.attributes = {{"supported_features", features}};
  const std::string eid = b.add_entity(std::move(s));
  b.home().todo_lists[eid] = std::move(items);
}

}  // namespace

void add_calendar_and_todo(HomeBuilder& b) {
  EntitySpec cal;
  cal.domain = "calendar";
  cal.object_id = "family";
  cal.original_name = "Family";
  cal.platform = "local_calendar";
  cal.state = "off";
  cal.attributes = {{"supported_features", 7}};  // create, delete, update
  const std::string eid = b.add_entity(std::move(cal));
  // 2026-01-01 was a Thursday.
  std::vector<CalendarEvent> events = {
      event("demo-bins", "Bins out", kHomeEpoch + 4 * kDay + 19 * kHour, kHour / 2, "FREQ=WEEKLY;BYDAY=MO"),
      event("demo-swim", "Emma swimming", kHomeEpoch + 5 * kDay + 16 * kHour, 1.5 * kHour, "FREQ=WEEKLY;BYDAY=TU,TH"),
      event("demo-rent", "Pay rent", kHomeEpoch, kDay, "FREQ=MONTHLY"),
      event("demo-oma", "Oma Ingrid visits", kHomeEpoch + 45 * kDay + 14 * kHour, 3 * kHour, "")};
  events[2].all_day = true;
  events[3].location = "Living room";
  b.home().calendars[eid] = std::move(events);

  using todo::kCreate, todo::kDelete, todo::kUpdate, todo::kMove;
  add_list(b, "shopping_list", "Shopping List", "shopping_list", kCreate | kDelete | kUpdate | kMove,
           {{"demo-milk", "Milk", "needs_action", "", ""},
            {"demo-bread", "Bread", "needs_action", "", ""},
            {"demo-coffee", "Coffee beans", "completed", "", ""}});
  add_list(b, "chores", "Chores", "local_todo", 127,
           {{"demo-filter", "Replace purifier filter", "needs_action", "2026-02-01", "Living room air purifier"},
            {"demo-gutter", "Clean gutters", "needs_action", "", ""}});
}

}  // namespace hamcp::sim
