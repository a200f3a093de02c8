// YAML <-> JSON on libyaml: HA's tags survive a round trip, plain scalars
// resolve as HA's YAML 1.1 loader resolves them, errors name line and column.
#include "yaml/yaml_json.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

namespace json = boost::json;
using hamcp::yaml::emit_yaml;
using hamcp::yaml::parse_yaml;
using hamcp::yaml::YamlError;

namespace {

constexpr const char* kBlueprint = R"(blueprint:
  name: Motion light
  domain: automation
  input:
    motion_entity:
      name: Motion sensor
    light_target:
      selector:
        target: {}
    wait_time:
      default: 120
triggers:
  - trigger: state
    entity_id: !input motion_entity
    from: "off"
    to: "on"
actions:
  - action: light.turn_on
    target: !input light_target
  - delay: !input wait_time
password: !secret wifi_password
)";

TEST(YamlJson, BlueprintTagsBecomeTaggedObjects) {
  const json::value v = parse_yaml(kBlueprint);
  const auto& trig = v.at("triggers").at(0);
  EXPECT_EQ(trig.at("entity_id"), (json::object{{"!input", "motion_entity"}}));
  EXPECT_EQ(trig.at("from"), "off");  // quoted: stays a string
  EXPECT_EQ(v.at("password"), (json::object{{"!secret", "wifi_password"}}));
  EXPECT_EQ(v.at("blueprint").at("input").at("wait_time").at("default"), 120);
  EXPECT_TRUE(v.at("blueprint").at("input").at("light_target").at("selector").at("target").is_object());
}

TEST(YamlJson, RoundTripKeepsTagsAndTypes) {
  const json::value v = parse_yaml(kBlueprint);
  const std::string text = emit_yaml(v);
  EXPECT_NE(text.find("!input motion_entity"), std::string::npos) << text;
  EXPECT_NE(text.find("!secret wifi_password"), std::string::npos) << text;
  EXPECT_EQ(parse_yaml(text), v) << text;
}

TEST(YamlJson, PlainScalarsResolveAsYaml11) {
  const json::value v = parse_yaml("a: on\nb: no\nc: ~\nd: 1.5\ne: -3\nf: '12'\ng: 007\nh: hello world\ni:\n");
  EXPECT_EQ(v.at("a"), true);
  EXPECT_EQ(v.at("b"), false);
  EXPECT_TRUE(v.at("c").is_null());
  EXPECT_EQ(v.at("d"), 1.5);
  EXPECT_EQ(v.at("e"), -3);
  EXPECT_EQ(v.at("f"), "12");
  EXPECT_EQ(v.at("g"), "007");
  EXPECT_EQ(v.at("h"), "hello world");
  EXPECT_TRUE(v.at("i").is_null());
}

TEST(YamlJson, StringsThatLookLikeOtherTypesAreQuotedOnEmit) {
  const json::value v = json::object{{"state", "on"}, {"n", "12"}, {"empty", ""}, {"multi", "a\nb\n"}};
  EXPECT_EQ(parse_yaml(emit_yaml(v)), v) << emit_yaml(v);
}

TEST(YamlJson, AnchorsAndAliasesExpand) {
  const json::value v = parse_yaml("base: &b {x: 1}\ncopy: *b\n");
  EXPECT_EQ(v.at("copy"), (json::object{{"x", 1}}));
}

TEST(YamlJson, AliasBombIsRefused) {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'j'; ++c, ++prev)
    bomb += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
            ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n";
  EXPECT_THROW(parse_yaml(bomb), YamlError);
}

TEST(YamlJson, ErrorNamesTheLine) {
  try {
    parse_yaml("blueprint:\n  name: x\n  domain: [unclosed\ntriggers: []\n");
    FAIL() << "expected a YamlError";
  } catch (const YamlError& e) {
    EXPECT_GE(e.line(), 3u) << e.what();
    EXPECT_LE(e.line(), 5u) << e.what();
  }
}

TEST(YamlJson, EmptyDocumentIsNull) { EXPECT_TRUE(parse_yaml("").is_null()); }

}  // namespace
