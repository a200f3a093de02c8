// The config cache's helpers (storage collections and config-flow entries)
// and what Home Assistant fires when config changes without an entity change.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "home/detail/config_cache_impl.hpp"

namespace hamcp::home {

namespace json = boost::json;
namespace asio = boost::asio;

namespace {

// True when a storage helper's entity shows a config value other than the
// cached one (renamed, new icon, other options...): its list is fetched again.
// Its state (on/off, a count) is not config and changes nothing.
bool entity_disagrees(const ha::EntityState& st, const json::value& cached) {
  const json::object* config = cached.if_object();
  if (!config) return true;
  const json::object shown = st.attributes.parse();
  for (const auto& kv : *config) {
    const std::string_view key = kv.key() == "name" ? std::string_view("friendly_name") : std::string_view(kv.key());
    if (const json::value* now = shown.if_contains(key); now && *now != kv.value()) return true;
  }
  return shown.contains("icon") != config->contains("icon");
}

}  // namespace

// Helpers the mirror shows changing: a storage helper added, removed or
// showing another config refetches its list; an entity of a helper config
// entry coming or going refetches that entry (its entities are in its document).
void ConfigCache::Impl::note_helper_changes(const ha::ChangeSet& changes, const ha::Snapshot& snap,
                                            std::vector<std::string>& fetch) {
  std::lock_guard lock(mutex);
  for (const bool added : {true, false})
    for (const auto& id : added ? changes.states_added : changes.states_removed) {
      if (is_storage_helper_domain(domain_of(id))) fetch.push_back(list_job(domain_of(id)));
      const ha::RegistryItem reg = snap.registry(ha::RegistryKind::entity).find(id);
      const json::value* entry = reg == nullptr ? nullptr : reg.get()->if_contains("config_entry_id");
      if (!entry || !entry->is_string() || entry->get_string().empty()) continue;
      if (entries.count(std::string_view(entry->get_string())))
        fetch.push_back(std::string(kEntryJob) + std::string(entry->get_string()));
      else if (added)
        fetch.emplace_back(kEntriesJob);  // an entry not seen yet (without config_entries/subscribe): list again
    }
  // The registry often lands after the entity's state: an entity registry change lists the entries
  // again (one command; only entries not seen yet have their options read).
  const auto& kinds = changes.registries_changed;
  if (std::find(kinds.begin(), kinds.end(), ha::RegistryKind::entity) != kinds.end()) fetch.emplace_back(kEntriesJob);
  for (const auto& id : changes.states_changed) {
    if (!is_storage_helper_domain(domain_of(id))) continue;
    auto it = items.find(id);
    ha::EntityStatePtr st = snap.states.find(id);
    if (it == items.end() || (st && entity_disagrees(*st, it->second.config))) fetch.push_back(list_job(domain_of(id)));
  }
}

// automation_reloaded / scene_reloaded: HA's config editor reloads after
// every write, and an edit that changes neither the alias nor the mode may
// change no entity. The events name no item: all of that kind are fetched
// again. (HA fires no script_reloaded: a script whose config changed is
// removed and created again, which the mirror sees.) config_entries/subscribe (type_filter helper): helper entries
// added, updated (options) or removed. Subscriptions live across reconnects
// (WsClient); their handlers hold the cache weakly.
asio::awaitable<void> ConfigCache::Impl::subscribe_to_changes() {
  std::weak_ptr<Impl> weak = shared_from_this();
  for (const char* kind : {"automation", "scene"}) {
    json::object message{{"type", "subscribe_events"}, {"event_type", std::string(kind) + "_reloaded"}};
    auto handler = [weak, kind](json::value&, bool) {
      if (auto self = weak.lock()) self->on_reloaded(kind);
    };
    auto subscribing = subscribe_quietly(std::move(message), std::move(handler));  // named: GCC 12 temporaries
    co_await std::move(subscribing);
  }
  json::object entries_message{{"type", "config_entries/subscribe"}, {"type_filter", json::array{"helper"}}};
  auto entries_handler = [weak](json::value& event, bool first) {
    if (auto self = weak.lock(); self && !first) self->on_entries_changed(event);  // first: the list we have
  };
  auto subscribing = subscribe_quietly(std::move(entries_message), std::move(entries_handler));
  co_await std::move(subscribing);
  auto dashboards_subscribing = subscribe_to_dashboards(weak);
  co_await std::move(dashboards_subscribing);
}

asio::awaitable<void> ConfigCache::Impl::subscribe_quietly(json::object message, ha::WsClient::EventHandler handler) {
  const std::string type(message.at("type").as_string());
  try {
    auto subscribing = ha.subscribe(std::move(message), std::move(handler));
    co_await std::move(subscribing);
  } catch (const std::exception& e) {  // an HA without it: the mirror's changes still count
    spdlog::debug("config cache: {} not subscribed: {}", type, e.what());
  }
}

void ConfigCache::Impl::on_reloaded(std::string_view kind) {
  std::vector<std::string> fetch;
  ha.snapshot()->states.for_each([&](const ha::EntityStatePtr& s) {
    if (domain_of(s->entity_id) == kind) fetch.push_back(s->entity_id);
  });
  enqueue(std::move(fetch), {}, false);
}

// event: [{"type": "added" | "updated" | "removed", "entry": {...}}, ...]
void ConfigCache::Impl::on_entries_changed(const json::value& event) {
  const json::array* changes = event.if_array();
  if (!changes) return;
  std::vector<std::string> fetch;
  std::vector<std::string> gone;
  {
    std::lock_guard lock(mutex);
    for (const auto& change : *changes) {
      const json::object* c = change.if_object();
      auto entry = c && c->contains("entry") ? helper_entry_of(c->at("entry")) : std::nullopt;
      if (!entry) continue;
      const json::value* type = c->if_contains("type");
      if (type && type->is_string() && type->get_string() == "removed") {
        entries.erase(entry->entry_id);
        gone.push_back(entry_doc_id(*entry));
        groups[std::string(kEntriesGroup)].erase(gone.back());
      } else {
        fetch.push_back(std::string(kEntryJob) + entry->entry_id);
        entries[entry->entry_id] = std::move(*entry);
      }
    }
  }
  enqueue(std::move(fetch), std::move(gone), false);
}

asio::awaitable<void> ConfigCache::Impl::fetch_list(std::string domain) {
  std::vector<ConfigItem> fresh;
  bool ok = true;
  try {
    auto listing = fetch_storage_helpers(ha, domain);
    fresh = co_await std::move(listing);
  } catch (const ha::HaException& e) {
    ok = e.error().cause == ha::ErrorCause::command_failed;  // HA without this collection: none to index
  } catch (const std::exception&) {
    ok = false;
  }
  std::lock_guard lock(mutex);
  if (stopped) co_return;
  if (!ok) {
    ++failed;
    co_return;
  }
  replace_group_locked(list_job(domain), std::move(fresh));
}

asio::awaitable<void> ConfigCache::Impl::fetch_entries() {
  std::vector<HelperEntry> listed;
  bool ok = true;
  try {
    auto listing = fetch_helper_entries(ha);
    listed = co_await std::move(listing);
  } catch (const std::exception&) {
    ok = false;
  }
  std::vector<std::string> fetch;
  {
    std::lock_guard lock(mutex);
    if (stopped) co_return;
    if (!ok) {
      ++failed;
      co_return;
    }
    std::set<std::string>& ids = groups[std::string(kEntriesGroup)];
    std::set<std::string> now;
    std::map<std::string, HelperEntry, std::less<>> known = std::move(entries);
    entries.clear();
    for (auto& e : listed) {
      now.insert(entry_doc_id(e));
      if (!known.count(e.entry_id) || !items.count(entry_doc_id(e)))  // changes of known ones: the subscription
        fetch.push_back(std::string(kEntryJob) + e.entry_id);
      entries[e.entry_id] = std::move(e);
    }
    for (const auto& old : ids)
      if (!now.count(old)) drop_locked(old);
    ids = std::move(now);
  }
  enqueue(std::move(fetch), {}, false);
}

asio::awaitable<void> ConfigCache::Impl::fetch_entry(std::string entry_id) {
  auto reading = fetch_listed(entries, std::move(entry_id), kEntriesGroup, &fetch_entry_item);
  co_await std::move(reading);
}

}  // namespace hamcp::home
