#pragma once
// Internal to the WebSocket registry command files (ws_*_commands.cpp): the
// command table type and the small helpers they share.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim::ws_util {

using Table = std::map<std::string, WsConnection::Handler, std::less<>>;

inline Home& home(WsConnection& c) { return c.core().store().home(); }
inline Context ctx(WsConnection& c) { return c.core().store().new_context(std::nullopt, c.core().store().user_id()); }
inline void fire(WsConnection& c, const char* type, json::object data) {
  c.core().store().fire(type, std::move(data), ctx(c));
}

inline json::value opt(const std::optional<std::string>& v) { return v ? json::value(*v) : json::value(nullptr); }
inline json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

// Optional string-or-null field: returns {present, value}.
inline std::pair<bool, std::optional<std::string>> nullable(const json::object& msg, std::string_view key) {
  const json::value* v = msg.if_contains(key);
  if (!v) return {false, std::nullopt};
  if (v->is_null()) return {true, std::nullopt};
  if (!v->is_string()) throw BadMessage{"expected str for dictionary value @ data['" + std::string(key) + "']"};
  return {true, std::string(v->get_string())};
}

}  // namespace hamcp::sim::ws_util
