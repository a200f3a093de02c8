#include "search/normalize.hpp"

#include <gtest/gtest.h>

namespace hamcp::search {
namespace {

std::string f(std::string_view s) { return fold_key(s); }

TEST(Normalize, LowercasesAndCollapsesSeparators) {
  EXPECT_EQ(f("  Living   Room -- Light! "), "living room light");
  EXPECT_EQ(f("light.bed_light"), "light bed light");
  EXPECT_EQ(f("WOHNZIMMER"), "wohnzimmer");
  EXPECT_EQ(f(""), "");
  EXPECT_EQ(f("__..--"), "");
}

TEST(Normalize, StripsLatinDiacritics) {
  EXPECT_EQ(f("Küche"), "kuche");
  EXPECT_EQ(f("KÜCHE"), "kuche");
  EXPECT_EQ(f("Salle à manger"), "salle a manger");
  EXPECT_EQ(f("Café Crème"), "cafe creme");
  EXPECT_EQ(f("Año Niño"), "ano nino");
  EXPECT_EQ(f("Łódź Żółć"), "lodz zolc");  // Latin Extended-A
  EXPECT_EQ(f("Čeština Ďábel Řeka"), "cestina dabel reka");
  EXPECT_EQ(f("Øresund Åre"), "oresund are");
}

TEST(Normalize, ExpandsLigatures) {
  EXPECT_EQ(f("Straße"), "strasse");
  EXPECT_EQ(f("Æble"), "aeble");
  EXPECT_EQ(f("Œuvre cœur"), "oeuvre coeur");
  EXPECT_EQ(f("Þing"), "thing");
  EXPECT_EQ(f("Ĳssel"), "ijssel");
}

TEST(Normalize, DecomposedInputFoldsLikeComposed) {
  EXPECT_EQ(f("Ku\xCC\x88"
              "che"),
            "kuche");  // u + U+0308 combining diaeresis
  EXPECT_EQ(f("Wohn\xC2\xAD"
              "zimmer"),
            "wohnzimmer");  // soft hyphen joins
}

TEST(Normalize, GreekAndCyrillic) {
  EXPECT_EQ(f("ΚΟΥΖΙΝΑ"), "κουζινα");
  EXPECT_EQ(f("Κουζίνα"), "κουζινα");        // tonos stripped
  EXPECT_EQ(f("ΦΩΣ σαλόνι"), "φωσ σαλονι");  // final sigma folds to sigma
  EXPECT_EQ(f("Οδυσσευς"), f("ΟΔΥΣΣΕΥΣ"));   // final sigma
  EXPECT_EQ(f("КУХНЯ Свет"), "кухня свет");
  EXPECT_EQ(f("Ёлка"), "елка");
  EXPECT_EQ(f("ЇЖАК"), "їжак");  // U+0400 block
}

TEST(Normalize, FullwidthAndSymbols) {
  EXPECT_EQ(f("ＬＩＧＨＴ１"), "light1");
  EXPECT_EQ(f("Lamp\xF0\x9F\x92\xA1"
              "Desk"),
            "lamp desk");  // emoji separates
  EXPECT_EQ(f("21°C"), "21 c");
  EXPECT_EQ(f("a\xE2\x80\x94"
              "b"),
            "a b");                      // em dash
  EXPECT_EQ(f("キッチン"), "キッチン");  // other scripts kept as-is
}

TEST(Normalize, InvalidUtf8NeverThrows) {
  EXPECT_EQ(f("ab\xFF"
              "cd"),
            "ab cd");
  EXPECT_EQ(f("ab\xC3"), "ab");  // truncated sequence
  EXPECT_EQ(f("\xC0\xAF"
              "x"),
            "x");  // overlong '/'
  EXPECT_EQ(f("\xED\xA0\x80"
              "y"),
            "y");  // surrogate
}

TEST(Normalize, TokensAndEntityIdParts) {
  auto t = tokenize("Light.Bed_Light 2");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0], U"light");
  EXPECT_EQ(t[1], U"bed");
  EXPECT_EQ(t[3], U"2");
  EXPECT_EQ(object_id("light.bed_light"), "bed_light");
  EXPECT_EQ(domain_of("light.bed_light"), "light");
  EXPECT_EQ(object_id("nodot"), "nodot");
  EXPECT_EQ(domain_of("nodot"), "");
  EXPECT_EQ(to_utf8(fold("Küche")), "kuche");
  EXPECT_EQ(to_utf8(U"κ€\U0001F4A1"), "κ€\xF0\x9F\x92\xA1");
}

// fold_into is what indexing uses, one buffer for every field of an entity:
// each call replaces what the previous one left, and separator runs, leading
// and trailing separators and combining marks (between separators too)
// collapse as in one pass over the whole text.
TEST(Normalize, FoldIntoReplacesTheReusedBuffer) {
  std::u32string buf = U"left over from a longer text";
  fold_into("  Küche -- Licht ", buf);
  EXPECT_EQ(buf, U"kuche licht");
  fold_into("a \u0301 _ \u00AD b", buf);  // a combining acute and a soft hyphen between separators
  EXPECT_EQ(buf, U"a b");
  fold_into("Ku\u0308che\u00C6", buf);  // NFD umlaut dropped, Æ expanded
  EXPECT_EQ(buf, U"kucheae");
  fold_into("--__--", buf);
  EXPECT_EQ(buf, U"");
  fold_into("", buf);
  EXPECT_EQ(buf, U"");
  fold_into("\xFF\xFEx\xC3", buf);  // invalid UTF-8: separators
  EXPECT_EQ(buf, U"x");
}

}  // namespace
}  // namespace hamcp::search
