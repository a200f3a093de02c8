// Walking a big JSON array or object one element at a time (registry lists,
// initial states), and handing a result over as text (WsClient::command_raw).
#include "ha/detail/json_items.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "ha/detail/ws_calls.hpp"
#include "ha/detail/ws_inbox.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::detail;
namespace json = boost::json;

namespace {

std::vector<std::string> items_of(std::string_view text, boost::system::error_code& ec) {
  std::vector<std::string> out;
  for_each_item(
      text, [&](json::value& v) { out.push_back(json::serialize(v)); }, ec);
  return out;
}

}  // namespace

TEST(JsonItems, WalksEveryItemOfAnArrayInOrder) {
  boost::system::error_code ec;
  const auto items = items_of(R"( [ {"a":1} , 2,"x]", [3,[4]] ,null,-5e3 ,true] )", ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(items, (std::vector<std::string>{R"({"a":1})", "2", R"("x]")", "[3,[4]]", "null", "-5E3", "true"}));
}

TEST(JsonItems, EmptyArrayHasNoItems) {
  boost::system::error_code ec;
  EXPECT_TRUE(items_of(" [ ] ", ec).empty());
  EXPECT_FALSE(ec);
}

TEST(JsonItems, MalformedListsFailWithAnError) {
  for (const char* bad : {"", "{}", "[1 2]", "[1,]", "[1", "[1]x", "[1],[2]", "[,1]", R"([{"a":}])", "[01]"}) {
    boost::system::error_code ec;
    const bool ok = for_each_item(
        bad, [](json::value&) {}, ec);
    EXPECT_FALSE(ok) << bad;
    EXPECT_TRUE(ec) << bad;
  }
}

TEST(JsonItems, DeepItemsStopAtHomeAssistantsDepthLimit) {
  const std::string deep = "[" + std::string(300, '[') + std::string(300, ']') + "]";
  boost::system::error_code ec;
  EXPECT_FALSE(for_each_item(
      deep, [](json::value&) {}, ec));
  EXPECT_EQ(ec, json::error::too_deep);
}

TEST(JsonItems, BigItemsSpillOutOfTheScratchArena) {
  std::string big = R"([{"pad":")" + std::string(100000, 'p') + R"("},{"n":1}])";
  boost::system::error_code ec;
  const auto items = items_of(big, ec);
  ASSERT_FALSE(ec);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].size(), 100000u + 10);
}

// An item's DOM is built in the walk's scratch arena, not by malloc: the
// parser's constructor takes only its temporary stack's storage, so without
// reset() every key and string of a 100k-entry registry list was a malloc
// and a free (heaptrack: 3.26M keys and 1.1M strings through a 100k sync).
TEST(JsonItems, ItemsAreBuiltInTheScratchArena) {
  boost::system::error_code ec;
  int seen = 0;
  const json::storage_ptr heap;
  const bool ok = for_each_item(R"([{"name":"a string longer than the short buffer","list":[1,2]},{"b":"x"}])",
                                [&](json::value& v) {
                                  ++seen;
                                  EXPECT_NE(v.storage().get(), heap.get());
                                  for (const auto& kv : v.as_object())
                                    EXPECT_NE(kv.value().storage().get(), heap.get()) << kv.key();
                                },
                                ec);
  ASSERT_TRUE(ok) << ec.message();
  EXPECT_EQ(seen, 2);
}

TEST(JsonItems, WalksMembersWithEscapedKeys) {
  std::vector<std::pair<std::string, std::string>> seen;
  boost::system::error_code ec;
  const bool ok =
      for_each_member(R"({"light.a":{"s":"on"}, "sensor.\u00e9\"q" : 5 })",
                      [&](std::string_view key, json::value& v) { seen.emplace_back(key, json::serialize(v)); }, ec);
  ASSERT_TRUE(ok) << ec.message();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].first, "light.a");
  EXPECT_EQ(seen[1].first, "sensor.\xc3\xa9\"q");
  EXPECT_EQ(seen[1].second, "5");
  for (const char* bad : {R"({"a" 1})", R"({1:2})", R"({"a":1,})", "[]"}) {
    EXPECT_FALSE(for_each_member(
        bad, [](std::string_view, json::value&) {}, ec))
        << bad;
  }
}

TEST(JsonItems, ValueLengthStopsAfterOneValidValue) {
  EXPECT_EQ(json_value_length(R"([1,{"a":"]}"}]})"), 14u);
  EXPECT_EQ(json_value_length("123}"), 3u);
  EXPECT_EQ(json_value_length(R"([1,2)"), std::nullopt);
  EXPECT_EQ(json_value_length(R"([1,,2]})"), std::nullopt);
}

namespace {

// A command_raw() waiting in a WsCalls, and the inbox that answers it.
struct RawFixture {
  boost::asio::io_context io;
  ConnectionSettings settings;
  WsCalls calls{io.get_executor()};
  WsInbox inbox;
  std::uint64_t id = 0;
  std::shared_ptr<Waiter> waiter;

