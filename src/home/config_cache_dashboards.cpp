// The config cache's dashboards (home/config_dashboards.hpp): the list, each
// dashboard's config, and what Home Assistant fires when they change:
// lovelace_updated {url_path} when a dashboard's config is saved or deleted
// (that dashboard is fetched again), panels_updated when a dashboard is
// created, its metadata changed or it is removed (the list is read again:
// new or renamed dashboards are fetched, removed ones leave).
#include <spdlog/spdlog.h>

#include "home/detail/config_cache_impl.hpp"

namespace hamcp::home {

namespace json = boost::json;
namespace asio = boost::asio;

asio::awaitable<void> ConfigCache::Impl::subscribe_to_dashboards(std::weak_ptr<Impl> weak) {
  json::object updated{{"type", "subscribe_events"}, {"event_type", "lovelace_updated"}};
  auto on_updated = [weak](json::value& event, bool) {
    if (auto self = weak.lock()) self->on_lovelace_updated(event);
  };
  auto subscribing = subscribe_quietly(std::move(updated), std::move(on_updated));  // named: GCC 12 temporaries
  co_await std::move(subscribing);
  json::object panels{{"type", "subscribe_events"}, {"event_type", "panels_updated"}};
  auto on_panels = [weak](json::value&, bool) {
    if (auto self = weak.lock()) self->enqueue({std::string(kDashboardsJob)}, {}, false);
  };
  auto panels_subscribing = subscribe_quietly(std::move(panels), std::move(on_panels));
  co_await std::move(panels_subscribing);
}

// event: {"event_type": "lovelace_updated", "data": {"url_path": null | "..."}, ...}
void ConfigCache::Impl::on_lovelace_updated(const json::value& event) {
  const json::object* o = event.if_object();
  const json::value* data = o ? o->if_contains("data") : nullptr;
  const json::value* url = data && data->is_object() ? data->get_object().if_contains("url_path") : nullptr;
  const std::string url_path =
      url && url->is_string() ? std::string(url->get_string()) : std::string(kDefaultDashboardUrl);
  bool known = false;
  {
    std::lock_guard lock(mutex);
    known = dashboards.count(url_path) > 0;
  }
  // A dashboard not listed yet (saved right after its creation): the list fetches it.
  enqueue({known ? std::string(kDashboardJob) + url_path : std::string(kDashboardsJob)}, {}, false);
}

asio::awaitable<void> ConfigCache::Impl::fetch_dashboard_list() {
  std::vector<DashboardRef> listed;
  bool ok = true;
  try {
    auto listing = fetch_dashboards(ha);
    listed = co_await std::move(listing);
  } catch (const std::exception& e) {
    spdlog::debug("config cache: dashboards not listed: {}", e.what());
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
    std::set<std::string>& ids = groups[std::string(kDashboardsGroup)];
    std::map<std::string, DashboardRef, std::less<>> known = std::move(dashboards);
    dashboards.clear();
    std::set<std::string> now;
    for (auto& ref : listed) {
      now.insert(dashboard_doc_id(ref.url_path));
      auto was = known.find(ref.url_path);
      if (was == known.end() || was->second.title != ref.title || !items.count(dashboard_doc_id(ref.url_path)))
        fetch.push_back(std::string(kDashboardJob) + ref.url_path);
      dashboards[ref.url_path] = std::move(ref);
    }
    for (const auto& old : ids)
      if (!now.count(old)) drop_locked(old);
    ids = std::move(now);
  }
  enqueue(std::move(fetch), {}, false);
}

asio::awaitable<void> ConfigCache::Impl::fetch_dashboard(std::string url_path) {
  auto reading = fetch_listed(dashboards, std::move(url_path), kDashboardsGroup, &fetch_dashboard_item);
  co_await std::move(reading);
}

}  // namespace hamcp::home
