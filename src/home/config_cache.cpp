#include "home/config_cache.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

#include "home/config_terms.hpp"
#include "home/detail/config_cache_impl.hpp"

namespace hamcp::home {

namespace json = boost::json;
namespace asio = boost::asio;

namespace {

// One table entry per kind of editor config: its entity domain and the config
// editor key its entity carries. Helpers come as lists instead (config_sources.hpp).
struct Kind {
  const char* domain;
  bool key_is_object_id;  // scripts: the object id; automations, scenes: the "id" attribute
};
constexpr Kind kKinds[] = {{"automation", false}, {"script", true}, {"scene", false}};

const Kind* kind_of(std::string_view entity_id) {
  const std::string_view domain = domain_of(entity_id);
  for (const Kind& k : kKinds)
    if (domain == k.domain) return &k;
  return nullptr;
}

// "/api/config/<domain>/config/<key>" for an entity, "" when it has no editor config.
std::string config_path(const ha::EntityState& st) {
  const Kind* kind = kind_of(st.entity_id);
  if (!kind) return {};
  std::string key =
      kind->key_is_object_id ? st.entity_id.substr(st.entity_id.find('.') + 1) : st.attributes.string_of("id");
  if (key.empty()) return {};
  return std::string("/api/config/") + kind->domain + "/config/" +
         boost::urls::encode(key, boost::urls::unreserved_chars);
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

// Mirror listener (publishing thread): note what to fetch, then let the executor do it.
void ConfigCache::Impl::on_change(const ha::ChangeSet& changes, const ha::SnapshotPtr& snap) {
  std::vector<std::string> fetch;
  std::vector<std::string> gone;
  if (changes.full_resync) {
    snap->states.for_each([&](const ha::EntityStatePtr& s) {
      if (kind_of(s->entity_id)) fetch.push_back(s->entity_id);
    });
    for (const auto& d : storage_helper_domains()) fetch.push_back(list_job(d));
    fetch.emplace_back(kEntriesJob);
    fetch.emplace_back(kDashboardsJob);
  }
  for (const auto* list : {&changes.states_added, &changes.states_changed})
    for (const auto& id : *list)
      if (kind_of(id)) fetch.push_back(id);
  for (const auto& id : changes.states_removed)
    if (kind_of(id)) gone.push_back(id);
  note_helper_changes(changes, *snap, fetch);
  if (fetch.empty() && gone.empty() && !changes.full_resync) return;
  enqueue(std::move(fetch), std::move(gone), changes.full_resync);
}

void ConfigCache::Impl::enqueue(std::vector<std::string> fetch, std::vector<std::string> gone, bool full) {
  bool subscribe_now = false;
  {
    std::lock_guard lock(mutex);
    if (stopped || !executor) return;
    if (full && !full_pass_requested) {
      full_pass_requested = true;
      warm_start = std::chrono::steady_clock::now();
    }
    if (full && !subscribed) subscribe_now = subscribed = true;
    if (full) entries.clear();     // a full pass reads every entry's options again
    if (full) dashboards.clear();  // and every dashboard's config
    for (auto& id : gone) drop_locked(id);
    for (auto& id : fetch)
      if (queued.insert(id).second) queue.push_back(std::move(id));
    if (full && queue.empty() && workers == 0 && !full_pass_done) full_pass_done = true;  // a home with none
  }
  if (subscribe_now)
    asio::co_spawn(
        *executor, [self = shared_from_this()]() { return self->subscribe_to_changes(); }, asio::detached);
  spawn_workers();
}

void ConfigCache::Impl::drop_locked(const std::string& doc_id) {
  items.erase(doc_id);
  index.remove(doc_id);
}

void ConfigCache::Impl::upsert_locked(ConfigItem item) {
  std::string id = item.doc.entity_id;
  index.upsert(std::move(item.doc));
  items[std::move(id)] = Cached{std::move(item.config), std::move(item.meta)};
}

// Replaces a group's documents with `fresh` (those no longer listed leave).
void ConfigCache::Impl::replace_group_locked(const std::string& group, std::vector<ConfigItem> fresh) {
  std::set<std::string>& ids = groups[group];
  std::set<std::string> now;
  for (const auto& item : fresh) now.insert(item.doc.entity_id);
  for (const auto& old : ids)
    if (!now.count(old)) drop_locked(old);
  ids = std::move(now);
  for (auto& item : fresh) upsert_locked(std::move(item));
}

void ConfigCache::Impl::spawn_workers() {
  std::size_t start = 0;
  {
    std::lock_guard lock(mutex);
    while (workers + start < options.parallel && workers + start < queue.size()) ++start;
    workers += start;
  }
  for (std::size_t i = 0; i < start; ++i)
    asio::co_spawn(
        *executor, [self = shared_from_this()]() { return self->work(); }, asio::detached);
}

std::optional<std::string> ConfigCache::Impl::next() {
  std::lock_guard lock(mutex);
  if (stopped || queue.empty()) {
    --workers;
    if (workers == 0 && queue.empty() && full_pass_requested && !full_pass_done) {
      full_pass_done = true;
      warm_ms = ms_since(warm_start);
    }
    return std::nullopt;
  }
  std::string id = std::move(queue.front());
  queue.pop_front();
  queued.erase(id);
  ++in_flight;
  return id;
}

asio::awaitable<void> ConfigCache::Impl::work() {
  for (std::optional<std::string> job = next(); job; job = next()) {
    auto running = run_job(*job);  // named: GCC 12 coroutine temporaries
    co_await std::move(running);
    std::lock_guard lock(mutex);
    --in_flight;
  }
}

asio::awaitable<void> ConfigCache::Impl::run_job(const std::string& job) {
  if (job.rfind(kListJob, 0) == 0) {
    auto listing = fetch_list(job.substr(kListJob.size()));
    co_await std::move(listing);
  } else if (job == kEntriesJob) {
    auto listing = fetch_entries();
    co_await std::move(listing);
  } else if (job == kDashboardsJob) {
    auto listing = fetch_dashboard_list();
    co_await std::move(listing);
  } else if (job.rfind(kDashboardJob, 0) == 0) {
    auto reading = fetch_dashboard(job.substr(kDashboardJob.size()));
    co_await std::move(reading);
  } else if (job.rfind(kEntryJob, 0) == 0) {
    auto reading = fetch_entry(job.substr(kEntryJob.size()));
    co_await std::move(reading);
  } else {
    auto fetching = fetch_one(job);
    co_await std::move(fetching);
  }
}

asio::awaitable<void> ConfigCache::Impl::fetch_one(const std::string& entity_id) {
  ha::SnapshotPtr snap = ha.snapshot();
  ha::EntityStatePtr st = snap->states.find(entity_id);
  std::string path = st ? config_path(*st) : std::string();
  std::optional<json::value> config;
  bool ok = true;
  if (!path.empty()) {
    try {
      auto getting = ha.rest_get(std::move(path));
      const ha::Response r = co_await std::move(getting);
      if (r.ok()) config = r.json();
      ok = r.ok() || r.status == 404 || r.status == 400;  // YAML-only items have no editor config
    } catch (const std::exception&) {
      ok = false;
    }
  }
  store(entity_id, st, std::move(config), ok);
}

void ConfigCache::Impl::store(const std::string& entity_id, const ha::EntityStatePtr& st,
                              std::optional<json::value> config, bool ok) {
  std::lock_guard lock(mutex);
  if (stopped) return;
  if (!ok) ++failed;
  if (!config || !st) {
    if (ok) drop_locked(entity_id);
    return;
  }
  ConfigItem item;
  item.doc.entity_id = entity_id;
  item.doc.friendly_name = st->attributes.string_of("friendly_name");
  if (const json::object* o = config->if_object()) {
    if (const json::value* d = o->if_contains("description"); d && d->is_string())
      item.doc.original_name = std::string(d->get_string());
  }
  item.doc.aliases = config_terms(*config);
  item.meta = {{"kind", std::string(domain_of(entity_id))}};
  item.config = std::move(*config);
  upsert_locked(std::move(item));
}

ConfigCache::ConfigCache(ha::HaClient& ha, ConfigCacheOptions options) : impl_(std::make_shared<Impl>(ha, options)) {}

ConfigCache::~ConfigCache() { detach(); }

void ConfigCache::start(asio::any_io_executor executor) {
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->executor || impl_->stopped) return;
    impl_->executor = executor;
  }
  std::weak_ptr<Impl> weak = impl_;
  impl_->listener = impl_->ha.add_change_listener([weak](const ha::ChangeSet& c, const ha::SnapshotPtr& s) {
    if (auto self = weak.lock()) self->on_change(c, s);
  });
  impl_->listening = true;
  ha::SnapshotPtr snap = impl_->ha.snapshot();
  if (snap && snap->version > 0) {  // already synced: the listener will not see that first full resync
    ha::ChangeSet all;
    all.full_resync = true;
    impl_->on_change(all, snap);
  }
}

void ConfigCache::detach() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopped = true;
  }
  if (impl_->listening) impl_->ha.remove_change_listener(impl_->listener);
  impl_->listening = false;
}

