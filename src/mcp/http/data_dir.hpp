#pragma once
// hamcp's small persistent state for HTTP: the session-signing key, the
// revocation list and a generated bearer token. Everything is created 0600
// inside a 0700 directory.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace hamcp::mcp::http {

// `configured` (--data-dir / HAMCP_DATA_DIR) if set, else $XDG_STATE_HOME/hamcp,
// else ~/.local/state/hamcp. Creates the directory (0700) if missing; throws
// std::runtime_error naming the directory and the fix if it cannot, or if an
// existing one is unsafe (see check_data_dir).
std::filesystem::path resolve_data_dir(std::string_view configured);

// Refuses (std::runtime_error naming the directory and the fix) a data dir that
// is not a directory, is writable by group or others, or is owned by another
// user: whoever can write there can replace the session key or the token.
void check_data_dir(const std::filesystem::path& dir);

struct SecretFile {
  std::string contents;
  bool created = false;  // true when this call generated it
};

// Reads `path`, or creates it atomically with `generate()` (mode 0600). When
// several processes race, exactly one file wins and all of them read it.
// Throws std::runtime_error naming the file on I/O errors, wrong permissions,
// a symlink in its place (never followed) or another owner.
SecretFile load_or_create_secret(const std::filesystem::path& path, const std::function<std::string()>& generate);

}  // namespace hamcp::mcp::http
