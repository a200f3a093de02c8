#pragma once
// Small hand-written vocabulary knowledge: groups of interchangeable words
// (domain/device-class words and room names, English plus a few German,
// French and Spanish words) and query stopwords. All entries are folded
// (lower case, no diacritics) single tokens, matching normalize.hpp output.
#include <span>
#include <string>
#include <string_view>

namespace hamcp::search {

// Every other member of the group `token` belongs to (empty if none). "lamp"
// -> light, lights, licht, lampe, ...; "kuche" -> kitchen, cuisine, cocina.
std::span<const std::u32string> synonyms_of(std::u32string_view token);

// Every word of every group (for typo-tolerant lookup of group words: "thermostt").
std::span<const std::u32string> all_synonym_words();

// "the", "in", "der", "la", ... : ignored in queries that have other words.
bool is_stopword(std::u32string_view token);

}  // namespace hamcp::search
