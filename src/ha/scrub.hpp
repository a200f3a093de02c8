#pragma once
// The one scrub for text that came from Home Assistant on its way out (tool
// results, `hamcp doctor`, errors, logs): every occurrence of the access token
// becomes "<redacted>". A Home Assistant (or a proxy in front of it) that
// echoes the Authorization header must not make hamcp print the token.
//
// Ingress: RestClient scrubs every response body and error detail, WsClient
// the auth replies. Egress: tool results and the doctor report are scrubbed
// again as a whole, so data that took another path (a WebSocket event, HA's
// own system log quoting a request) is covered too.

#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "ha/errors.hpp"
#include "ha/secret.hpp"

namespace hamcp::ha {

// Every string (keys too) inside `value`, in place. Iterative: no recursion
// on deeply nested data. True when something was redacted.
bool scrub_json(boost::json::value& value, const Secret& secret);

// True when no string or key of the JSON value that `json_text` spells can
// hold the token: the token needs no escape in JSON (printable ASCII, no quote
// or backslash), so it would appear in the text as it is, and it does not. One
// search of a text in place of a walk of its value; false means "walk it".
bool absent_from_json_text(std::string_view json_text, const Secret& secret);

// detail and target of an error.
void scrub_error(HaError& error, const Secret& secret);

}  // namespace hamcp::ha
