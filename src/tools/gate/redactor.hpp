#pragma once
// Secret redaction for every tool result (on unless --no-redact-secrets /
// REDACT_SECRETS=false). Home Assistant hands out secrets in many places an
// assistant does not need them: add-on options (passwords, API keys),
// integration data and diagnostics, camera access tokens, Z-Wave network keys.
// A member whose name says it holds a secret ("password", "api_key",
// "access_token", "webhook_id", ...) has its string or number value replaced
// by "**REDACTED**" (HA's own diagnostics placeholder), and the value is
// remembered: wherever it shows up later (a log line, a URL's query, another
// tool's answer) it is replaced too.
//
// The reverse direction: a write whose arguments carry the placeholder would
// store it in place of the real secret, so such a write is refused
// (find_placeholder) with the path of the offending argument.

#include <boost/json/value.hpp>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::tools {

inline constexpr std::string_view kRedacted = "**REDACTED**";

// True for a member name that holds a secret (case-insensitive).
bool is_secret_key(std::string_view key);

class Redactor {
 public:
  // Values shorter than this are masked where they stand but not searched
  // for elsewhere (a 4-digit PIN would otherwise blank every "1234").
  static constexpr std::size_t kMinRemembered = 8;
  static constexpr std::size_t kMaxRemembered =
      64;  // the oldest are forgotten first (each is searched in every long string)

  // Masks secret members and every remembered value, in place. Iterative (no
  // recursion on deeply nested data). True when something was replaced.
  bool redact(boost::json::value& value);

  std::size_t remembered() const;

 private:
  void remember(std::string_view secret);
  std::vector<std::string> snapshot() const;

  mutable std::mutex mutex_;
  std::vector<std::string> seen_;  // guarded by mutex_; oldest first
};

// The JSON path ("config.password", "options[2].key") of the first string in
// `value` containing the placeholder; nullopt when there is none.
std::optional<std::string> find_placeholder(const boost::json::value& value);

}  // namespace hamcp::tools
