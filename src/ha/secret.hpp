#pragma once
// A string that must never be printed: HA access tokens. It has no stream or
// fmt formatter that reveals the value; only reveal() (used when building the
// Authorization header or the WebSocket auth message) gives it out.

#include <string>
#include <string_view>
#include <utility>

namespace hamcp::ha {

class Secret {
 public:
  Secret() = default;
  explicit Secret(std::string value) : value_(std::move(value)) {}

  bool empty() const noexcept { return value_.empty(); }
  // The only way to read the value. grep for reveal() to audit every use.
  const std::string& reveal() const noexcept { return value_; }
  // What logs and reports may show.
  std::string redacted() const { return value_.empty() ? "<none>" : "<redacted>"; }

  // Erase any occurrence of the secret from a text before it is shown, e.g. a
  // server echo or an exception message from a library.
  std::string scrub(std::string text) const {
    if (value_.size() < 4) return text;  // too short to scrub meaningfully
    for (auto pos = text.find(value_); pos != std::string::npos; pos = text.find(value_, pos)) {
      text.replace(pos, value_.size(), "<redacted>");
    }
    return text;
  }

  friend bool operator==(const Secret& a, const Secret& b) { return a.value_ == b.value_; }

 private:
  std::string value_;
};

}  // namespace hamcp::ha
