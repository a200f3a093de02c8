#pragma once
// The audit log: one JSON line per call of a tool that can write (time,
// client, tool, target, outcome, journal id), appended to
// `<data dir>/audit/<hash of the HA URL>.jsonl` (0600), rotated by size into
// `.1` .. `.N`. The newest lines are also kept in memory (loaded from the file
// at start) for ha_get_audit_log. Callers pass lines already free of secrets
// (the tools' redactor has run over them). An empty path keeps the log in
// memory only (tests, the demo home). Thread-safe.

#include <boost/json/object.hpp>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::home {

struct AuditLogOptions {
  std::filesystem::path file;        // empty: memory only
  std::size_t max_bytes = 1u << 20;  // a file this large is rotated before the next line
  std::size_t rotated_files = 3;     // audit.jsonl.1 .. .3; the oldest is dropped
  std::size_t kept_in_memory = 500;  // lines ha_get_audit_log can show
};

struct AuditQuery {
  std::size_t limit = 20;
  std::string tool{};     // empty: any
  std::string outcome{};  // "ok", "error", "preview", "refused"; empty: any
};

class AuditLog {
 public:
  explicit AuditLog(AuditLogOptions options = {});

  // Adds "time" (ISO 8601 UTC) in front of `line` and appends it. A failed
  // write is reported once on stderr (spdlog) and the line kept in memory.
  void record(boost::json::object line);

  // Newest first.
  std::vector<boost::json::object> recent(const AuditQuery& query) const;
  std::size_t size() const;
  const std::filesystem::path& file() const { return options_.file; }
  std::optional<std::string> last_error() const;

 private:
  void load();
  void append_to_file(const std::string& text);
  void rotate();

  AuditLogOptions options_;
  mutable std::mutex mutex_;
  std::deque<boost::json::object> recent_;  // oldest first; guarded by mutex_
  std::optional<std::string> last_error_;   // guarded by mutex_
};

}  // namespace hamcp::home
