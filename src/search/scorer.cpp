// The only translation unit that includes rapidfuzz-cpp. Built without SIMD
// flags: rapidfuzz compiles its AVX2 path only under __AVX2__, which hamcp
// never defines, so this stays baseline x86-64.
#include "search/scorer.hpp"

#include <algorithm>
#include <rapidfuzz/distance/OSA.hpp>
#include <rapidfuzz/fuzz.hpp>
#include <string>

namespace hamcp::search {

struct TokenScorer::Impl {
  explicit Impl(std::u32string_view q) : text(q), ratio(text), osa(text) {}
  std::u32string text;
  rapidfuzz::fuzz::CachedRatio<char32_t> ratio;
  rapidfuzz::CachedOSA<char32_t> osa;
};

TokenScorer::TokenScorer(std::u32string_view query_token) : impl_(std::make_unique<Impl>(query_token)) {}
TokenScorer::~TokenScorer() = default;
TokenScorer::TokenScorer(TokenScorer&&) noexcept = default;
TokenScorer& TokenScorer::operator=(TokenScorer&&) noexcept = default;

double TokenScorer::similarity(std::u32string_view candidate, double cutoff) const {
  double indel = impl_->ratio.similarity(candidate, cutoff);
  double osa = impl_->osa.normalized_similarity(candidate, cutoff / 100.0) * 100.0;
  double best = std::max(indel, osa);
  return best >= cutoff ? best : 0.0;
}

struct PhraseScorer::Impl {
  explicit Impl(std::u32string_view q)
      : text(q), multi_word(text.find(U' ') != std::u32string::npos), ratio(text), sorted(text) {}
  std::u32string text;
  bool multi_word;
  rapidfuzz::fuzz::CachedRatio<char32_t> ratio;
  rapidfuzz::fuzz::CachedTokenSortRatio<char32_t> sorted;
};

PhraseScorer::PhraseScorer(std::u32string_view query) : impl_(std::make_unique<Impl>(query)) {}
PhraseScorer::~PhraseScorer() = default;
PhraseScorer::PhraseScorer(PhraseScorer&&) noexcept = default;
PhraseScorer& PhraseScorer::operator=(PhraseScorer&&) noexcept = default;

namespace {
template <typename Impl, typename Text>
double phrase_similarity(const Impl& impl, const Text& text, double cutoff) {
  if (text.size() == impl.text.size() && std::equal(text.begin(), text.end(), impl.text.begin(),
                                                    [](auto a, char32_t b) { return static_cast<char32_t>(a) == b; }))
    return 100.0;
  double plain = impl.ratio.similarity(text, cutoff);
  // Word order only matters when both sides have several words.
  bool several = impl.multi_word && std::find(text.begin(), text.end(), ' ') != text.end();
  double sorted = several ? impl.sorted.similarity(text, std::max(cutoff, plain)) : 0.0;
  return std::max(plain, sorted);
}
}  // namespace

double PhraseScorer::similarity(std::u32string_view text, double cutoff) const {
  return phrase_similarity(*impl_, text, cutoff);
}

double PhraseScorer::similarity(std::string_view ascii_text, double cutoff) const {
  return phrase_similarity(*impl_, ascii_text, cutoff);
}

double PhraseScorer::upper_bound(size_t query_len, size_t text_len) {
  // Indel ratio = 2*LCS/(|a|+|b|) and LCS <= min(|a|,|b|).
  if (query_len + text_len == 0) return 100.0;
  return 200.0 * static_cast<double>(std::min(query_len, text_len)) / static_cast<double>(query_len + text_len);
}

double PhraseScorer::upper_bound(size_t query_len, size_t text_len, size_t shared_chars) {
  if (query_len + text_len == 0) return 100.0;
  return 200.0 * static_cast<double>(std::min({query_len, text_len, shared_chars})) /
         static_cast<double>(query_len + text_len);
}

}  // namespace hamcp::search
