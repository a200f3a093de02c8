#include "home/audit_log.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <fstream>
#include <system_error>

#include "common/iso_time.hpp"

namespace hamcp::home {
namespace json = boost::json;
namespace fs = std::filesystem;

AuditLog::AuditLog(AuditLogOptions options) : options_(std::move(options)) {
  if (!options_.file.empty()) load();
}

// The newest lines of the current file back into memory (a restart keeps
// what ha_get_audit_log shows); unreadable lines are skipped.
void AuditLog::load() {
  std::error_code ec;
  fs::create_directories(options_.file.parent_path(), ec);
  fs::permissions(options_.file.parent_path(), fs::perms::owner_all, fs::perm_options::replace, ec);
  std::ifstream in(options_.file);
  std::string text;
  while (std::getline(in, text)) {
    json::error_code parse_error;
    json::value v = json::parse(text, parse_error);
    if (parse_error || !v.is_object()) continue;
    recent_.push_back(std::move(v.as_object()));
    if (recent_.size() > options_.kept_in_memory) recent_.pop_front();
  }
}

void AuditLog::record(json::object line) {
  json::object stamped;
  stamped["time"] = common::format_iso_time(common::now_epoch_seconds());
  for (auto& kv : line) stamped[kv.key()] = std::move(kv.value());
  const std::string text = json::serialize(stamped) + "\n";
  const std::lock_guard lock(mutex_);
  recent_.push_back(std::move(stamped));
  if (recent_.size() > options_.kept_in_memory) recent_.pop_front();
  if (!options_.file.empty()) append_to_file(text);
}

void AuditLog::append_to_file(const std::string& text) {
  std::error_code ec;
  const auto size = fs::file_size(options_.file, ec);
  if (!ec && size + text.size() > options_.max_bytes) rotate();
  const int fd = ::open(options_.file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
  bool ok = fd >= 0;
  if (ok) {
    ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
  }
  if (ok) return;
  const std::string why = std::error_code(errno, std::generic_category()).message();
  if (!last_error_)
    spdlog::warn("audit log: cannot write {}: {} (lines kept in memory only)", options_.file.string(), why);
  last_error_ = why;
}

// audit.jsonl -> .1 -> .2 ... -> .N (dropped).
void AuditLog::rotate() {
  std::error_code ec;
  const std::string base = options_.file.string();
  fs::remove(base + "." + std::to_string(options_.rotated_files), ec);
  for (std::size_t i = options_.rotated_files; i > 1; --i)
    fs::rename(base + "." + std::to_string(i - 1), base + "." + std::to_string(i), ec);
  fs::rename(options_.file, base + ".1", ec);
}

std::vector<json::object> AuditLog::recent(const AuditQuery& query) const {
  const auto text_of = [](const json::object& line, std::string_view key) -> std::string_view {
    const json::value* v = line.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view{};
  };
  std::vector<json::object> out;
  const std::lock_guard lock(mutex_);
  for (auto it = recent_.rbegin(); it != recent_.rend() && out.size() < query.limit; ++it) {
    if (!query.tool.empty() && text_of(*it, "tool") != query.tool) continue;
    if (!query.outcome.empty() && text_of(*it, "outcome") != query.outcome) continue;
    out.push_back(*it);
  }
  return out;
}

std::size_t AuditLog::size() const {
  const std::lock_guard lock(mutex_);
  return recent_.size();
}

std::optional<std::string> AuditLog::last_error() const {
  const std::lock_guard lock(mutex_);
  return last_error_;
}

}  // namespace hamcp::home
