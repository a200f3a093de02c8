#pragma once
// The simulator writes JSON the way Home Assistant (Python's json) does: floats
// in shortest round-trip form with a decimal point ("21.5", "100.0"), never
// Boost.JSON 1.81's exponent form ("2.15E1"). Same writer as hamcp's own wire.

#include <boost/json/value.hpp>
#include <string>

#include "json/json_text.hpp"

namespace hamcp::sim {

inline void append_json(std::string& out, const boost::json::value& v) { append_json_text(out, v); }
inline std::string to_json(const boost::json::value& v) { return json_text(v); }

}  // namespace hamcp::sim
