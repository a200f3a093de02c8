#pragma once
// Text encoders for the formats `hamcp setup` prints: indented JSON (people paste it into files
// they read), TOML strings and keys (Codex), and POSIX shell words (Claude Code's CLI).

#include <boost/json/value.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::app::setup {

// Two-space indented JSON with a final newline; the escaping is Boost.JSON's.
std::string pretty_json(const boost::json::value& value);

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string toml_string(std::string_view text);
// A bare key when it is one ([A-Za-z0-9_-]+), else a quoted key.
std::string toml_key(std::string_view key);
std::string toml_array(const std::vector<std::string>& items);

// Words joined for a POSIX shell: a word with anything but [A-Za-z0-9_./:=@%+,-] is single-quoted.
std::string shell_command(const std::vector<std::string>& words);

bool url_scheme_is_http(std::string_view url);  // "http://...", not https

}  // namespace hamcp::app::setup
