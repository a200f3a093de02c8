#include "ha/ws_command.hpp"

namespace hamcp::ha {

namespace json = boost::json;

namespace {
// Keys no Home Assistant message carries: the mark on a message before it is
// sent, and the end event hamcp itself hands the handler.
constexpr char kMark[] = "hamcp:command_subscription";
constexpr char kEnded[] = "hamcp:ended";
}  // namespace

json::object command_subscription(json::object message) {
  message[kMark] = true;
  return message;
}

bool take_command_mark(json::object& message) { return message.erase(kMark) > 0; }

json::value ended_event(const HaError& error) {
  return json::object{{kEnded, json::object{{"cause", std::string(to_string(error.cause))},
                                            {"target", error.target},
                                            {"detail", error.detail}}}};
}

std::optional<HaError> ended_by(const json::value& event) {
  const json::object* o = event.if_object();
  const json::value* ended = o ? o->if_contains(kEnded) : nullptr;
  if (!ended || !ended->is_object()) return std::nullopt;
  const json::object& e = ended->get_object();
  return make_error(e.at("cause") == "not_connected" ? ErrorCause::not_connected : ErrorCause::connection_lost,
                    std::string(e.at("target").as_string()), std::string(e.at("detail").as_string()));
}

}  // namespace hamcp::ha
