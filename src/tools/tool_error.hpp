#pragma once
// The one error shape every entity tool returns: an isError result whose text
// and structuredContent are {"error":{"code","message","suggestion",...}}.
// A model reads the code to branch, the message to understand and the
// suggestion to recover (the next call to make).

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ha/errors.hpp"
#include "mcp/tool.hpp"

namespace hamcp::search {
class EntityIndex;
}

namespace hamcp::tools {

namespace json = boost::json;

struct ToolError {
  std::string code;        // snake_case, stable: "entity_not_found", "ha_unreachable", ...
  std::string message;     // what went wrong, one or two sentences
  std::string suggestion;  // what to do next
  json::object extra;      // more fields merged into the error object (e.g. "suggestions":[...])

  json::object to_json() const;
  mcp::ToolResult result() const;
};

// Thrown inside handlers; the family's wrapper turns it into an isError result.
class ToolException : public std::exception {
 public:
  explicit ToolException(ToolError error) : error_(std::move(error)) {}
  ToolException(std::string code, std::string message, std::string suggestion)
      : error_{std::move(code), std::move(message), std::move(suggestion), {}} {}
  const ToolError& error() const noexcept { return error_; }
  const char* what() const noexcept override { return error_.message.c_str(); }

 private:
  ToolError error_;
};

// HA failures: code from the cause ("ha_connection_refused", "ha_command_failed"),
// message = explanation (+ HA's own message when it said no), suggestion = fix.
ToolError from_ha_error(const ha::HaError& error);

// HA's own words from an error response body: the "message" of a JSON body
// ({"message":"Error rendering template: ..."}), else the text itself; one
// line, trimmed, at most `limit` bytes. Never JSON debris (quotes, braces).
std::string ha_body_message(std::string_view body, std::size_t limit = 300);

// A failed REST answer of Home Assistant as the tool's error: 401 unauthorized,
// 5xx server error, anything else a bad request; HA's message as the detail.
[[noreturn]] void throw_http_failure(int status, std::string_view body);

// Bad argument the schema cannot express (e.g. an unparsable time).
ToolError bad_argument(std::string_view field, std::string_view problem, std::string_view fix);

// An entity id that is neither in the states nor in the entity registry:
// "suggestions" holds the nearest entity ids from the search index.
ToolError unknown_entity(const search::EntityIndex& index, std::string_view entity_id,
                         std::string_view field = "entity_id");

// Home Assistant's limit on an entity id's length.
inline constexpr std::size_t kMaxEntityIdBytes = 255;

// Nearest entity ids to `text` (best first), at most `limit`; none for a text
// longer than kMaxEntityIdBytes.
json::array nearest_entities(const search::EntityIndex& index, std::string_view text, std::size_t limit = 5);

}  // namespace hamcp::tools
