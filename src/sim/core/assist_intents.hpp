#pragma once
// A small Assist conversation agent for the simulator: what HA's default
// agent answers to "turn on/off (the) <name>" (the entity's friendly name or
// alias; the action runs on the sim's states) and "what is the temperature in
// <area>", in conversation/process's shape (components/conversation/models.py
// ConversationResult.as_dict, helpers/intent.py IntentResponse.as_dict).
// Anything else: an error response with code no_intent_match.

#include <boost/json.hpp>
#include <optional>
#include <string>

namespace hamcp::sim {

class SimCore;

// Call with the store's mutex held (as every WebSocket command is).
boost::json::object converse(SimCore& core, const std::string& text, const std::optional<std::string>& conversation_id,
                             const std::string& language);

}  // namespace hamcp::sim
