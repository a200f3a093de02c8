// The wire writer: plain decimal doubles (as Home Assistant writes them), and
// otherwise the same text as boost::json::serialize, which it must parse back to.
#include "json/json_text.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <limits>
#include <vector>

namespace hamcp {
namespace {

namespace json = boost::json;

TEST(JsonText, DoublesArePlainDecimalsNotScientific) {
  EXPECT_EQ(json_text(json::parse(R"({"t":22.4,"min":5.0,"step":0.5,"neg":-3.25})")),
            R"({"t":22.4,"min":5.0,"step":0.5,"neg":-3.25})");
  // boost::json::serialize would write 2.24E1 and 5E0 here.
  EXPECT_NE(json::serialize(json::value(22.4)), "22.4");
}

TEST(JsonText, IntegersStayIntegers) {
  EXPECT_EQ(json_text(json::parse(R"([0,-7,401,18446744073709551615])")), "[0,-7,401,18446744073709551615]");
}

TEST(JsonText, ShortestRoundTripForAwkwardDoubles) {
  for (double d : {0.1, 1.0 / 3.0, 1e21, 1e-7, 123456789.125, -0.0, 5e-324, 1.7976931348623157e308}) {
    std::string text = json_text(json::value(d));
    EXPECT_EQ(json::parse(text).as_double(), d) << text;
  }
}

TEST(JsonText, NonFiniteBecomesNull) {
  EXPECT_EQ(json_text(json::value(std::numeric_limits<double>::infinity())), "null");
  EXPECT_EQ(json_text(json::value(std::numeric_limits<double>::quiet_NaN())), "null");
}

TEST(JsonText, StringsEscapedLikeBoost) {
  json::value v = json::parse(R"({"a\"b":"line\nnext\ttab \\ \u0001 Küche ✓","e":""})");
  EXPECT_EQ(json_text(v), json::serialize(v));
  EXPECT_EQ(json::parse(json_text(v)), v);
}

TEST(JsonText, NestedStructuresMatchBoostApartFromDoubles) {
  json::value v = json::parse(R"({"x":[1,true,null,{"y":[],"z":{}}],"s":"t","b":false})");
  EXPECT_EQ(json_text(v), json::serialize(v));
}

TEST(JsonText, AppendsToExistingText) {
  std::string out = "data: ";
  append_json_text(out, json::parse(R"({"v":1.5})"));
  EXPECT_EQ(out, R"(data: {"v":1.5})");
}

// Every byte value, alone and in runs, escaped exactly as boost::json::serialize does
// (the writer sizes its output first and then fills it: no byte may be lost or spare).
TEST(JsonText, EveryByteEscapedLikeBoost) {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  const json::value alone = json::string(all);
  EXPECT_EQ(json_text(alone), json::serialize(alone));
  std::uint32_t seed = 7;
  for (int round = 0; round < 200; ++round) {
    std::string s;
    for (int i = 0; i < round; ++i) {
      seed = seed * 1664525u + 1013904223u;
      s.push_back(static_cast<char>(seed >> 24));
    }
    json::object o;
    o[s] = s;
    EXPECT_EQ(json_text(o), json::serialize(o)) << "round " << round;
  }
}

// The writer reads eight bytes at a time: every lane of a word, and the tail
// after the last whole word, must see a special byte, and bytes next to the
// special ones (0x1f/0x20, '!'/'#' around '"', '['/']' around '\\', bytes with
// the high bit set whose low bits look special) must pass as they are.
TEST(JsonText, SpecialBytesInEveryLaneOfAWord) {
  const unsigned char probes[] = {0x00, 0x01, '\n', 0x1f, 0x20, '!',  '"',  '#',
                                  '[',  '\\', ']',  0x7f, 0x80, 0xa2, 0xdc, 0xff};
  std::vector<std::size_t> lengths;  // three words, measured first; three words past 64, written in one pass
  for (std::size_t len = 1; len <= 24; ++len) lengths.push_back(len);
  for (std::size_t len = 64; len <= 88; ++len) lengths.push_back(len);
  for (const std::size_t len : lengths) {
    for (std::size_t at = 0; at < len; ++at) {
      for (const unsigned char probe : probes) {
        std::string s(len, 'a');
        s[at] = static_cast<char>(probe);
        if (at + 1 < len) s[at + 1] = '"';  // a second special right after the first
        const json::value v = json::string(s);
        ASSERT_EQ(json_text(v), json::serialize(v)) << "length " << len << ", byte " << int(probe) << " at " << at;
      }
    }
  }
}

// Strings of 64 bytes to 4 KiB are written in one pass into room for one
// escape byte per byte; \u00XX escapes need five: a string with many falls
// back to the measured path, wherever the room runs out. Shorter and longer
// strings are measured first.
TEST(JsonText, ControlBytesBeyondTheOnePassRoom) {
  for (std::size_t len : {1, 2, 7, 8, 9, 16, 17, 63, 64, 65, 4095, 4096, 4097, 10000}) {
    for (const char fill : {'\x01', '"', 'x'}) {
      std::string s(len, fill);
      s[len / 2] = '\x1f';
      s[len - 1] = '\\';
      const json::value v = json::string(s);
      ASSERT_EQ(json_text(v), json::serialize(v)) << "length " << len << ", fill " << int(fill);
    }
  }
}

}  // namespace
}  // namespace hamcp
