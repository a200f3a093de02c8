#pragma once
// What a Streamable HTTP session's client chose after initialize (logging
// level, resource subscriptions: Session::persistent_state), kept in the data
// dir so a session rebuilt from its signed id after a restart or an idle
// eviction (session_registry.hpp) carries on as before.
//
// One small JSON file per session, <dir>/<nonce hex>.json, replaced
// atomically (temp file + rename) on every change. Bounded: at most
// max_records files and max_record_bytes per file (a change beyond either is
// not kept, and logged); removed when the session is deleted or found
// expired; files untouched for longer than the idle expiry are removed at
// start (their sessions cannot be valid any more).
//
// Threading: thread-safe (one mutex around the file operations).

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/json.hpp"

namespace hamcp::mcp::http {

class SessionStateStore {
 public:
  struct Limits {
    std::size_t max_records = 10000;
    std::size_t max_record_bytes = 1u << 20;
    std::chrono::seconds max_age{std::chrono::hours(24 * 30)};
  };
  // Creates `dir` (0700) if missing and prunes records older than max_age.
  SessionStateStore(std::filesystem::path dir, Limits limits);

  // False when not kept (bound reached, bad key, I/O error: logged).
  bool save(std::string_view key, const json::object& state);
  std::optional<json::object> load(std::string_view key);
  void remove(std::string_view key);
  std::size_t size();
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::optional<std::filesystem::path> path_of(std::string_view key) const;
  void prune_old();

  const std::filesystem::path dir_;
  const Limits limits_;
  std::mutex mutex_;
  std::size_t records_ = 0;  // files in dir_ (counted at start, kept up to date)
};

}  // namespace hamcp::mcp::http
