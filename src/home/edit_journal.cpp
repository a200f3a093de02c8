#include "home/edit_journal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/json_fields.hpp"
#include "home/config_json.hpp"

namespace hamcp::home {

namespace fs = std::filesystem;

namespace {

std::string id_of(std::uint64_t seq) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "e%08llu", static_cast<unsigned long long>(seq));
  return buf;
}

// 0 for anything that is not one of our ids.
std::uint64_t seq_of(std::string_view id) {
  if (id.size() < 2 || id.front() != 'e' || id.size() > 21) return 0;
  std::uint64_t seq = 0;
  for (char c : id.substr(1)) {
    if (c < '0' || c > '9') return 0;
    seq = seq * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return seq;
}

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// Writes `text` to `path` atomically (temporary file, fsync, rename), mode 0600.
std::optional<std::string> write_file(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return "cannot create " + tmp.string() + ": " + std::strerror(errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string error = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return "cannot write " + tmp.string() + ": " + error;
    }
    done += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string error = std::strerror(errno);
    ::unlink(tmp.c_str());
    return "cannot rename " + tmp.string() + ": " + error;
  }
  return std::nullopt;
}

}  // namespace

json::object EditRecord::summary() const {
  json::object o;
  o["id"] = id;
  o["time"] = time;
  o["kind"] = kind;
  o["key"] = key;
  if (!entity_id.empty()) o["entity_id"] = entity_id;
  o["action"] = action;
  o["before_hash"] = before_hash;
  o["after_hash"] = after_hash;
  return o;
}

json::object EditRecord::full() const {
  json::object o = summary();
  o["before"] = before;
  o["after"] = after;
  return o;
}

std::optional<EditRecord> EditRecord::from_json(const json::value& v) {
  const json::object* o = v.if_object();
  if (!o || !o->contains("before") || !o->contains("after")) return std::nullopt;
  EditRecord r;
  r.id = string_or_empty(*o, "id");
  if (seq_of(r.id) == 0) return std::nullopt;
  const json::value* time = o->if_contains("time");
  r.time = time && time->is_number() ? time->to_number<double>() : 0;
  r.kind = string_or_empty(*o, "kind");
  r.key = string_or_empty(*o, "key");
  r.entity_id = string_or_empty(*o, "entity_id");
  r.action = string_or_empty(*o, "action");
  r.before = o->at("before");
  r.after = o->at("after");
  r.before_hash = string_or_empty(*o, "before_hash");
  r.after_hash = string_or_empty(*o, "after_hash");
  return r;
}

EditJournal::EditJournal(EditJournalOptions options) : options_(std::move(options)) {
  if (!options_.dir.empty()) load();
}

void EditJournal::load() {
  std::error_code ec;
  fs::create_directories(options_.dir, ec);
  if (ec) {
    load_warnings_.push_back("cannot create " + options_.dir.string() + ": " + ec.message());
    return;
  }
  fs::permissions(options_.dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  for (const auto& entry : fs::directory_iterator(options_.dir, ec)) {
    const fs::path& p = entry.path();
    if (p.extension() != ".json" || !entry.is_regular_file()) continue;
    std::ifstream in(p, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    boost::system::error_code parse_error;
    const json::value v = json::parse(text.str(), parse_error);
    std::optional<EditRecord> r = parse_error ? std::nullopt : EditRecord::from_json(v);
    if (!r || id_of(seq_of(r->id)) + ".json" != p.filename().string()) {
      load_warnings_.push_back("skipped " + p.string() + ": not an edit record");
      continue;
    }
    const std::uint64_t seq = seq_of(r->id);
    sizes_[seq] = text.str().size();
    bytes_ += text.str().size();
    records_.emplace(seq, std::move(*r));
    next_seq_ = std::max(next_seq_, seq + 1);
  }
  evict_locked();
}

EditJournal::Recorded EditJournal::record(EditRecord r) {
  if (r.before_hash.empty() && !r.before.is_null()) r.before_hash = config_hash(r.before);
  if (r.after_hash.empty() && !r.after.is_null()) r.after_hash = config_hash(r.after);
  r.time = now_seconds();
  std::lock_guard lock(mutex_);
  const std::uint64_t seq = next_seq_++;
  r.id = id_of(seq);
  const std::string text = json::serialize(r.full());
  Recorded out{r.id, persist(r, text)};
  sizes_[seq] = text.size();
  bytes_ += text.size();
  records_.emplace(seq, std::move(r));
  evict_locked();
  return out;
}

std::optional<std::string> EditJournal::persist(const EditRecord& r, const std::string& text) const {
  if (options_.dir.empty()) return std::nullopt;
  std::error_code ec;
  fs::create_directories(options_.dir, ec);
  if (ec) return "cannot create " + options_.dir.string() + ": " + ec.message();
  return write_file(options_.dir / (r.id + ".json"), text);
}

void EditJournal::evict_locked() {
  // The newest record stays even when it alone is over the byte bound.
  while (records_.size() > 1 && (records_.size() > options_.max_entries || bytes_ > options_.max_bytes))
    erase_locked(records_.begin());
}

void EditJournal::erase_locked(std::map<std::uint64_t, EditRecord>::iterator it) {
  bytes_ -= sizes_[it->first];
  sizes_.erase(it->first);
  if (!options_.dir.empty()) {
    std::error_code ec;
    fs::remove(options_.dir / (it->second.id + ".json"), ec);
  }
  records_.erase(it);
}

bool EditJournal::remove(std::string_view id) {
  std::lock_guard lock(mutex_);
  auto it = records_.find(seq_of(id));
  if (it == records_.end()) return false;
  erase_locked(it);
  return true;
}

std::vector<std::string> EditJournal::remove_older_than(double cutoff) {
  std::vector<std::string> removed;
  std::lock_guard lock(mutex_);
  while (!records_.empty() && records_.begin()->second.time < cutoff) {
    removed.push_back(records_.begin()->second.id);
    erase_locked(records_.begin());
  }
  return removed;
}

std::vector<EditRecord> EditJournal::list(std::string_view kind, std::string_view key, std::size_t limit) const {
  std::vector<EditRecord> out;
  std::lock_guard lock(mutex_);
  for (auto it = records_.rbegin(); it != records_.rend() && out.size() < limit; ++it) {
    const EditRecord& r = it->second;
    if ((!kind.empty() && r.kind != kind) || (!key.empty() && r.key != key)) continue;
    EditRecord summary = r;
    summary.before = nullptr;
    summary.after = nullptr;
    out.push_back(std::move(summary));
  }
  return out;
}

std::optional<EditRecord> EditJournal::get(std::string_view id) const {
  std::lock_guard lock(mutex_);
  auto it = records_.find(seq_of(id));
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

std::optional<EditRecord> EditJournal::find_version(std::string_view kind, std::string_view key,
                                                    std::string_view hash) const {
  std::lock_guard lock(mutex_);
  for (auto it = records_.rbegin(); it != records_.rend(); ++it) {
    const EditRecord& r = it->second;
    if (r.kind == kind && r.key == key && (r.after_hash == hash || r.before_hash == hash)) return r;
  }
  return std::nullopt;
}

std::optional<json::array> EditJournal::diff(std::string_view id) const {
  std::optional<EditRecord> r = get(id);
  if (!r) return std::nullopt;
  return json_diff(r->before, r->after);
}

std::size_t EditJournal::size() const {
  std::lock_guard lock(mutex_);
  return records_.size();
}

std::size_t EditJournal::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

std::vector<std::string> EditJournal::load_warnings() const {
  std::lock_guard lock(mutex_);
  return load_warnings_;
}

}  // namespace hamcp::home