  explicit RawFixture(std::size_t offload_bytes = 1 << 20) : inbox{calls, settings, offload_bytes} {
    waiter = calls.send(json::object{{"type", "config/entity_registry/list"}}, id);
    waiter->wants_text = true;
  }
  std::vector<ParseJob> receive(const std::string& frame) {
    boost::beast::flat_buffer buffer;
    auto space = buffer.prepare(frame.size());
    std::memcpy(space.data(), frame.data(), frame.size());
    buffer.commit(frame.size());
    return inbox.receive(buffer);
  }
};

std::string result_json(std::uint64_t id, const std::string& result) {
  return R"({"id":)" + std::to_string(id) + R"(,"type":"result","success":true,"result":)" + result + "}";
}

}  // namespace

TEST(WsRawResult, HomeAssistantsLayoutIsHandedOverAsTheFramesOwnText) {
  RawFixture f;
  f.receive(R"({"id":1,"type":"result","success":true,"result":[{"entity_id":"light.a"},"}"]} )");
  ASSERT_TRUE(f.waiter->raw_result);
  EXPECT_EQ(f.waiter->raw_result->text, R"([{"entity_id":"light.a"},"}"])");
  EXPECT_FALSE(f.waiter->result);
}

TEST(WsRawResult, AnyOtherLayoutIsParsedAndStillHandedOverAsText) {
  // Coalesced into an array, a member after "result", a result that is not
  // valid JSON up to the closing brace: never a view that cuts a value.
  for (const std::string& frame : {
           std::string(R"([{"id":1,"type":"result","success":true,"result":[1,2]}])"),
           std::string(R"({"id":1,"type":"result","success":true,"result":[1,2],"x":[3]})"),
           std::string(R"({"type":"result","id":1,"success":true,"result":[1,2]})"),
       }) {
    RawFixture f;
    f.receive(frame);
    ASSERT_TRUE(f.waiter->raw_result) << frame;
    EXPECT_EQ(f.waiter->raw_result->text, "[1,2]") << frame;
  }
}

// Two registry lists coalesced into one big frame: each is handed over as a
// view into that frame (one owner), not parsed and serialised back (an
// owner of its own per result).
TEST(WsRawResult, ACoalescedBigFrameHandsEachWaitedResultOverInPlace) {
  RawFixture f(64);
  std::uint64_t second_id = 0;
  auto second = f.calls.send(json::object{{"type", "config/device_registry/list"}}, second_id);
  second->wants_text = true;
  const std::string a = R"([{"entity_id":"light.a","name":null},{"entity_id":"light.b"}])";
  const std::string b = R"([{"id":"d1","name":"Lamp \"x\""}])";
  EXPECT_TRUE(f.receive("[" + result_json(f.id, a) + " , " + result_json(second_id, b) + "]").empty());
  ASSERT_TRUE(f.waiter->raw_result);
  ASSERT_TRUE(second->raw_result);
  EXPECT_EQ(f.waiter->raw_result->text, a);
  EXPECT_EQ(second->raw_result->text, b);
  EXPECT_EQ(f.waiter->raw_result->owner, second->raw_result->owner);
}

// A subscription's result coalesced with its big initial event: the result
// is answered at once; only the event waits for its parse elsewhere.
TEST(WsRawResult, ACoalescedResultDoesNotWaitForABigEventsParse) {
  RawFixture f(64);
  std::uint64_t sub_id = 0;
  auto sub = f.calls.send(json::object{{"type", "subscribe_entities"}}, sub_id);
  const std::string event =
      R"({"id":)" + std::to_string(sub_id) + R"(,"type":"event","event":{"a":{"light.a":{"s":"on","a":{}}}}})";
  const std::string ok = R"({"id":)" + std::to_string(sub_id) + R"(,"type":"result","success":true,"result":null})";
  std::vector<ParseJob> jobs = f.receive("[" + ok + "," + event + "]");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].text, event);
  EXPECT_TRUE(sub->done());
  EXPECT_FALSE(f.waiter->done());
}

// Not a well-formed array, or small: the frame is parsed whole as before.
TEST(WsRawResult, AMalformedCoalescedFrameIsParsedWhole) {
  RawFixture f(16);
  const std::string frame = "[" + result_json(f.id, "[1,2]") + ",{";
  std::vector<ParseJob> jobs = f.receive(frame);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].text, frame);
}

TEST(WsRawResult, AFailedCommandIsAnErrorNotText) {
  RawFixture f;
  f.receive(R"({"id":1,"type":"result","success":false,"error":{"code":"unknown_command","message":"no"}})");
  EXPECT_FALSE(f.waiter->raw_result);
  ASSERT_TRUE(f.waiter->error);
  EXPECT_EQ(f.waiter->error->ha_code, "unknown_command");
}

TEST(WsRawResult, OtherCommandsStillGetTheirParsedResult) {
  RawFixture f;
  std::uint64_t other = 0;
  auto plain = f.calls.send(json::object{{"type", "get_config"}}, other);
  f.receive(R"({"id":2,"type":"result","success":true,"result":{"version":"1"}})");
  ASSERT_TRUE(plain->result);
  EXPECT_EQ(plain->result->at("version"), "1");
  EXPECT_FALSE(f.waiter->done());
}

