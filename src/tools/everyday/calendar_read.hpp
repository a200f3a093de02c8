#pragma once
// Reading a calendar's events through HA's REST API (GET
// /api/calendars/<id>?start=&end=), shared by the calendar tools: the events
// of a range in a flat shape, and one event found by uid around an instant
// (what a preview and the edit journal show).

#include <boost/asio/awaitable.hpp>
#include <string>

#include "tools/tool_env.hpp"

namespace hamcp::tools::everyday {

// Events overlapping [start, end) (epoch seconds), flat: {summary, start,
// end (date or ISO text), uid, recurrence_id?, rrule?, description?, location?}.
boost::asio::awaitable<json::array> calendar_events(ToolEnv& env, std::string entity_id, double start, double end);

// (Parameters by value: coroutines keep references to their callers' temporaries.)
// The first event with `uid` (and `recurrence_id` when not empty) within a
// year either side of `around`; null when none.
boost::asio::awaitable<json::value> find_event(ToolEnv& env, std::string entity_id, std::string uid,
                                               std::string recurrence_id, double around);

// The event that starts at `ha_event`'s dtstart with its summary (HA's
// create answers no uid, so it is read back); null when none.
boost::asio::awaitable<json::value> written_event(ToolEnv& env, std::string entity_id, json::object ha_event);

// A flat event (as calendar_events shows it) as HA's event object {summary,
// dtstart, dtend, description?, location?, rrule? (only with `with_rrule`)}.
json::object ha_event_of(const json::object& flat, bool with_rrule);
// HA's event object as a flat event (start/end for dtstart/dtend).
json::object flat_of(const json::object& ha_event);

// "2026-12-04" or "2026-12-04T09:00:00+01:00" -> epoch seconds, else a
// bad_argument naming `field`.
double time_arg(const std::string& text, std::string_view field);

}  // namespace hamcp::tools::everyday
