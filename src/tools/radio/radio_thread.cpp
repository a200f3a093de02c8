// radio=thread: the Thread integration's datasets (thread/*, components/
// thread/websocket_api.py) and OpenThread Border Routers (otbr/info).
// Reads: network_status, list_datasets, discover_routers (listens to
// thread/discover_routers for params.seconds, 1-10, default 3). Writes: set_preferred_dataset,
// delete_dataset (confirm; HA refuses to delete the preferred one); network
// writes in radio_thread_network.cpp.
#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& thread() { return *find_radio("thread"); }

asio::awaitable<json::array> datasets(ToolEnv& env) {
  auto asking = command(env, thread(), json::object{{"type", "thread/list_datasets"}});
  json::value listed = co_await std::move(asking);
  json::array out;
  if (json::value* d = listed.is_object() ? listed.as_object().if_contains("datasets") : nullptr; d && d->is_array())
    out = std::move(d->as_array());
  co_return out;
}

asio::awaitable<json::object> list_datasets(Args&, ToolEnv& env) {
  auto finding = entry_id(env, thread());
  co_await std::move(finding);
  auto reading = datasets(env);
  json::array all = co_await std::move(reading);
  co_return json::object{{"radio", "thread"}, {"datasets", std::move(all)}};
}

// otbr/info, or {} with a note when no OTBR integration is set up.
asio::awaitable<json::object> border_routers(ToolEnv& env, std::string& note) {
  const Radio otbr{"thread", "otbr", "OpenThread Border Router"};
  try {
    auto asking = command(env, otbr, json::object{{"type", "otbr/info"}});
    json::value info = co_await std::move(asking);
    co_return info.is_object() ? std::move(info.as_object()) : json::object{};
  } catch (const ToolException& e) {
    if (e.error().code != "radio_not_configured" && e.error().code != "radio_refused") throw;
    note = e.error().message;
  }
  co_return json::object{};
}

asio::awaitable<json::object> network_status(Args& args, ToolEnv& env) {
  auto listing = list_datasets(args, env);
  json::object out = co_await std::move(listing);
  std::string note;
  auto reading = border_routers(env, note);
  json::object routers = co_await std::move(reading);
  json::array list;
  for (auto& [address, r] : routers) {
    json::object router = std::move(r.as_object());
    router.erase("active_dataset_tlvs");  // the network's credentials: never shown
    list.push_back(std::move(router));
  }
  for (const auto& d : out.at("datasets").as_array())
    if (d.as_object().contains("preferred") && d.at("preferred") == true) out["preferred_dataset"] = d;
  out["border_routers"] = std::move(list);
  if (!note.empty()) out["border_routers_note"] = note;
  co_return out;
}

asio::awaitable<json::object> find_dataset(Args& args, ToolEnv& env, const std::string& dataset_id) {
  auto listing = list_datasets(args, env);
  const json::object all = co_await std::move(listing);
  for (const auto& d : all.at("datasets").as_array())
    if (d.as_object().at("dataset_id") == dataset_id.c_str()) co_return d.as_object();
  throw ToolException(
      bad_argument("params.dataset_id", "Thread has no dataset " + dataset_id, "action=list_datasets lists them."));
}

asio::awaitable<json::object> set_preferred(Args& args, ToolEnv& env) {
  const std::string dataset_id = param_str(args, "dataset_id");
  auto finding = find_dataset(args, env, dataset_id);
  const json::object dataset = co_await std::move(finding);
  auto asking =
      command(env, thread(), json::object{{"type", "thread/set_preferred_dataset"}, {"dataset_id", dataset_id}});
  co_await std::move(asking);
  co_return json::object{{"done", true},
                         {"preferred_dataset", dataset_id},
                         {"network_name", dataset.at("network_name")},
                         {"was_preferred", dataset.at("preferred")}};
}

asio::awaitable<json::object> delete_dataset(Args& args, ToolEnv& env) {
  const std::string dataset_id = param_str(args, "dataset_id");
  auto finding = find_dataset(args, env, dataset_id);
  const json::object dataset = co_await std::move(finding);
  if (dataset.contains("preferred") && dataset.at("preferred") == true)
    throw ToolException(
        "dataset_preferred",
        "dataset " + dataset_id + " is the preferred Thread dataset; Home Assistant does not delete it.",
        "Make another dataset preferred first (action=set_preferred_dataset).");
  json::object details{{"dataset", dataset}};
  if (!args.flag("confirm", false))
    co_return preview("delete Thread dataset " + dataset_id + " from Home Assistant's dataset store",
                      std::move(details));
  auto asking = command(env, thread(), json::object{{"type", "thread/delete_dataset"}, {"dataset_id", dataset_id}});
  co_await std::move(asking);
  details["done"] = true;
  details["deleted"] = true;
  co_return details;
}

// Routers by key as thread/discover_routers reports them (discovered, then maybe removed).
void on_router_event(json::object& routers, const json::value& event) {
  const json::object* e = event.if_object();
  const json::value* key = e ? e->if_contains("key") : nullptr;
  if (!key || !key->is_string()) return;
  const std::string k(key->get_string());
  if (e->at("type") == "router_removed") routers.erase(k);
  if (e->at("type") == "router_discovered" && e->contains("data")) routers[k] = e->at("data");
}

asio::awaitable<json::object> discover_routers(Args& args, ToolEnv& env) {
  auto finding = entry_id(env, thread());
  co_await std::move(finding);
  const std::int64_t seconds = std::clamp<std::int64_t>(param(args, "seconds") ? param_int(args, "seconds") : 3, 1, 10);
  auto routers = std::make_shared<json::object>();
  auto subscribing = env.ha.subscribe(json::object{{"type", "thread/discover_routers"}},
                                      [routers](json::value& event, bool) { on_router_event(*routers, event); });
  const std::uint64_t subscription = co_await std::move(subscribing);
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(std::chrono::seconds(seconds));
  co_await timer.async_wait(asio::use_awaitable);
  auto ending = env.ha.unsubscribe(subscription);
  co_await std::move(ending);
  json::array found;
  for (auto& [key, data] : *routers) found.push_back(json::object{{"key", key}, {"router", data}});
  co_return json::object{{"radio", "thread"}, {"listened_seconds", seconds}, {"routers", std::move(found)}};
}

// diagnostics: the other radios' read; Thread's is its network status.
constexpr Action kActions[] = {
    {"network_status", network_status},
    {"diagnostics", network_status},
    {"list_datasets", list_datasets},
    {"discover_routers", discover_routers},
    {"set_preferred_dataset", set_preferred},
    {"delete_dataset", delete_dataset, true},
    {"create_network", thread_create_network, true},
    {"set_network", thread_set_network, true},
    {"set_channel", thread_set_channel, true},
    {"add_dataset", thread_add_dataset},
};

}  // namespace

RadioActions thread_actions() { return {kActions, {}}; }  // every ha-mcp thread action is done

}  // namespace hamcp::tools::radio
