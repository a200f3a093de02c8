#pragma once
// hamcp's fuzzy-scoring interface. The index only sees these two classes, so the
// fuzzy library (rapidfuzz-cpp today) can be swapped by rewriting scorer.cpp.
// Both classes pre-process their query once (bit-parallel pattern tables) and
// are then cheap to call against many candidates. All scores are 0..100.
#include <memory>
#include <string_view>

namespace hamcp::search {

// Compares one query token with vocabulary tokens (typo tolerance: "lihgt" ~ "light").
class TokenScorer {
 public:
  explicit TokenScorer(std::u32string_view query_token);
  ~TokenScorer();
  TokenScorer(TokenScorer&&) noexcept;
  TokenScorer& operator=(TokenScorer&&) noexcept;

  // Edit similarity that counts a transposition as one edit: the best of the
  // Indel ratio and the normalised OSA similarity. Returns 0 below `cutoff`.
  double similarity(std::u32string_view candidate, double cutoff) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Compares the whole (folded) query with a whole folded field ("kitchen ceiling light").
class PhraseScorer {
 public:
  explicit PhraseScorer(std::u32string_view query);
  ~PhraseScorer();
  PhraseScorer(PhraseScorer&&) noexcept;
  PhraseScorer& operator=(PhraseScorer&&) noexcept;

  // Best of the Indel ratio and the token-sort ratio (word order ignored:
  // "thermostat kids room" ~ "kids room thermostat"); 0 below `cutoff`.
  double similarity(std::u32string_view text, double cutoff) const;
  // Same for pure-ASCII text (stored compactly by the index).
  double similarity(std::string_view ascii_text, double cutoff) const;

  // Cheap upper bound of similarity() from the lengths alone (token sorting
  // keeps the lengths), used to skip
  // scoring candidates that cannot reach the current top-k.
  static double upper_bound(size_t query_len, size_t text_len);
  // Same, knowing at most `shared_chars` query characters can occur in the text.
  static double upper_bound(size_t query_len, size_t text_len, size_t shared_chars);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hamcp::search
