#include "mcp/server.hpp"

#include <algorithm>
#include <unordered_set>

#include "mcp/call_scheduler.hpp"
#include "mcp/errors.hpp"

namespace hamcp::mcp {

bool is_supported_protocol_version(std::string_view version) {
  return std::find(kSupportedProtocolVersions.begin(), kSupportedProtocolVersions.end(), version) !=
         kSupportedProtocolVersions.end();
}

namespace detail {

json::object ServerCore::capabilities() const {
  json::object caps;
  caps.emplace("logging", json::object());
  json::object list_changed;
  list_changed.emplace("listChanged", true);
  if (registry.has_tools()) caps.emplace("tools", list_changed);
  if (registry.has_resources()) {
    json::object resources = list_changed;
    resources.emplace("subscribe", true);
    caps.emplace("resources", std::move(resources));
  }
  if (registry.has_prompts()) caps.emplace("prompts", list_changed);
  if (registry.has_completion()) caps.emplace("completions", json::object());
  const bool tasks = registry.has_task_tools();
  if (tasks)  // 2025-11-25; the 2026 era drops this slot for the extension (discover_result)
    caps.emplace("tasks", json::object{{"list", json::object()},
                                       {"cancel", json::object()},
                                       {"requests", json::object{{"tools", json::object{{"call", json::object()}}}}}});
  if (!registry.extensions().empty() || tasks) {
    json::object extensions;
    for (const auto& [id, settings] : registry.extensions()) extensions.emplace(id, settings);
    if (tasks) extensions.emplace(kTasksExtension, json::object());
    caps.emplace("extensions", std::move(extensions));
  }
  return caps;
}

template <class F>
void ServerCore::for_each_session(F&& f) {
  // Drop sessions that are gone while walking the list.
  std::erase_if(sessions, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  auto live = sessions;  // f may create or end sessions
  for (auto& weak : live)
    if (auto session = weak.lock()) f(*session);
}

}  // namespace detail

Server::Server(asio::any_io_executor executor, ServerOptions options) : core_(std::make_shared<detail::ServerCore>()) {
  core_->executor = std::move(executor);
  core_->options = std::move(options);
  core_->scheduler = std::make_shared<CallScheduler>(core_->executor);
}

Server::~Server() { shutdown(); }

std::shared_ptr<Session> Server::create_session(std::string id) {
  std::shared_ptr<Session> session(new Session(core_, std::move(id)));
  std::erase_if(core_->sessions, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  // An older object of this session still alive (evicted, its task still
  // running) may have questions out: this one's requests to the client take
  // ids far above its, so an answer reaches the one that asked (handle_response).
  constexpr std::int64_t kRebuiltIdGap = std::int64_t{1} << 32;
  for (const auto& weak : core_->sessions)
    if (auto older = weak.lock(); older && !session->id_.empty() && older->id_ == session->id_)
      session->next_outgoing_id_ = std::max(session->next_outgoing_id_, older->next_outgoing_id_ + kRebuiltIdGap);
  core_->sessions.push_back(session);
  return session;
}

std::shared_ptr<Session> Server::restore_session(std::string id, SessionInfo info) {
  auto session = create_session(std::move(id));
  if (!is_supported_protocol_version(info.protocol_version))
    info.protocol_version = std::string(kLatestProtocolVersion);
  info.read_only = info.read_only || core_->options.read_only;
  session->info_ = std::move(info);
  session->state_ = Session::State::ready;
  return session;
}

void Server::set_session_state_observer(std::function<void(const Session&, const json::object& change)> observer) {
  core_->state_observer = std::move(observer);
}

void Server::notify_tools_changed() {
  core_->for_each_session([](Session& s) {
    if (s.initialized() && !s.is_shut_down()) s.notify("notifications/tools/list_changed");
  });
}

void Server::notify_resources_changed() {
  core_->for_each_session([](Session& s) {
    if (s.initialized() && !s.is_shut_down()) s.notify("notifications/resources/list_changed");
  });
}

void Server::notify_prompts_changed() {
  core_->for_each_session([](Session& s) {
    if (s.initialized() && !s.is_shut_down()) s.notify("notifications/prompts/list_changed");
  });
}

void Server::notify_resource_updated(std::string_view uri) {
  core_->for_each_session([uri](Session& s) { s.queue_resource_update(uri); });
}

void Server::end_session(const std::shared_ptr<Session>& session) {
  if (!session) return;
  session->shutdown();
  if (session->modern_) return;
  const std::string scope = session_task_scope(session->id());
  core_->tasks.end_owned([&scope](std::string_view owner) { return owner.starts_with(scope); });
}

void Server::end_sessions(const std::vector<std::string>& ids) {
  std::unordered_set<std::string_view> ended(ids.begin(), ids.end());
  ended.erase(std::string_view());
  if (ended.empty()) return;
  core_->for_each_session([&ended](Session& s) {
    if (ended.count(s.id())) s.shutdown();
  });
  core_->tasks.end_owned([&ended](std::string_view owner) {
    const std::optional<std::string_view> session = session_of_owner(owner);
    return session && ended.count(*session) > 0;
  });
}

void Server::shutdown() {
  core_->tasks.stop_persisting();  // what ran is "outcome unknown" to the next process, not gone
  core_->for_each_session([](Session& s) { s.shutdown(); });
  core_->tasks.end_owned([](std::string_view) { return true; });
}

std::size_t Server::session_count() const {
  std::size_t n = 0;
  for (const auto& weak : core_->sessions)
    if (!weak.expired()) ++n;
  return n;
}

}  // namespace hamcp::mcp
