#include "reconnect_sampling.hpp"

#include <algorithm>
#include <string>

#include "ha/detail/ha_json.hpp"

namespace hamcp::fuzz {

std::uint32_t input_hash(std::string_view input) {
  std::uint32_t hash = 2166136261u;
  for (const char c : input) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return hash;
}

namespace {

// FakeHa's substitutions, with values of the same shape (digits; the token's characters).
std::string substituted(std::string_view frame) {
  std::string text(frame);
  const auto replace = [&text](std::string_view what, std::string_view with) {
    for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += with.size()) {
      text.replace(at, what.size(), with);
    }
  };
  replace("$ID", "7");
  replace("$SUB", "3");
  replace("$TOKEN", "fuzz-access-token");
  return text;
}

}  // namespace

bool frame_breaks_connection(std::string_view frame) {
  boost::system::error_code ec;
  (void)ha::detail::parse_ha_json(substituted(frame), ec);
  return ec && ec != boost::json::error::too_deep;
}

bool sample_connection_breakers(Script& script, std::string_view input, std::uint32_t one_in) {
  bool breaks = !script.auth.empty();
  for (auto& [type, frames] : script.replies) {
    // Every frame is parsed (its coverage counts), whether or not it is kept.
    const auto bad =
        std::count_if(frames.begin(), frames.end(), [](const std::string& f) { return frame_breaks_connection(f); });
    breaks = breaks || bad > 0;
  }
  if (!breaks || input_hash(input) % one_in == 0) return true;
  script.auth.clear();
  for (auto& [type, frames] : script.replies) {
    frames.erase(
        std::remove_if(frames.begin(), frames.end(), [](const std::string& f) { return frame_breaks_connection(f); }),
        frames.end());
  }
  return false;
}

}  // namespace hamcp::fuzz
