#pragma once
// What a Streamable HTTP session's client chose after initialize (logging
// level, resource subscriptions: Session::persistent_state), kept in the data
// dir so a session rebuilt from its signed id after a restart or an idle
// eviction (session_registry.hpp) carries on as before.
//
// One small file per session, <dir>/<nonce hex>.json: its first line the whole
// state, written atomically (temp file + rename), then one appended line per
// change ({"subscribe":uri}, {"unsubscribe":uri}, {"logLevel":level}), so a
// subscribe costs one short write, not a rewrite of every subscription. Each
// change is in the file before the request that made it is answered (a
// SIGKILL right after loses nothing: the page cache keeps it); after
// kMaxAppended lines, or at the size limit, the next change rewrites the
// record whole (compaction). A torn last line (power loss) is ignored. Bounded: at most
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
#include <unordered_map>

#include "mcp/json.hpp"

namespace hamcp::mcp::http {

// `text` written to a 0600 temp file beside `path`, then renamed over it: a
// reader, or a restart after SIGKILL, sees the old contents or the new, never
// a mix (no fsync). False on failure (the old file stays).
bool replace_file(const std::filesystem::path& path, std::string_view text);

class SessionStateStore {
 public:
  struct Limits {
    std::size_t max_records = 10000;
    std::size_t max_record_bytes = 1u << 20;
    std::chrono::seconds max_age{std::chrono::hours(24 * 30)};
  };
  // Creates `dir` (0700) if missing and prunes records older than max_age.
  SessionStateStore(std::filesystem::path dir, Limits limits);

  // Appended lines before a change rewrites the record whole.
  static constexpr std::size_t kMaxAppended = 256;

  // The whole state (Session::persistent_state). False when not kept (bound
  // reached, bad key, I/O error: logged).
  bool save(std::string_view key, const json::object& state);
  // One change (Session::note_state_changed) appended to the record save()
  // wrote in this process. False when it was not appended and the caller
  // should save() the whole state: no record written by this process yet,
  // kMaxAppended reached, the size limit reached, or an I/O error.
  bool append(std::string_view key, const json::object& change);
  // The state with every appended change applied.
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
  // Per record saved by this process: lines appended and bytes in the file.
  struct Tail {
    std::size_t lines = 0;
    std::size_t bytes = 0;
  };
  std::unordered_map<std::string, Tail> tails_;
};

}  // namespace hamcp::mcp::http
