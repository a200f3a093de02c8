#pragma once
// The simulator's names for the shared ISO-time helpers (src/common/iso_time.hpp), in its
// Timestamp unit (seconds since the epoch).

#include <string>

#include "common/iso_time.hpp"
#include "sim/home/home_model.hpp"

namespace hamcp::sim {

inline std::string iso_time(Timestamp t) { return common::format_iso_time(t); }
using common::parse_iso_time;
inline Timestamp now_timestamp() { return common::now_epoch_seconds(); }

}  // namespace hamcp::sim
