#pragma once
// JSON text the way Home Assistant (Python's json) writes it: floats in
// shortest round-trip form with a decimal point ("21.5", "0.0", "100.0"),
// not Boost.JSON 1.81's exponent form ("2.15E1"). Used for everything the
// simulator sends.

#include <string>

#include <boost/json/value.hpp>

namespace hamcp::sim {

void append_json(std::string& out, const boost::json::value& v);
std::string to_json(const boost::json::value& v);

}  // namespace hamcp::sim
