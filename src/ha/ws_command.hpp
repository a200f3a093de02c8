#pragma once
// Command subscriptions. WsClient re-sends every subscription on a reconnect,
// which is right for subscriptions to state and events (subscribe_events,
// subscribe_entities, ...). A subscribing command that acts on Home Assistant
// and streams its progress (zha/devices/reconfigure, zwave_js/add_node) must
// never run twice, so it is marked before WsClient::subscribe / HaClient::
// subscribe (the mark is taken off, never sent):
//   auto handle = co_await ws.subscribe(ha::command_subscription(msg), handler);
// Never re-sent. When its connection drops it ends: its handler gets one last
// event, for which ended_by() answers the error (connection_lost; not_connected
// when the client stops), and nothing after it; a drop before HA confirmed it
// fails subscribe() with connection_lost instead.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>

#include "ha/errors.hpp"

namespace hamcp::ha {

// message, marked as a command subscription.
boost::json::object command_subscription(boost::json::object message);
// Takes the mark off message; true if it was there (WsClient).
bool take_command_mark(boost::json::object& message);
// The last event of a command subscription its connection ended (WsClient).
boost::json::value ended_event(const HaError& error);
// For an event of a command subscription: the error that ended it, or nullopt
// for HA's own events.
std::optional<HaError> ended_by(const boost::json::value& event);

// A command HA may refuse as a normal answer (lovelace/config of a dashboard
// never saved: config_not_found). Marked, WsClient::command returns HA's refusal
// (command_failed) as a value instead of throwing it; refused_by() reads it.
// Other failures (timeout, connection lost) still throw. The mark is never sent.
//   json::value v = co_await ha.command(ha::refusal_as_value(std::move(msg)));
//   if (auto no = ha::refused_by(v)) ...
boost::json::object refusal_as_value(boost::json::object message);
// Takes the mark off message; true if it was there (WsClient).
bool take_refusal_mark(boost::json::object& message);
// HA's refusal as the value command() returns for a marked command (WsClient).
boost::json::value refusal_value(const HaError& error);
// For the result of a marked command: HA's refusal, or nullopt for a result.
std::optional<HaError> refused_by(const boost::json::value& result);

}  // namespace hamcp::ha
