#pragma once
// Reading one member of a JSON object received from Home Assistant or a client,
// where a missing or mistyped member means "not given".

#include <boost/json/object.hpp>
#include <string>
#include <string_view>

namespace hamcp {

// o[key] when it is a string, else "".
inline std::string string_or_empty(const boost::json::object& o, std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

}  // namespace hamcp
