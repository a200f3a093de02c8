// WebSocket commands of HA's calendar (calendar/event/create|update|delete)
// over the simulator's local calendars (Home::calendars). HA 2026.2
// calendar/__init__.py: an unknown entity is not_found "Entity not found", the
// calendar's own refusal (no such uid or instance) is "failed" with its
// message, a malformed event invalid_format. Edits of one instance and
// this-and-future edits follow local_calendar: an instance edit excludes it
// from the series and stores the edited copy under the series' uid with its
// recurrence_id; a this-and-future edit ends the series before the instance
// (UNTIL) and starts a new series there (a new uid).
#include <algorithm>

#include "common/iso_time.hpp"
#include "sim/core/calendar_rules.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

std::vector<CalendarEvent>* calendar_of(WsConnection& c, int64_t id, const std::string& entity_id) {
  auto it = home(c).calendars.find(entity_id);
  if (it == home(c).calendars.end() || !c.core().store().get(entity_id)) {
    c.send_error(id, "not_found", "Entity not found");
    return nullptr;
  }
  return &it->second;
}

bool is_date(const std::string& s) { return s.size() == 10; }

Timestamp event_time(const std::string& text, const char* key) {
  auto t = common::parse_iso_time(text);
  if (!t)
    throw BadMessage{"Invalid datetime specified: " + text + " for dictionary value @ data['event']['" + key + "']"};
  return *t;
}

// The `event` member as a stored event (uid left empty).
CalendarEvent parse_event(const json::object& msg) {
  const json::value* ev = msg.if_contains("event");
  if (!ev || !ev->is_object()) throw BadMessage{"required key not provided @ data['event']"};
  const json::object& o = ev->get_object();
  CalendarEvent e;
  e.summary = req_string(o, "summary");
  const std::string start = req_string(o, "dtstart"), end = req_string(o, "dtend");
  if (is_date(start) != is_date(end))
    throw BadMessage{"Expected all values to be the same type for dictionary value @ data['event']"};
  e.all_day = is_date(start);
  e.start = event_time(start, "dtstart");
  e.end = event_time(end, "dtend");
  if (e.end <= e.start)
    throw BadMessage{"Expected end time to be after start time for dictionary value @ data['event']"};
  e.description = opt_string(o, "description").value_or("");
  e.location = opt_string(o, "location").value_or("");
  e.rrule = opt_string(o, "rrule").value_or("");
  if (!e.rrule.empty()) {
    std::string error;
    if (!calendar::parse_rrule(e.rrule, error))
      throw BadMessage{error + " for dictionary value @ data['event']['rrule']"};
  }
  return e;
}

std::string range_of(const json::object& msg) {
  const std::string range = opt_string(msg, "recurrence_range").value_or("");
  if (!range.empty() && range != "THISANDFUTURE")
    throw BadMessage{"value must be one of ['', 'THISANDFUTURE'] for dictionary value @ data['recurrence_range']"};
  return range;
}

// The series (or single event) with `uid`, not an edited instance.
CalendarEvent* master(std::vector<CalendarEvent>& events, const std::string& uid) {
  for (auto& e : events)
    if (e.uid == uid && e.recurrence_id.empty()) return &e;
  return nullptr;
}

void erase_instance_copies(std::vector<CalendarEvent>& events, const std::string& uid, const std::string& rid) {
  events.erase(std::remove_if(events.begin(), events.end(),
                              [&](const CalendarEvent& e) { return e.uid == uid && e.recurrence_id == rid; }),
               events.end());
}