ConfigCache::Status ConfigCache::status() const {
  std::lock_guard lock(impl_->mutex);
  Status s;
  s.ready = impl_->full_pass_done && impl_->queue.empty() && impl_->in_flight == 0;
  s.loaded = impl_->items.size();
  s.pending = impl_->queue.size() + impl_->in_flight;
  s.failed = impl_->failed;
  s.warm_ms = impl_->warm_ms;
  return s;
}

search::Result ConfigCache::query(const search::Query& q) const { return impl_->index.query(q); }

std::optional<json::value> ConfigCache::config_of(std::string_view doc_id) const {
  std::lock_guard lock(impl_->mutex);
  auto it = impl_->items.find(doc_id);
  if (it == impl_->items.end()) return std::nullopt;
  return it->second.config;
}

std::optional<json::object> ConfigCache::meta_of(std::string_view doc_id) const {
  std::lock_guard lock(impl_->mutex);
  auto it = impl_->items.find(doc_id);
  if (it == impl_->items.end()) return std::nullopt;
  return it->second.meta;
}

asio::awaitable<bool> ConfigCache::wait_ready(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  asio::steady_timer timer(co_await asio::this_coro::executor);
  while (!status().ready && std::chrono::steady_clock::now() < deadline) {
    timer.expires_after(std::chrono::milliseconds(5));
    co_await timer.async_wait(asio::use_awaitable);
  }
  co_return status().ready;
}

}  // namespace hamcp::home
