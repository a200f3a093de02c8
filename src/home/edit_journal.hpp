#pragma once
// The edit journal: every configuration write hamcp makes (automations,
// scripts, scenes; later dashboards, helpers...) is recorded with the version
// before and after it, so any edit can be listed, diffed and undone. One JSON
// file per edit in `<data dir>/edit-journal/` (0600 in a 0700 directory,
// written to a temporary name and renamed, so a crash never leaves half a
// record); loaded once at start. Bounded by a count and a byte total: the
// oldest edits go first. An empty directory keeps the journal in memory only
// (tests, the demo home). Thread-safe. The safety issue's tools (list, diff,
// restore) are built on this API.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::home {

namespace json = boost::json;

struct EditRecord {
  std::string id;         // "e" + 8 digits, increasing: e00000042
  double time = 0;        // seconds since the epoch (UTC)
  std::string kind;       // "automation", "script", "scene", ...
  std::string key;        // the item's config id (script: object id)
  std::string entity_id;  // when known
  std::string action;     // "create", "update", "remove", "restore"
  json::value before;     // null: the edit created the item
  json::value after;      // null: the edit removed the item
  std::string before_hash;
  std::string after_hash;

  // Everything but before/after (listing); full() adds both.
  json::object summary() const;
  json::object full() const;
  static std::optional<EditRecord> from_json(const json::value& v);
};

struct EditJournalOptions {
  std::filesystem::path dir;  // empty: in memory only
  std::size_t max_entries = 1000;
  std::size_t max_bytes = 16u << 20;  // of the records' JSON
};

class EditJournal {
 public:
  explicit EditJournal(EditJournalOptions options = {});

  struct Recorded {
    std::string id;
    std::optional<std::string> persist_error;  // the record is kept in memory only
  };
  // Stores `record` (id and time are assigned; hashes filled from before/after
  // when empty) and writes it to disk before returning.
  Recorded record(EditRecord record);

  // Newest first; `kind`/`key` empty = any. Summaries (no before/after).
  std::vector<EditRecord> list(std::string_view kind = {}, std::string_view key = {}, std::size_t limit = 20) const;
  std::optional<EditRecord> get(std::string_view id) const;
  // The newest record of this item whose before or after has `hash`: the
  // version a caller last saw, to show what changed since.
  std::optional<EditRecord> find_version(std::string_view kind, std::string_view key, std::string_view hash) const;
  // RFC 6902 operations turning the edit's before into its after (nullopt: unknown id).
  std::optional<json::array> diff(std::string_view id) const;

  // Deletes records, also from disk: one by id (false: unknown), or every
  // record older than `cutoff` (epoch seconds; their ids, oldest first).
  bool remove(std::string_view id);
  std::vector<std::string> remove_older_than(double cutoff);

  std::size_t size() const;
  std::size_t bytes() const;
  const EditJournalOptions& options() const { return options_; }
  // Problems met while loading the directory (unreadable or foreign files are skipped).
  std::vector<std::string> load_warnings() const;

 private:
  void load();
  void evict_locked();
  void erase_locked(std::map<std::uint64_t, EditRecord>::iterator it);
  std::optional<std::string> persist(const EditRecord& record, const std::string& text) const;

  EditJournalOptions options_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, EditRecord> records_;  // by sequence number, oldest first
  std::map<std::uint64_t, std::size_t> sizes_;
  std::size_t bytes_ = 0;
  std::uint64_t next_seq_ = 1;
  std::vector<std::string> load_warnings_;
};

}  // namespace hamcp::home