// Resolves (uid, recurrence_id) to the series and the instance start; sends "failed" and returns false otherwise.
bool find_instance(WsConnection& c, int64_t id, std::vector<CalendarEvent>& events, const std::string& uid,
                   const std::optional<std::string>& rid, CalendarEvent*& series, Timestamp& start) {
  series = master(events, uid);
  const bool any = std::any_of(events.begin(), events.end(), [&](const CalendarEvent& e) { return e.uid == uid; });
  if (!any) {
    c.send_error(id, "failed", "No existing event with uid " + uid);
    return false;
  }
  if (!rid) return true;
  const auto t = calendar::parse_ical_time(*rid);
  const bool edited_copy = std::any_of(events.begin(), events.end(),
                                       [&](const CalendarEvent& e) { return e.uid == uid && e.recurrence_id == *rid; });
  if (!t || !series || series->rrule.empty() || (!calendar::occurs_at(*series, *t) && !edited_copy)) {
    c.send_error(id, "failed", "No existing event with uid " + uid + " recurrence_id " + *rid);
    return false;
  }
  start = *t;
  return true;
}

void end_series_before(CalendarEvent& series, Timestamp instance) {
  const Timestamp until = series.all_day ? instance - 86400 : instance - 1;
  series.rrule = calendar::with_until(series.rrule, until, series.all_day);
}

void event_create(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string entity_id = req_string(msg, "entity_id");
  CalendarEvent e = parse_event(msg);
  auto* events = calendar_of(c, id, entity_id);
  if (!events) return;
  e.uid = c.core().store().new_context().id;
  events->push_back(std::move(e));
  c.send_result(id, nullptr);
}

void event_delete(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string entity_id = req_string(msg, "entity_id"), uid = req_string(msg, "uid");
  const auto rid = opt_string(msg, "recurrence_id");
  const std::string range = range_of(msg);
  auto* events = calendar_of(c, id, entity_id);
  if (!events) return;
  CalendarEvent* series = nullptr;
  Timestamp start = 0;
  if (!find_instance(c, id, *events, uid, rid, series, start)) return;
  if (!rid || (range == "THISANDFUTURE" && series->start == start)) {
    events->erase(std::remove_if(events->begin(), events->end(), [&](const CalendarEvent& e) { return e.uid == uid; }),
                  events->end());
  } else if (range == "THISANDFUTURE") {
    end_series_before(*series, start);
    events->erase(std::remove_if(events->begin(), events->end(),
                                 [&](const CalendarEvent& e) {
                                   return e.uid == uid && !e.recurrence_id.empty() &&
                                          calendar::parse_ical_time(e.recurrence_id).value_or(0) >= start;
                                 }),
                  events->end());
  } else {
    series->excluded.push_back(start);
    erase_instance_copies(*events, uid, *rid);
  }
  c.send_result(id, nullptr);
}

void event_update(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string entity_id = req_string(msg, "entity_id"), uid = req_string(msg, "uid");
  const auto rid = opt_string(msg, "recurrence_id");
  const std::string range = range_of(msg);
  CalendarEvent edited = parse_event(msg);
  auto* events = calendar_of(c, id, entity_id);
  if (!events) return;
  CalendarEvent* series = nullptr;
  Timestamp start = 0;
  if (!find_instance(c, id, *events, uid, rid, series, start)) return;
  if (!rid || (range == "THISANDFUTURE" && series->start == start)) {
    if (!series) return c.send_error(id, "failed", "No existing event with uid " + uid);
    edited.uid = uid;
    *series = std::move(edited);
  } else if (range == "THISANDFUTURE") {
    const std::string original_rule = series->rrule;  // the new series repeats as the old did, unless told
    end_series_before(*series, start);
    if (edited.rrule.empty()) edited.rrule = original_rule;
    edited.uid = c.core().store().new_context().id;
    events->push_back(std::move(edited));
  } else {
    series->excluded.push_back(start);
    erase_instance_copies(*events, uid, *rid);
    edited.uid = uid;
    edited.recurrence_id = *rid;
    edited.rrule.clear();
    events->push_back(std::move(edited));
  }
  c.send_result(id, nullptr);
}

}  // namespace

void register_calendar_commands(Table& t) {
  t["calendar/event/create"] = event_create;
  t["calendar/event/update"] = event_update;
  t["calendar/event/delete"] = event_delete;
}

}  // namespace hamcp::sim
