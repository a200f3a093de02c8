#pragma once
// Read-only mode's policy: the requests to Home Assistant known to change
// nothing. Default deny: a WebSocket command, REST request or service call
// that no rule names is a write and is refused in read-only mode. A tool that
// adds a new read request adds one line to kReadRules (read_policy.cpp).

#include <span>
#include <string_view>

namespace hamcp::tools {

// supervisor: a request to the Supervisor's API, "<METHOD> <path>" ("GET /addons").
enum class RequestKind { ws_command, ws_subscribe, rest_get, rest_post, rest_delete, service, supervisor };

std::string_view to_string(RequestKind kind);

struct ReadRule {
  RequestKind kind;
  // WebSocket type, REST path or "domain.service"; one '*' matches any text
  // ("*/list" matches "input_boolean/list" and "config/area_registry/list").
  std::string_view pattern;
};

std::span<const ReadRule> read_rules();

// True when a rule names this request (a path's query string is ignored).
bool is_known_read(RequestKind kind, std::string_view what);

}  // namespace hamcp::tools
