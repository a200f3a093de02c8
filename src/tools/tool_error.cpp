#include "tools/tool_error.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "json/json_text.hpp"
#include "mcp/echo.hpp"
#include "search/entity_index.hpp"

namespace hamcp::tools {

json::object ToolError::to_json() const {
  json::object e;
  e.reserve(3 + extra.size());
  e.emplace("code", code);
  e.emplace("message", message);
  if (!suggestion.empty()) e.emplace("suggestion", suggestion);
  for (const auto& kv : extra) e.emplace(kv.key(), kv.value());
  json::object wrapper;
  wrapper.emplace("error", std::move(e));
  return wrapper;
}

mcp::ToolResult ToolError::result() const {
  json::object body = to_json();
  mcp::ToolResult r = mcp::ToolResult::error(json_text(body));
  r.structured_content = std::move(body);
  return r;
}

ToolError from_ha_error(const ha::HaError& error) {
  ToolError e;
  e.code = "ha_" + std::string(ha::to_string(error.cause));
  e.message = error.explanation();
  // When HA itself refused the request its words are the most useful part.
  if ((error.cause == ha::ErrorCause::command_failed || error.cause == ha::ErrorCause::bad_request) &&
      !error.detail.empty())
    e.message += " Home Assistant said: " + error.detail;
  e.suggestion = error.fix();
  if (error.cause == ha::ErrorCause::command_failed && error.ha_code == "unauthorized") {
    // HA's own permission check: the (signed-in) user lacks the rights, e.g. an admin-only command.
    e.code = "ha_not_permitted";
    e.message =
        "Home Assistant refused this for your Home Assistant user (it needs more rights, e.g. an "
        "administrator). Home Assistant said: " +
        error.detail;
    e.suggestion = "Ask a Home Assistant administrator to do it, or sign in as a user with those rights.";
  }
  if (!error.ha_code.empty()) e.extra.emplace("ha_code", error.ha_code);
  if (error.retryable()) e.extra.emplace("retryable", true);
  return e;
}

std::string ha_body_message(std::string_view body, std::size_t limit) {
  std::string text(body);
  boost::system::error_code ec;
  const json::value parsed = json::parse(body, ec);
  if (!ec) {
    const json::value* message = parsed.is_object() ? parsed.get_object().if_contains("message") : &parsed;
    text = message && message->is_string() ? std::string(message->get_string()) : std::string();
  }
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  text = text.substr(first, text.find_last_not_of(' ') - first + 1);
  if (text.size() > limit) text = mcp::echo_excerpt(text, limit);
  return text;
}

ToolError bad_argument(std::string_view field, std::string_view problem, std::string_view fix) {
  return ToolError{
      "invalid_argument", "arguments." + std::string(field) + ": " + std::string(problem), std::string(fix), {}};
}

json::array nearest_entities(const search::EntityIndex& index, std::string_view text, std::size_t limit) {
  // Home Assistant entity ids are at most 255 bytes: a longer text is near
  // nothing, and fuzzy-matching megabytes of it would stall the I/O thread.
  if (text.size() > kMaxEntityIdBytes) return {};
  search::Query q;
  // "light.kitchn" -> "light kitchn": the index tokenises ids itself, but a
  // domain prefix that is itself mistyped must not veto the object id.
  q.text = std::string(text);
  q.limit = limit;
  q.include_hidden = true;
  json::array out;
  for (const auto& hit : index.query(q).hits) out.emplace_back(hit.entity_id);
  if (out.empty()) {
    std::string loose(text);
    for (char& c : loose)
      if (c == '.' || c == '_') c = ' ';
    q.text = loose;
    for (const auto& hit : index.query(q).hits) out.emplace_back(hit.entity_id);
  }
  return out;
}

ToolError unknown_entity(const search::EntityIndex& index, std::string_view entity_id, std::string_view field) {
  ToolError e;
  e.code = "entity_not_found";
  e.message = "No entity " + mcp::echo_excerpt(entity_id) + " in Home Assistant.";
  json::array near = nearest_entities(index, entity_id);
  if (!near.empty()) {
    e.suggestion = "Did you mean " + std::string(near.front().as_string()) +
                   "? Use an id from suggestions, or ha_search to find the entity.";
    e.extra.emplace("suggestions", std::move(near));
  } else {
    e.suggestion = "Use ha_search to find the entity's exact id.";
  }
  e.extra.emplace("field", field);
  return e;
}

void throw_http_failure(int status, std::string_view body) {
  ha::HaError e;
  e.cause = status == 401   ? ha::ErrorCause::unauthorized
            : status >= 500 ? ha::ErrorCause::server_error
                            : ha::ErrorCause::bad_request;
  e.http_status = status;
  e.detail = ha_body_message(body);
  throw ToolException(from_ha_error(e));
}

}  // namespace hamcp::tools
