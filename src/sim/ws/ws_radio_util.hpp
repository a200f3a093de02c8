#pragma once
// Internal to the radio command files (ws_{zha,zwave,thread,matter}_commands.cpp):
// whether the integration is loaded, and its data in Home::radios.
#include <algorithm>
#include <cstdint>
#include <string_view>

#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim::radio_util {

// A radio's commands exist only while a config entry of its domain does: on a
// Home Assistant without the integration every one of them is unknown_command.
inline bool loaded(WsConnection& c, std::string_view domain) {
  for (const auto& e : ws_util::home(c).config_entries) {
    const json::value* d = e.at("entry").as_object().if_contains("domain");
    if (d && d->is_string() && d->get_string() == domain) return true;
  }
  return false;
}

// The radio's data (Home::radios[key]), created empty when absent.
inline json::object& data(WsConnection& c, std::string_view key) {
  json::value& v = ws_util::home(c).radios[key];
  if (!v.is_object()) v = json::object{};
  return v.as_object();
}

inline json::array& list(json::object& o, std::string_view key) {
  json::value& v = o[key];
  if (!v.is_array()) v = json::array{};
  return v.as_array();
}

inline std::int64_t req_int(const json::object& msg, std::string_view key) {
  const json::value* v = msg.if_contains(key);
  if (!v) throw BadMessage{"required key not provided @ data['" + std::string(key) + "']"};
  if (!v->is_int64()) throw BadMessage{"expected int for dictionary value @ data['" + std::string(key) + "']"};
  return v->get_int64();
}

// Wraps a handler: unknown_command while `domain` has no config entry.
template <const char* Domain, void (*Handler)(WsConnection&, int64_t, const json::object&)>
void when_loaded(WsConnection& c, int64_t id, const json::object& msg) {
  if (!loaded(c, Domain)) return c.send_error(id, "unknown_command", "Unknown command.");
  Handler(c, id, msg);
}

}  // namespace hamcp::sim::radio_util
