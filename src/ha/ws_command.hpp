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

}  // namespace hamcp::ha
