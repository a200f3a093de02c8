#pragma once
// A scripted, hostile Home Assistant for the HA-side fuzz targets (fuzz_ha_ws, fuzz_mirror): a real
// (Beast) WebSocket server that hamcp's real WsClient connects to through WsOptions::connector over
// an in-memory pipe (tests/support/memory_pipe.hpp), so fuzzed frames cross hamcp's real
// read/parse/dispatch path (WebSocket upgrade and HA's auth included), not a copy of it, without
// sockets: a reconnect costs no system calls. It runs on the harness's io_context, on the fuzzing
// thread next to the client: no thread hand-offs, which on a loaded 2-core machine cost
// milliseconds per round trip.
//
// What it says comes from a Script (one fuzz input):
//   auth <frame>        1st line replaces auth_required, 2nd replaces auth_ok (next connection only)
//   <type> <frame>      sent when hamcp sends a command of that type ("get_states", "subscribe_entities",
//                       "config/entity_registry/list"...), in order, all on the first such command
// In a frame, $ID becomes the id of the command being answered and $SUB the wire id of this
// connection's subscribe_entities (so scripted events reach the live subscription), $TOKEN the
// access token hamcp sent (an HA that echoes it: the harnesses check it never comes back out).
// The command kPushCommand (sent by a harness through hamcp's WsClient, on a live connection)
// delivers a script without a new sync: its subscribe_entities frames are sent as events of the
// live subscription, then, for every registry list, get_config and get_services it scripts, the
// event with which HA announces that change (entity_registry_updated, core_config_updated,
// service_registered...), so hamcp's mirror refetches it and gets the scripted frames.
// After the scripted frames the server always sends its default answer (a success result; pong for
// ping; an empty initial subscribe_entities event), so hamcp never waits for a timeout: when the
// default answer has arrived, every scripted frame before it has been dispatched.
#include <boost/asio/any_io_executor.hpp>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ha/byte_stream.hpp"

namespace hamcp::fuzz {

inline constexpr const char* kPushCommand = "fuzz/push";

struct Script {
  std::vector<std::string> auth;
  std::map<std::string, std::deque<std::string>, std::less<>> replies;
  // Splits an input into lines "<word> <frame>"; lines without a space are ignored.
  static Script parse(std::string_view input);
};

class FakeHa {
 public:
  // Serves on `executor` (lives until exit).
  explicit FakeHa(boost::asio::any_io_executor executor);
  // For WsOptions::connector: each call is a new connection to this FakeHa.
  ha::StreamConnector connector() const;
  // Replaces the script; frames of the previous one that were never sent are dropped.
  void set_script(Script script);
  // Commands answered so far (all connections), for harnesses that wait on progress.
  std::uint64_t commands_answered() const;
  // WebSocket connections accepted so far (whether or not their auth then succeeded).
  std::uint64_t connections() const;
  // Change events the last kPushCommand announced (each makes hamcp's mirror refetch one thing).
  std::uint64_t announced_by_last_push() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::fuzz
