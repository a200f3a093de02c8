#pragma once
// Compact JSON text for every wire hamcp writes (stdout, HTTP bodies, SSE data,
// tool text content) and for everything the simulated Home Assistant sends. Boost.JSON 1.81 writes doubles in
// scientific notation
// ("current_temperature":2.24E1, "min_temp":5E0): valid JSON, but a model
// reads it worse and it costs tokens. This writer prints the shortest form that
// round-trips (std::to_chars), the way Home Assistant itself (Python) does:
// 22.4, 5.0, 0.5. Everything else matches boost::json::serialize.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string>

namespace hamcp {

void append_json_text(std::string& out, const boost::json::value& value);
// Objects and arrays directly: passing one where a value is expected would
// copy it into a temporary json::value first.
void append_json_text(std::string& out, const boost::json::object& value);
void append_json_text(std::string& out, const boost::json::array& value);
std::string json_text(const boost::json::value& value);
std::string json_text(const boost::json::object& value);

}  // namespace hamcp
