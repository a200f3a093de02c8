#include "tools/tool_env.hpp"

#include "mcp/session.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

ToolServices::ToolServices(ha::HaClient& ha_client, const EntityToolsOptions& opts)
    : watch(ha_client),
      overview(ha_client),
      journal(opts.journal),
      configs(ha_client),
      audit(opts.audit),
      visibility(opts.visibility.empty() ? nullptr : std::make_shared<Visibility>(opts.visibility)) {}

ToolEnv::ToolEnv(ha::HaClient& ha_client, search::EntityIndex& idx, EntityToolsOptions opts)
    : services_(std::make_shared<ToolServices>(ha_client, opts)),
      ha(ha_client, opts.read_only, services_->visibility),
      index(idx),
      options(opts),
      watch(services_->watch),
      ops(services_->ops),
      overview(services_->overview),
      journal(services_->journal),
      configs(services_->configs),
      redactor(services_->redactor),
      audit(services_->audit) {
  if (!opts.read_only) read_only_view_.reset(new ToolEnv(*this, ReadOnlyView{}));
}

// The read-only view is the base with a gate that refuses writes.
ToolEnv::ToolEnv(ToolEnv& base, ReadOnlyView) : ToolEnv(base, base.ha.read_only_gate()) {}

ToolEnv::ToolEnv(ToolEnv& base, HaGate user_gate)
    : services_(base.services_),
      ha(std::move(user_gate)),
      index(base.index),
      options(base.options),
      watch(services_->watch),
      ops(services_->ops),
      overview(services_->overview),
      journal(services_->journal),
      configs(services_->configs),
      redactor(services_->redactor),
      audit(services_->audit) {
  options.read_only = ha.read_only();
}

void ToolEnv::set_user_connections(std::shared_ptr<home::UserConnections> users) {
  std::lock_guard lock(user_views_mutex_);
  users_ = std::move(users);
  user_views_.clear();
}

std::shared_ptr<ToolEnv> ToolEnv::for_session(const mcp::SessionInfo& session) {
  if (session.principal.empty()) return {std::shared_ptr<ToolEnv>(), &for_session(session.read_only)};
  const bool read_only = session.read_only || ha.read_only();
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(user_views_mutex_);
  evict_user_views_locked(now);
  auto& view = user_views_[{session.principal, read_only}];
  if (!view.env) {
    const HaGate& base_gate = read_only && read_only_view_ ? read_only_view_->ha : ha;
    view.env.reset(new ToolEnv(*this, base_gate.as_user(users_, session.principal)));
  }
  view.last_used = now;
  return view.env;
}

// A dropped view lives on while a call still holds it; only the map forgets it.
void ToolEnv::evict_user_views_locked(std::chrono::steady_clock::time_point now) {
  std::erase_if(user_views_, [now](const auto& entry) { return now - entry.second.last_used > kUserViewIdle; });
  while (user_views_.size() >= kMaxUserViews) {
    auto oldest = user_views_.begin();
    for (auto it = user_views_.begin(); it != user_views_.end(); ++it)
      if (it->second.last_used < oldest->second.last_used) oldest = it;
    user_views_.erase(oldest);
  }
}

std::size_t ToolEnv::user_view_count() {
  std::lock_guard lock(user_views_mutex_);
  return user_views_.size();
}

boost::asio::awaitable<ha::SnapshotPtr> ToolEnv::snapshot() {
  ha::SnapshotPtr snap = ha.snapshot();
  // Once fully synced, the mirror's data is the answer even while it
  // reconnects. Before that, states may be in but registries and services not
  // yet: wait (bounded) for the first full sync instead of answering from half
  // a picture.
  if (services_->ever_synced.load() && snap && snap->version > 0) co_return snap;
  const ha::MirrorState state = ha.status().state;
  if (state == ha::MirrorState::synced || (state == ha::MirrorState::degraded && snap && snap->version > 0)) {
    services_->ever_synced.store(true);
    co_return snap;
  }
  if (ha.configured()) {
    const auto wait = options.first_sync_wait;
    if (co_await ha.wait_synced(wait)) services_->ever_synced.store(true);
    snap = ha.snapshot();
    if (snap && snap->version > 0) co_return snap;
  }
  if (auto failure = ha.last_failure()) throw ToolException(from_ha_error(*failure));
  throw ToolException("ha_not_connected", "hamcp has not received Home Assistant's state yet (still connecting).",
                      "Retry in a few seconds; if it persists run `hamcp doctor` to diagnose the connection.");
}

}  // namespace hamcp::tools
