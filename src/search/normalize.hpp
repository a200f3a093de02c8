#pragma once
// Text normalisation shared by indexing and querying, so both sides agree on
// what a "token" is.
//
// Reach of the folding table (documented because it is deliberately small):
//  - ASCII: lower-cased; every non-alphanumeric ASCII char is a separator
//    (so "_", ".", "-", "/" split words: "light.bed_light" -> light bed light).
//  - Latin-1 Supplement (U+00C0-U+00FF) and Latin Extended-A (U+0100-U+017F):
//    lower-cased with diacritics stripped (Küche -> kuche, Čeština -> cestina),
//    ligatures expanded (ß -> ss, Æ/æ -> ae, Œ/œ -> oe, Ĳ -> ij, Þ -> th).
//  - Combining diacritical marks (U+0300-U+036F) are dropped, so NFD input
//    ("Ku\u0308che") folds like NFC input.
//  - Greek (U+0370-U+03FF): lower-cased, tonos/dialytika stripped, final
//    sigma folded to sigma.  Cyrillic (U+0400-U+045F): lower-cased, ё -> е.
//  - Fullwidth ASCII (U+FF01-U+FF5E) maps to ASCII.
//  - Latin-1 punctuation/symbols, General Punctuation, arrows, box drawing,
//    dingbats and emoji are separators.  Every other code point (CJK, Arabic,
//    Hebrew, ...) is kept unchanged: it still matches itself exactly, it is
//    just not case- or accent-folded.
//  - Invalid UTF-8 bytes become separators (never an exception).
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::search {

// Decodes UTF-8 and folds it: lower case, no diacritics, separators collapsed
// to single spaces, no leading/trailing space.  "  Küche -- Licht " -> "kuche licht".
std::u32string fold(std::string_view utf8);
// The same into out (replacing its content): a caller folding many texts reuses one buffer.
void fold_into(std::string_view utf8, std::u32string& out);

// Splits folded text on spaces.
std::vector<std::u32string> split_tokens(std::u32string_view folded);

// fold() then split_tokens().
std::vector<std::u32string> tokenize(std::string_view utf8);

// fold() re-encoded as UTF-8: the comparison key used by exact filters
// ("Living Room", "living_room" and "LIVING-ROOM" share the key "living room").
std::string fold_key(std::string_view utf8);

std::string to_utf8(std::u32string_view text);

// The part of an entity_id after the domain ("light.bed_light" -> "bed_light");
// the whole id when there is no dot.
std::string_view object_id(std::string_view entity_id);

// The domain of an entity_id ("light.bed_light" -> "light"); empty without a dot.
std::string_view domain_of(std::string_view entity_id);

}  // namespace hamcp::search
