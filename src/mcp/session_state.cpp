// A session's client-chosen state that outlives its in-memory object
// (Session::persistent_state / restore_state): the logging level and the
// resources/subscribe set. HTTP keeps it next to the signed session id, whose
// payload is fixed at initialize and cannot carry later choices.
#include <algorithm>

#include "mcp/server.hpp"
#include "mcp/session.hpp"

namespace hamcp::mcp {

json::object Session::persistent_state() const {
  json::object out;
  out.emplace("logLevel", to_string(log_level_));
  // Sorted, so the same state always reads the same on disk.
  std::vector<std::string> uris(subscriptions_.begin(), subscriptions_.end());
  std::sort(uris.begin(), uris.end());
  json::array list;
  list.reserve(uris.size());
  for (std::string& uri : uris) list.emplace_back(std::move(uri));
  out.emplace("subscriptions", std::move(list));
  return out;
}

void Session::restore_state(const json::object& state) {
  if (const json::value* level = state.if_contains("logLevel"); level && level->is_string())
    if (std::optional<LogLevel> parsed = parse_log_level(level->get_string())) log_level_ = *parsed;
  const json::value* list = state.if_contains("subscriptions");
  if (!list || !list->is_array()) return;
  const ServerOptions& options = core_->options;
  const std::size_t limit = std::min(options.max_subscriptions, options.max_pending_updates);
  for (const json::value& uri : list->get_array()) {
    if (subscriptions_.size() >= limit) break;
    if (uri.is_string() && !uri.get_string().empty()) subscriptions_.emplace(uri.get_string());
  }
  // A rebuilt subscriber is a watcher too: the resource feeds must work out updates again.
  if (!subscriptions_.empty()) core_->resources_watched->store(true);
}

void Session::note_state_changed(json::object change) {
  if (id_.empty() || modern_ || !core_->state_observer) return;
  core_->state_observer(*this, change);
}

}  // namespace hamcp::mcp
