// config_hash (stable across key order), RFC 6902 apply (every op, every
// failure named by index and path) and the short diff.
#include "home/config_json.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace hamcp::home {
namespace {

json::value J(const char* text) { return json::parse(text); }

TEST(ConfigHash, SameForAnyKeyOrderDifferentForAnyValue) {
  const auto a = J(R"({"alias":"x","triggers":[{"trigger":"state","to":"on"}],"mode":"single"})");
  const auto b = J(R"({"mode":"single","triggers":[{"to":"on","trigger":"state"}],"alias":"x"})");
  const auto c = J(R"({"alias":"x","triggers":[{"trigger":"state","to":"off"}],"mode":"single"})");
  EXPECT_EQ(config_hash(a), config_hash(b));
  EXPECT_NE(config_hash(a), config_hash(c));
  EXPECT_EQ(config_hash(a).size(), 16u);
  EXPECT_EQ(canonical_json(b), R"({"alias":"x","mode":"single","triggers":[{"to":"on","trigger":"state"}]})");
}

TEST(ConfigHash, ArrayOrderMatters) { EXPECT_NE(config_hash(J("[1,2]")), config_hash(J("[2,1]"))); }

TEST(JsonPatch, AppliesEveryOperationInOrderKeepingKeyOrder) {
  const auto doc = J(R"({"alias":"a","description":"d","actions":[{"action":"light.turn_on"}],"mode":"single"})");
  const auto ops = J(R"([
    {"op":"replace","path":"/alias","value":"b"},
    {"op":"add","path":"/actions/-","value":{"action":"light.turn_off"}},
    {"op":"copy","from":"/alias","path":"/copied"},
    {"op":"move","from":"/copied","path":"/moved"},
    {"op":"remove","path":"/description"},
    {"op":"test","path":"/mode","value":"single"}])");
  const json::value out = apply_json_patch(doc, ops.as_array());
  EXPECT_EQ(
      json::serialize(out),
      R"({"alias":"b","actions":[{"action":"light.turn_on"},{"action":"light.turn_off"}],"mode":"single","moved":"b"})");
  EXPECT_EQ(json::serialize(doc.at("alias")), "\"a\"");  // the input is untouched
}

struct PatchCase {
  const char* ops;
  std::size_t index;
  const char* path;
  const char* reason;
};

TEST(JsonPatch, RefusesWhatDoesNotApplyNamingOperationAndPath) {
  const auto doc = J(R"({"alias":"a","actions":[{"action":"x.y"}]})");
  const PatchCase cases[] = {
      {R"([{"op":"replace","path":"/alias","value":1},{"op":"remove","path":"/nope"}])", 1, "/nope", "no such member"},
      {R"([{"op":"replace","path":"/actions/5","value":1}])", 0, "/actions/5", "out of range"},
      {R"([{"op":"test","path":"/alias","value":"zzz"}])", 0, "/alias", "test failed"},
      {R"([{"op":"frob","path":"/alias"}])", 0, "/alias", "must be one of"},
      {R"([{"op":"add","path":"/alias"}])", 0, "/alias", "needs a \"value\""},
      {R"([{"op":"move","path":"/alias"}])", 0, "/alias", "needs a \"from\""},
      {R"([{"op":"add","value":1}])", 0, "", "\"path\""},
      {R"([{"op":"add","path":"alias","value":1}])", 0, "alias", "starts with"},
      {R"(["replace"])", 0, "", "must be an object"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.ops);
    try {
      apply_json_patch(doc, J(c.ops).as_array());
      ADD_FAILURE() << "applied";
    } catch (const PatchError& e) {
      EXPECT_EQ(e.op_index, c.index);
      EXPECT_EQ(e.path, c.path);
      EXPECT_NE(std::string(e.what()).find(c.reason), std::string::npos) << e.what();
    }
  }
}

TEST(JsonPatch, FailedLaterOperationLeavesNothingHalfApplied) {
  const auto doc = J(R"({"alias":"a"})");
  EXPECT_THROW(apply_json_patch(doc, J(R"([{"op":"replace","path":"/alias","value":"b"},
                                             {"op":"test","path":"/alias","value":"a"}])")
                                         .as_array()),
               PatchError);
  EXPECT_EQ(doc.at("alias").as_string(), "a");
}

TEST(JsonDiff, DiffAppliedGivesTheTarget) {
  const auto from = J(R"({"alias":"a","triggers":[{"at":"07:00"}],"old":1})");
  const auto to = J(R"({"alias":"b","triggers":[{"at":"08:00"},{"at":"09:00"}],"new":true})");
  const json::array ops = json_diff(from, to);
  EXPECT_FALSE(ops.empty());
  EXPECT_EQ(canonical_json(apply_json_patch(from, ops)), canonical_json(to));
  EXPECT_TRUE(json_diff(to, to).empty());
}

TEST(JsonDiff, ShortDiffCutsOperationsAndLongValues) {
  json::object from, to;
  for (int i = 0; i < 30; ++i) {
    std::string key = "k";  // not "k" + to_string(i): GCC 12 warns falsely (-Wrestrict)
    key += std::to_string(i);
    to[key] = std::string(500, 'x');
  }
  const json::array d = short_diff(from, to, 5, 40);
  ASSERT_EQ(d.size(), 6u);
  EXPECT_LE(d[0].at("value").as_string().size(), 44u);  // 40 bytes + "…"
  EXPECT_EQ(d[5].at("more").as_int64(), 25);
}

}  // namespace
}  // namespace hamcp::home
