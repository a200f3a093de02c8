#pragma once
// Keeps the HA-side fuzz targets fast without losing what they reach.
//
// Most mutated inputs hold a frame that is not JSON, and hamcp drops its WebSocket connection on
// such a frame by design (src/ha/ws_client.cpp: which command or event it carried is unknown).
// Every such input then costs a reconnect: TCP connect, WebSocket upgrade, auth, resubscription
// (and in fuzz_mirror a second, recovering sync), 10-50 times the cost of the input itself. So a
// campaign spent most of its CPU on reconnects (bench/fuzz/CAMPAIGN.md, "Speed").
//
// Instead, every frame of every input is parsed here with hamcp's own parser (parse_ha_json: the
// same Boost.JSON code and depth limit, so its coverage still guides the fuzzer), and only 1 input
// in `one_in` (chosen by a hash of the input: deterministic, so replays and minimisation agree)
// is sent as written, connection-breaking frames and scripted handshakes included; the others are
// sent without them. The drop, the failure of what was in flight, the reconnect and the recovery
// oracles still run on every kept input, with the CPU they used to share with everything else.
// The hand-written seeds that test those paths (auth_*, echo_auth_*, echo_hello, malformed) end
// with a line "#as-written-N" (no space: Script::parse ignores it) that puts them on the kept side.
#include <cstdint>
#include <string_view>

#include "fake_ha.hpp"

namespace hamcp::fuzz {

// FNV-1a of the input bytes.
std::uint32_t input_hash(std::string_view input);

// Would hamcp drop the connection on this frame? True when it is not JSON after FakeHa's
// substitutions ($ID, $SUB: numbers; $TOKEN: the token). Nesting beyond the depth limit is not a
// drop (hamcp rejects only that message), so it does not count.
bool frame_breaks_connection(std::string_view frame);

// Unless this input is one of the 1 in `one_in` kept as written (true is returned then), removes
// from `script` its handshake lines and the frames that would break the connection.
bool sample_connection_breakers(Script& script, std::string_view input, std::uint32_t one_in);

}  // namespace hamcp::fuzz
