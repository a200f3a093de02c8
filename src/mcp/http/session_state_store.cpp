// Per-session state files of the HTTP transport (session_state_store.hpp).
#include "mcp/http/session_state_store.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include "mcp/http/guarded_log.hpp"

namespace hamcp::mcp::http {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kSuffix = ".json";

bool is_session_key(std::string_view key) {
  // A nonce hex (session_token.hpp): nothing else may name a file here.
  if (key.empty() || key.size() > 64) return false;
  for (char c : key)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool append_file(const fs::path& path, std::string_view line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  const bool written = write_all(fd, line);
  ::close(fd);
  return written;
}

// The record's state: its first line, then each appended change in order. A
// line that does not parse (a torn write) ends the replay.
std::optional<json::object> replay(std::string_view text) {
  std::optional<json::object> state;
  std::set<std::string> subscriptions;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.empty()) continue;
    boost::system::error_code ec;
    json::value parsed = json::parse(line, ec);
    if (ec || !parsed.is_object()) break;
    json::object& entry = parsed.as_object();
    if (!state) {
      state = std::move(entry);
      if (const json::value* list = state->if_contains("subscriptions"); list && list->is_array())
        for (const json::value& uri : list->get_array())
          if (uri.is_string()) subscriptions.emplace(uri.get_string());
      continue;
    }
    if (const json::value* uri = entry.if_contains("subscribe"); uri && uri->is_string())
      subscriptions.emplace(uri->get_string());
    if (const json::value* uri = entry.if_contains("unsubscribe"); uri && uri->is_string())
      subscriptions.erase(std::string(uri->get_string()));
    if (const json::value* level = entry.if_contains("logLevel"); level && level->is_string())
      (*state)["logLevel"] = *level;
  }
  if (!state) return std::nullopt;
  json::array list;
  for (const std::string& uri : subscriptions) list.emplace_back(uri);
  (*state)["subscriptions"] = std::move(list);
  return state;
}

}  // namespace

// Written completely under a temp name, then renamed over the old record: a
// reader (or a restart after SIGKILL) sees the old record or the new one,
// never a mix. No fsync: the record survives a killed process (the page
// cache keeps it); after a power loss a lost record only means a rebuilt
// session starts from the defaults, as before this store existed.
bool replace_file(const fs::path& path, std::string_view text) {
  // Named per process: replicas sharing a data dir never write into one temp file.
  const fs::path tmp = path.string() + "." + std::to_string(::getpid()) + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return false;
  const bool written = write_all(fd, text);
  ::close(fd);
  if (!written || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

SessionStateStore::SessionStateStore(fs::path dir, Limits limits) : dir_(std::move(dir)), limits_(limits) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace, ec);
  prune_old();
}

void SessionStateStore::prune_old() {
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  std::size_t kept = 0, removed = 0;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    std::error_code entry_ec;
    const auto written = entry.last_write_time(entry_ec);
    const bool stale = !entry_ec && now - written > limits_.max_age;
    const bool leftover = entry.path().extension() != kSuffix;  // a temp file of a killed write
    if (stale || leftover) {
      removed += fs::remove(entry.path(), entry_ec) ? 1 : 0;
      continue;
    }
    ++kept;
  }
  records_ = kept;
  if (removed != 0) spdlog::info("http: removed {} expired session state records", removed);
}

std::optional<fs::path> SessionStateStore::path_of(std::string_view key) const {
  if (!is_session_key(key)) return std::nullopt;
  return dir_ / (std::string(key) + std::string(kSuffix));
}

bool SessionStateStore::save(std::string_view key, const json::object& state) {
  const auto path = path_of(key);
  if (!path) return false;
  const std::string text = json::serialize(state) + "\n";
  if (text.size() > limits_.max_record_bytes) {
    guarded_warn("http: session {}… state not kept: {} bytes, above the {} bytes limit", key.substr(0, 8), text.size(),
                 limits_.max_record_bytes);
    return false;
  }
  std::lock_guard lock(mutex_);
  std::error_code ec;
  const bool existed = fs::exists(*path, ec);
  if (!existed && records_ >= limits_.max_records) {
    guarded_warn("http: session {}… state not kept: {} session records already (limit)", key.substr(0, 8), records_);
    return false;
  }
  if (!replace_file(*path, text)) {
    guarded_warn("http: cannot write session state {}: {}", path->string(), std::strerror(errno));
    return false;
  }
  if (!existed) ++records_;
  tails_[std::string(key)] = Tail{0, text.size()};
  return true;
}

bool SessionStateStore::append(std::string_view key, const json::object& change) {
  const auto path = path_of(key);
  if (!path) return false;
  const std::string line = json::serialize(change) + "\n";
  std::lock_guard lock(mutex_);
  const auto tail = tails_.find(std::string(key));
  if (tail == tails_.end()) return false;
  if (tail->second.lines >= kMaxAppended || tail->second.bytes + line.size() > limits_.max_record_bytes) return false;
  if (!append_file(*path, line)) {
    tails_.erase(tail);  // the next save() rewrites the record whole
    return false;
  }
  ++tail->second.lines;
  tail->second.bytes += line.size();
  return true;
}

std::optional<json::object> SessionStateStore::load(std::string_view key) {
  const auto path = path_of(key);
  if (!path) return std::nullopt;
  std::lock_guard lock(mutex_);
  std::ifstream in(*path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > limits_.max_record_bytes) return std::nullopt;
  return replay(text.str());
}

void SessionStateStore::remove(std::string_view key) {
  const auto path = path_of(key);
  if (!path) return;
  std::lock_guard lock(mutex_);
  tails_.erase(std::string(key));
  std::error_code ec;
  if (fs::remove(*path, ec) && records_ > 0) --records_;
}

std::size_t SessionStateStore::size() {
  std::lock_guard lock(mutex_);
  return records_;
}

}  // namespace hamcp::mcp::http
