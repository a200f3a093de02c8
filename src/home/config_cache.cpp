#include "home/config_cache.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <deque>
#include <map>
#include <mutex>
#include <set>

namespace hamcp::home {

namespace json = boost::json;
namespace asio = boost::asio;

namespace {

// One table entry per kind of config: its entity domain and the config
// editor key its entity carries. (Storage helpers: a list per domain, see the header.)
struct Kind {
  const char* domain;
  bool key_is_object_id;  // scripts: the object id; automations, scenes: the "id" attribute
};
constexpr Kind kKinds[] = {{"automation", false}, {"script", true}, {"scene", false}};

const Kind* kind_of(std::string_view entity_id) {
  const std::string_view domain = entity_id.substr(0, entity_id.find('.'));
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

bool looks_like_entity_id(std::string_view s) {
  const auto dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == s.size() || s.size() > 255) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) return false;
  return s.find('.', dot + 1) == std::string_view::npos;
}

struct TermWalker {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t limit;
  void add(std::string term) {
    if (out.size() < limit && seen.insert(term).second) out.push_back(std::move(term));
  }
  void walk(const json::value& v, std::string_view key) {
    if (const auto* s = v.if_string()) {
      if (key == "trigger" || key == "platform" || key == "condition") {
        add(std::string(key == "condition" ? "condition: " : "trigger: ") + std::string(*s));
      } else if (looks_like_entity_id(*s)) {
        add(std::string(*s));  // an entity id, or a service under action/service
      }
    } else if (const auto* o = v.if_object()) {
      for (const auto& kv : *o) {
        if (looks_like_entity_id(kv.key())) add(std::string(kv.key()));  // a scene's entities are keys
        walk(kv.value(), kv.key());
      }
    } else if (const auto* a = v.if_array()) {
      for (const auto& item : *a) walk(item, key);
    }
  }
};

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

std::vector<std::string> config_terms(const json::value& config, std::size_t limit) {
  TermWalker w{{}, {}, limit};
  w.walk(config, {});
  return std::move(w.out);
}

struct ConfigCache::Impl : std::enable_shared_from_this<ConfigCache::Impl> {
  Impl(ha::HaClient& h, ConfigCacheOptions o) : ha(h), options(o) {}

  ha::HaClient& ha;
  ConfigCacheOptions options;
  search::EntityIndex index;
  std::optional<asio::any_io_executor> executor;
  std::size_t listener = 0;
  bool listening = false;

  mutable std::mutex mutex;  // guards everything below
  bool stopped = false;
  bool full_pass_requested = false;
  bool full_pass_done = false;
  std::chrono::steady_clock::time_point warm_start{};
  double warm_ms = 0;
  std::deque<std::string> queue;  // entity ids to fetch
  std::set<std::string> queued;
  std::size_t in_flight = 0;
  std::size_t workers = 0;
  std::size_t failed = 0;
  std::map<std::string, json::value, std::less<>> configs;

  // Mirror listener (publishing thread): note what to fetch, then let the executor do it.
  void on_change(const ha::ChangeSet& changes, const ha::SnapshotPtr& snap) {
    std::vector<std::string> fetch;
    std::vector<std::string> gone;
    if (changes.full_resync) {
      snap->states.for_each([&](const ha::EntityStatePtr& s) {
        if (kind_of(s->entity_id)) fetch.push_back(s->entity_id);
      });
    }
    for (const auto* list : {&changes.states_added, &changes.states_changed})
      for (const auto& id : *list)
        if (kind_of(id)) fetch.push_back(id);
    for (const auto& id : changes.states_removed)
      if (kind_of(id)) gone.push_back(id);
    if (fetch.empty() && gone.empty() && !changes.full_resync) return;
    enqueue(std::move(fetch), std::move(gone), changes.full_resync);
  }

  void enqueue(std::vector<std::string> fetch, std::vector<std::string> gone, bool full) {
    {
      std::lock_guard lock(mutex);
      if (stopped || !executor) return;
      if (full && !full_pass_requested) {
        full_pass_requested = true;
        warm_start = std::chrono::steady_clock::now();
      }
      for (auto& id : gone) {
        configs.erase(id);
        index.remove(id);
      }
      for (auto& id : fetch)
        if (queued.insert(id).second) queue.push_back(std::move(id));
      if (full && queue.empty() && workers == 0 && !full_pass_done) full_pass_done = true;  // a home with none
    }
    spawn_workers();
  }

  void spawn_workers() {
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

  std::optional<std::string> next() {
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

  asio::awaitable<void> work() {
    for (std::optional<std::string> id = next(); id; id = next()) {
      auto fetching = fetch_one(*id);  // named: GCC 12 coroutine temporaries
      co_await std::move(fetching);
    }
  }

  asio::awaitable<void> fetch_one(const std::string& entity_id) {
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

  void store(const std::string& entity_id, const ha::EntityStatePtr& st, std::optional<json::value> config, bool ok) {
    std::lock_guard lock(mutex);
    --in_flight;
    if (stopped) return;
    if (!ok) ++failed;
    if (!config || !st) {
      if (ok) {
        configs.erase(entity_id);
        index.remove(entity_id);
      }
      return;
    }
    search::EntityDoc doc;
    doc.entity_id = entity_id;
    doc.friendly_name = st->attributes.string_of("friendly_name");
    if (const json::object* o = config->if_object()) {
      if (const json::value* d = o->if_contains("description"); d && d->is_string())
        doc.original_name = std::string(d->get_string());
    }
    doc.aliases = config_terms(*config);
    index.upsert(std::move(doc));
    configs[entity_id] = std::move(*config);
  }
};

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
  s.loaded = impl_->configs.size();
  s.pending = impl_->queue.size() + impl_->in_flight;
  s.failed = impl_->failed;
  s.warm_ms = impl_->warm_ms;
  return s;
}

search::Result ConfigCache::query(const search::Query& q) const { return impl_->index.query(q); }

std::optional<json::value> ConfigCache::config_of(std::string_view entity_id) const {
  std::lock_guard lock(impl_->mutex);
  auto it = impl_->configs.find(entity_id);
  if (it == impl_->configs.end()) return std::nullopt;
  return it->second;
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
