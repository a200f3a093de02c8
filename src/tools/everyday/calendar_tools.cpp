// ha_config_get_calendar_events, ha_config_set_calendar_event,
// ha_config_remove_calendar_event: a calendar's events in a range (REST), an
// event created or updated (calendar/event/create|update; with uid +
// recurrence_id one occurrence, + recurrence_range=THISANDFUTURE it and the
// following ones) and deleted (calendar/event/delete, confirm=true; without
// it a preview). Every write is journalled with the event as it was.
#include "common/iso_time.hpp"
#include "tools/confirmation.hpp"
#include "tools/everyday/calendar_read.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/helpers/helper_ha.hpp"

namespace hamcp::tools {

namespace {

using namespace everyday;

constexpr double kWeek = 7.0 * 86400;

json::object list_calendars(const ha::Snapshot& snap) {
  json::array calendars;
  for (const auto& id : snap.states.entity_ids()) {
    if (id.rfind("calendar.", 0) != 0) continue;
    ha::EntityStatePtr s = snap.states.find(id);
    calendars.push_back(json::object{{"entity_id", id}, {"name", s->attributes.string_of("friendly_name")}});
  }
  const std::size_t count = calendars.size();
  return {{"calendars", std::move(calendars)}, {"count", count}};
}

boost::asio::awaitable<mcp::ToolResult> run_get_events(Args& args, ToolEnv& env, mcp::RequestContext&) {
  if (!args.has("entity_id")) {
    auto waiting = env.snapshot();
    ha::SnapshotPtr snap = co_await std::move(waiting);
    co_return ok(list_calendars(*snap));
  }
  auto checking = entity_arg(args, env, "calendar");
  const ha::EntityStatePtr cal = co_await std::move(checking);
  const double start = args.has("start") ? time_arg(args.str("start"), "start") : common::now_epoch_seconds();
  const double end = args.has("end") ? time_arg(args.str("end"), "end") : start + kWeek;
  if (end <= start) throw ToolException(bad_argument("end", "must be after start", "Pass an end later than start."));
  auto reading = calendar_events(env, cal->entity_id, start, end);
  json::array events = co_await std::move(reading);
  const auto limit = static_cast<std::size_t>(args.integer("max_results", 50));
  const std::size_t total = events.size();
  if (events.size() > limit) events.resize(limit);
  json::object body{{"entity_id", cal->entity_id},
                    {"start", common::format_iso_time(start)},
                    {"end", common::format_iso_time(end)},
                    {"events", std::move(events)},
                    {"total", total}};
  if (total > limit) body["truncated"] = "max_results reached: narrow start/end or raise max_results";
  co_return ok(std::move(body));
}

bool is_date(const std::string& s) { return s.size() == 10; }

// HA's event object: {summary, dtstart, dtend, description?, location?, rrule?}.
json::object event_arg(Args& args) {
  const std::string start = args.str("start"), end = args.str("end");
  const double s = time_arg(start, "start"), e = time_arg(end, "end");
  if (is_date(start) != is_date(end))
    throw ToolException(bad_argument("end", "start and end must both be dates (all day) or both date-times",
                                     "Use e.g. start=2026-12-04, end=2026-12-05 for one all-day event."));
  if (e <= s)
    throw ToolException(bad_argument("end", "must be after start", "An all-day event ends the day after it starts."));
  json::object event{{"summary", args.str("summary")}, {"dtstart", start}, {"dtend", end}};
  for (const char* key : {"description", "location", "rrule"})
    if (auto v = args.opt_str(key); v && !v->empty()) event[key] = *v;
  return event;
}

std::string scope_of(Args& args) {
  if (!args.has("recurrence_id")) return "event";
  return args.str("recurrence_range") == "THISANDFUTURE" ? "this_and_following" : "occurrence";
}

void add_occurrence(Args& args, json::object& message) {
  if (auto rid = args.opt_str("recurrence_id")) message["recurrence_id"] = *rid;
  if (auto range = args.opt_str("recurrence_range"); range && !range->empty()) {
    if (!args.has("recurrence_id"))
      throw ToolException(bad_argument("recurrence_range", "needs recurrence_id",
                                       "Pass the recurrence_id of the first occurrence to change."));
    message["recurrence_range"] = *range;
  }
}

boost::asio::awaitable<mcp::ToolResult> run_set_event(Args& args, ToolEnv& env, mcp::RequestContext&) {
  auto checking = entity_arg(args, env, "calendar");
  const ha::EntityStatePtr cal = co_await std::move(checking);
  json::object event = event_arg(args);
  const std::string uid = args.str("uid");
  json::value before = nullptr;
  json::object message{{"entity_id", cal->entity_id}, {"event", event}};
  if (uid.empty()) {
    message["type"] = "calendar/event/create";
  } else {
    auto finding = find_event(env, cal->entity_id, uid, args.str("recurrence_id"), common::now_epoch_seconds());
    before = co_await std::move(finding);
    message["type"] = "calendar/event/update";
    message["uid"] = uid;
    add_occurrence(args, message);
  }
  const std::string what = uid.empty() ? "creating the event" : "updating event " + uid;
  auto writing = ws_write(env, std::move(message), what);
  co_await std::move(writing);
  json::object body{{"entity_id", cal->entity_id}, {"action", uid.empty() ? "created" : "updated"}};
  if (!uid.empty()) body["scope"] = scope_of(args);
  auto reading = written_event(env, cal->entity_id, event);
  json::value after = co_await std::move(reading);
  body["event"] = after.is_null() ? json::value(event) : after;
  // The journal keeps flat events (as the read shows them) and the edit's scope: what a restore needs.
  json::object recorded = after.is_object() ? after.get_object() : flat_of(event);
  recorded["scope"] = uid.empty() ? "event" : scope_of(args);
  const json::value* new_uid = recorded.if_contains("uid");
  const std::string key = cal->entity_id + "/" +
                          (uid.empty() && new_uid && new_uid->is_string() ? std::string(new_uid->get_string()) : uid);
  helpers::journal(env, body, "calendar_event", key, cal->entity_id, uid.empty() ? "create" : "update",
                   std::move(before), std::move(recorded));
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_remove_event(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  auto checking = entity_arg(args, env, "calendar");
  const ha::EntityStatePtr cal = co_await std::move(checking);
  const std::string uid = args.str("uid");
  auto finding = find_event(env, cal->entity_id, uid, args.str("recurrence_id"), common::now_epoch_seconds());
  json::value event = co_await std::move(finding);
  json::object body{{"entity_id", cal->entity_id}, {"uid", uid}, {"scope", scope_of(args)}, {"event", event}};
  json::object fields = body;
  fields["deleted"] = false;
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{"delete",
                                           json::string(cal->entity_id + "/" + uid),
                                           json::object{{"deletes_event", event}, {"scope", scope_of(args)}},
                                           {},
                                           std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::object message{{"type", "calendar/event/delete"}, {"entity_id", cal->entity_id}, {"uid", uid}};
  add_occurrence(args, message);
  auto writing = ws_write(env, std::move(message), "deleting event " + uid);
  co_await std::move(writing);
  body["deleted"] = true;
  json::value recorded = event;
  if (recorded.is_object()) recorded.get_object()["scope"] = scope_of(args);
  helpers::journal(env, body, "calendar_event", cal->entity_id + "/" + uid, cal->entity_id, "delete",
                   std::move(recorded), nullptr);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_get_calendar_events_spec() {
  ToolSpec s;
  s.name = "ha_config_get_calendar_events";
  s.title = "Calendar events";
  s.description = "Events of a calendar in [start, end) (default: the next 7 days); no entity_id: the calendars.";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},
"start":{"type":"string"},"end":{"type":"string"},
"max_results":{"type":"integer","minimum":1}}})J";
  s.output_schema = R"J({"type":"object","properties":{"events":{"type":"array"}}})J";
  s.annotations = read_only();
  s.run = run_get_events;
  return s;
}

ToolSpec make_set_calendar_event_spec() {
  ToolSpec s;
  s.name = "ha_config_set_calendar_event";
  s.title = "Create or update a calendar event";
  s.description =
      "Create an event, or update one (uid); recurrence_id: one occurrence, + recurrence_range=THISANDFUTURE: it "
      "and the following. start/end: both dates (all day, end exclusive) or both date-times.";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},"summary":{"type":"string"},
"start":{"type":"string"},"end":{"type":"string"},"description":{"type":"string"},"location":{"type":"string"},
"rrule":{"type":"string","description":"e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10"},"uid":{"type":"string"},
"recurrence_id":{"type":"string"},"recurrence_range":{"type":"string","enum":["THISANDFUTURE"]}},
"required":["entity_id","summary","start","end"]})J";
  s.output_schema = R"J({"type":"object","properties":{"event":{"type":"object"}}})J";
  s.annotations = writes(false, false);
  s.also_accepts = {{"recurrence_range", R"({"enum":["THISANDFUTURE",""]})"}};  // ha-mcp: "" = this one
  s.run = run_set_event;
  return s;
}

ToolSpec make_remove_calendar_event_spec() {
  ToolSpec s;
  s.name = "ha_config_remove_calendar_event";
  s.title = "Delete a calendar event";
  s.description =
      "Delete an event (every occurrence), one occurrence (recurrence_id) or it and the following "
      "(recurrence_range=THISANDFUTURE). Without confirm=true: a preview.";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},"uid":{"type":"string"},
"recurrence_id":{"type":"string"},"recurrence_range":{"type":"string","enum":["THISANDFUTURE"]},
"confirm":{"type":"boolean"}},"required":["entity_id","uid"]})J";
  s.output_schema = R"J({"type":"object","properties":{"event":{"type":"object"}}})J";
  s.annotations = writes(true, true);
  s.also_accepts = {{"recurrence_range", R"({"enum":["THISANDFUTURE",""]})"}};  // ha-mcp: "" = this one
  s.run = run_remove_event;
  return s;
}

}  // namespace hamcp::tools
