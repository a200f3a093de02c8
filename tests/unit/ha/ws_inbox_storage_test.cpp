// A big message from Home Assistant is parsed into a MessageArena of its own
// (ha_json.hpp) and must reach its handler in that arena. json::value's
// assignment keeps the target's storage and copies into it: the inbox's slot
// (malloc) used to receive the arena DOM by assignment, which copied the
// initial states of a 100k-entity home node by node (~70 MB of small blocks,
// freed after the sync as holes among what the mirror keeps: RSS 163 MB
// instead of 145).
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <cstring>
#include <string>

#include "ha/detail/ha_json.hpp"
#include "ha/detail/ws_calls.hpp"
#include "ha/detail/ws_inbox.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::detail;
namespace json = boost::json;

namespace {

bool in_default_storage(const json::value& v) { return v.storage().get() == json::storage_ptr().get(); }

// A subscribe_entities event with n entities: bigger than kArenaMessageBytes from ~3,000.
std::string entities_event(std::uint64_t id, int n) {
  std::string out = R"({"id":)" + std::to_string(id) + R"(,"type":"event","event":{"a":{)";
  for (int i = 0; i < n; ++i) {
    if (i) out += ',';
    out += R"("light.l)" + std::to_string(i) + R"(":{"s":"on","a":{"friendly_name":"Lamp )" + std::to_string(i) +
           R"(","brightness":128},"c":"01HXYZ","lc":1700000000.5})";
  }
  return out + "}}}";
}

}  // namespace

TEST(AdoptValue, TakesTheSourcesStorageInsteadOfCopying) {
  json::storage_ptr arena = make_message_arena();
  json::value src = json::parse(R"({"a":[1,2,{"b":"text long enough not to be short"}]})", arena);
  const json::key_value_pair* table = src.as_object().begin();  // the object's table, in the arena
  json::value dst;                                              // default storage, as a Slot's value
  adopt_value(dst, std::move(src));
  EXPECT_EQ(dst.storage().get(), arena.get());
  EXPECT_EQ(dst.as_object().begin(), table) << "the table itself moved, not a copy of it";
  EXPECT_EQ(json::serialize(dst), R"({"a":[1,2,{"b":"text long enough not to be short"}]})");
}

TEST(WsInboxStorage, ABigMessageStaysInItsArena) {
  const std::string text = entities_event(7, 5000);
  ASSERT_GE(text.size(), kArenaMessageBytes);
  Slot slot;
  WsInbox::parse_text(slot, text);
  ASSERT_FALSE(slot.parse_error);
  EXPECT_FALSE(in_default_storage(slot.value)) << "copied out of the message's arena";
  EXPECT_EQ(slot.value.at("event").at("a").as_object().size(), 5000u);
}

// Through the inbox: the subscription's handler gets the event in the arena,
// also when the event is coalesced with its subscription's result (the
// events of such a frame are kept aside in a new array first).
TEST(WsInboxStorage, TheHandlerReceivesABigEventInItsArena) {
  for (const bool coalesced : {false, true}) {
    boost::asio::io_context io;
    ConnectionSettings settings;
    WsCalls calls{io.get_executor()};
    WsInbox inbox{calls, settings, std::size_t{1} << 30};  // parsed here, not by a worker
    std::size_t entities = 0;
    bool in_arena = false;
    const std::uint64_t wire_id = 1;
    calls.add_subscription(
        json::object{{"type", "subscribe_entities"}},
        [&](json::value& ev, bool) {
          entities = ev.at("a").as_object().size();
          in_arena = !in_default_storage(ev);
        },
        wire_id);
    const std::string event = entities_event(wire_id, 5000);
    const std::string ok = R"({"id":1,"type":"result","success":true,"result":null})";
    const std::string frame = coalesced ? "[" + ok + "," + event + "]" : event;
    boost::beast::flat_buffer buffer;
    auto space = buffer.prepare(frame.size());
    std::memcpy(space.data(), frame.data(), frame.size());
    buffer.commit(frame.size());
    EXPECT_TRUE(inbox.receive(buffer).empty());
    EXPECT_EQ(entities, 5000u) << "coalesced: " << coalesced;
    EXPECT_TRUE(in_arena) << "coalesced: " << coalesced;
  }
}