// json_value_extent finds where a value ends by its structure alone; for
// valid JSON it must agree with the validating json_value_length.
TEST(JsonValueExtent, AgreesWithTheParserOnValidValues) {
  for (const std::string value : {
           std::string(R"([{"name":"a ] } [ {","x":"q\"uote\\"},{"n":[1,[2,[3]]]}])"),
           std::string(R"({"a":"\\","b":"\\\"]","c":{}})"),
           std::string(R"("text with \" and ] and }")"),
           std::string("[]"),
           std::string("{}"),
           std::string("12.5e3"),
           std::string("true"),
           std::string("null"),
       }) {
    for (const std::string tail : {"", ",", "}", " ,{\"x\":1}", "]"}) {
      const std::string text = value + tail;
      const auto parsed = json_value_length(text);  // the parser also takes the blanks after the value
      ASSERT_TRUE(parsed) << text;
      std::string_view by_parser = std::string_view(text).substr(0, *parsed);
      by_parser = by_parser.substr(0, by_parser.find_last_not_of(" \t\r\n") + 1);
      const auto extent = json_value_extent(text);
      ASSERT_TRUE(extent) << text;
      EXPECT_EQ(std::string_view(text).substr(0, *extent), by_parser) << text;
    }
  }
}

// Strings are skipped eight bytes at a time: a quote or a backslash at every
// position of a word, escaped or not, ends (or does not end) the string
// exactly where the parser says.
TEST(JsonValueExtent, LongStringsEndWhereTheParserSays) {
  for (std::size_t at = 0; at < 20; ++at) {
    for (const std::string mark : {"\\\"", "\\\\", "\\\\\\\"", "\\n"}) {
      const std::string inner = std::string(at, 'x') + mark + std::string(19 - at, 'y');
      for (const std::string text : {"\"" + inner + "\"", "[\"" + inner + "\",{\"k\":\"" + inner + "\"}]"}) {
        const auto parsed = json_value_length(text);
        ASSERT_TRUE(parsed) << text;
        const auto extent = json_value_extent(text + ",\"tail\"]");
        ASSERT_TRUE(extent) << text;
        EXPECT_EQ(*extent, *parsed) << text;
      }
    }
  }
  EXPECT_FALSE(json_value_extent(R"("a long string that ends in an escaped quote\")"));
}

// Where an object's last member's value starts: past its last top-level ':'
// (not one inside a string or a nested value); 0 for what is no object.
TEST(JsonValueExtent, FindsWhereTheLastMembersValueStarts) {
  const std::string text = R"({"a":1,"b":{"c":2},"d":[{"e":":"}],"f:":"g:h"} ,)";
  std::size_t last = 0;
  ASSERT_TRUE(json_value_extent(text, last));
  EXPECT_EQ(text.substr(last), R"("g:h"} ,)");
  ASSERT_TRUE(json_value_extent(R"([{"a":1}])", last));
  EXPECT_EQ(last, 0u);
  ASSERT_TRUE(json_value_extent("{}", last));
  EXPECT_EQ(last, 0u);
}

// In a coalesced frame the result's end comes from the message's own walk:
// the same text as a result cut by its own structure; a member after the
// result sends the message to the parser instead.
TEST(WsRawResult, ACoalescedResultEndsAtItsMessagesBrace) {
  const std::string nested = R"([{"id":"a:b","x":{"y":[1,{"z":":"}]}},"}\"]"])";
  const std::string event = R"({"id":999,"type":"event","event":{}})";
  for (const std::string& result : {nested, nested + " \n"}) {
    RawFixture f(64);
    EXPECT_TRUE(f.receive("[" + result_json(f.id, result) + "," + event + "]").empty()) << result;
    ASSERT_TRUE(f.waiter->raw_result) << result;
    EXPECT_EQ(f.waiter->raw_result->text, nested) << result;
  }
  RawFixture f(64);
  std::string message = result_json(f.id, nested);
  message.insert(message.size() - 1, R"(,"x":[3])");
  const std::vector<ParseJob> jobs = f.receive("[" + message + "," + event + "]");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].text, message);
  EXPECT_FALSE(f.waiter->raw_result);
}

TEST(JsonValueExtent, AValueThatDoesNotEndHasNoExtent) {
  for (const std::string text : {R"([{"a":1})", R"({"a":"unterminated})", R"("abc\")", "[[]", ""}) {
    EXPECT_FALSE(json_value_extent(text)) << text;
  }
}

// A registry list handed over by its structure is still decoded strictly:
// what is not JSON fails the decode, it is never taken as data.
TEST(JsonValueExtent, AResultThatIsNotJsonStillFailsItsDecode) {
  RawFixture f;
  f.receive(R"({"id":1,"type":"result","success":true,"result":[{"entity_id":"light.a",}]})");
  ASSERT_TRUE(f.waiter->raw_result);
  boost::system::error_code ec;
  items_of(f.waiter->raw_result->text, ec);
  EXPECT_TRUE(ec);
}
