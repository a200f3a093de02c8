#pragma once
// Internal to the radio command files: each radio's domain names (template
// arguments of radio_util::when_loaded) and its data in Home::radios, shared
// by the files a radio's commands are split across.
#include "sim/ws/ws_radio_util.hpp"

namespace hamcp::sim::radio_data {

inline constexpr char kZha[] = "zha";
inline constexpr char kThread[] = "thread";
inline constexpr char kOtbr[] = "otbr";
inline constexpr char kMatter[] = "matter";
inline constexpr char kZwave[] = "zwave_js";

inline json::object& zha(WsConnection& c) { return radio_util::data(c, kZha); }
inline json::object& thread(WsConnection& c) { return radio_util::data(c, kThread); }
inline json::object& matter(WsConnection& c) { return radio_util::data(c, kMatter); }
inline json::object& zwave(WsConnection& c) { return radio_util::data(c, kZwave); }

// A ZHA device (zha/devices' shape) by its IEEE address; null when unknown.
inline json::object* zha_device(WsConnection& c, std::string_view ieee) {
  for (auto& d : radio_util::list(zha(c), "devices"))
    if (const json::value& v = d.as_object().at("ieee"); v.is_string() && v.get_string() == ieee) return &d.as_object();
  return nullptr;
}

}  // namespace hamcp::sim::radio_data
