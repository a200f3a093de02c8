#include "ha/ws_command.hpp"

#include "common/json_fields.hpp"

namespace hamcp::ha {

namespace json = boost::json;

namespace {
// Keys no Home Assistant message carries: the mark on a message before it is
// sent, and the end event hamcp itself hands the handler.
constexpr char kMark[] = "hamcp:command_subscription";
constexpr char kEnded[] = "hamcp:ended";
constexpr char kRefusalMark[] = "hamcp:refusal_as_value";
constexpr char kRefused[] = "hamcp:refused";

// An error as the value {key: {cause, target, detail, ha_code}}.
json::value error_value(const char* key, const HaError& error) {
  return json::object{{key, json::object{{"cause", std::string(to_string(error.cause))},
                                         {"target", error.target},
                                         {"detail", error.detail},
                                         {"ha_code", error.ha_code}}}};
}

const json::object* error_fields(const json::value& value, const char* key) {
  const json::object* o = value.if_object();
  const json::value* fields = o ? o->if_contains(key) : nullptr;
  return fields ? fields->if_object() : nullptr;
}

}  // namespace

json::object command_subscription(json::object message) {
  message[kMark] = true;
  return message;
}

bool take_command_mark(json::object& message) { return message.erase(kMark) > 0; }

json::value ended_event(const HaError& error) { return error_value(kEnded, error); }

std::optional<HaError> ended_by(const json::value& event) {
  const json::object* e = error_fields(event, kEnded);
  if (!e) return std::nullopt;
  return make_error(
      string_or_empty(*e, "cause") == "not_connected" ? ErrorCause::not_connected : ErrorCause::connection_lost,
      string_or_empty(*e, "target"), string_or_empty(*e, "detail"));
}

json::object refusal_as_value(json::object message) {
  message[kRefusalMark] = true;
  return message;
}

bool take_refusal_mark(json::object& message) { return message.erase(kRefusalMark) > 0; }

json::value refusal_value(const HaError& error) { return error_value(kRefused, error); }

std::optional<HaError> refused_by(const json::value& result) {
  const json::object* e = error_fields(result, kRefused);
  if (!e) return std::nullopt;
  HaError error = make_error(ErrorCause::command_failed, string_or_empty(*e, "target"), string_or_empty(*e, "detail"));
  error.ha_code = string_or_empty(*e, "ha_code");
  return error;
}

}  // namespace hamcp::ha
