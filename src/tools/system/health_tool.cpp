// ha_get_system_health: HA's system health (a subscription that streams each
// domain's info, then the slow keys as they finish), the versions, the
// repairs issues with severity and a fix hint, and on request the
// configuration check and the logger's levels.
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <mutex>

#include "common/ascii.hpp"
#include "tools/radio/radio_tools.hpp"
#include "tools/system/system_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

namespace asio = boost::asio;

constexpr auto kHealthWait = std::chrono::seconds(10);  // HA's own per-key timeout is 30 s

// What the subscription has said so far (events arrive on the WebSocket's strand).
struct HealthStream {
  std::mutex mutex;
  json::object domains;  // domain -> {"info": {...}, "manage_url"?}
  bool finished = false;
};

// {"type":"date","value":iso} -> iso; {"type":"pending"} -> "pending"; failed -> "failed: <error>".
json::value plain_value(const json::value& v) {
  const json::object* o = v.if_object();
  if (!o || !o->contains("type")) return v;
  const json::value& type = o->at("type");
  if (type == "date" && o->contains("value")) return o->at("value");
  if (type == "pending") return "pending";
  if (type == "failed") return json::value("failed: " + (o->contains("error") ? json::serialize(o->at("error")) : ""));
  return v;
}

void on_health_event(HealthStream& s, const json::value& event) {
  const json::object* e = event.if_object();
  if (!e || !e->contains("type")) return;
  std::lock_guard lock(s.mutex);
  const json::value& type = e->at("type");
  if (type == "initial" && e->contains("data") && e->at("data").is_object()) {
    s.domains = e->at("data").get_object();
  } else if (type == "update" && e->contains("domain") && e->contains("key")) {
    json::object& domain = s.domains[e->at("domain").as_string()].emplace_object();
    json::value& info = domain["info"];
    if (!info.is_object()) info.emplace_object();
    const bool success = e->contains("success") && e->at("success") == true;
    json::value value = e->contains("data") ? e->at("data") : json::value();
    if (!success)
      value = json::object{{"type", "failed"}, {"error", e->contains("error") ? e->at("error") : json::value()}};
    info.as_object()[e->at("key").as_string()] = std::move(value);
  } else if (type == "finish") {
    s.finished = true;
  }
}

}  // namespace

asio::awaitable<json::object> system::read_health(ToolEnv& env) {
  auto stream = std::make_shared<HealthStream>();
  json::object message{{"type", "system_health/info"}};
  auto subscribing =
      env.ha.subscribe(std::move(message), [stream](json::value& event, bool) { on_health_event(*stream, event); });
  const std::uint64_t handle = co_await std::move(subscribing);
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  const auto deadline = std::chrono::steady_clock::now() + kHealthWait;
  bool finished = false;
  while (!finished && std::chrono::steady_clock::now() < deadline) {
    timer.expires_after(std::chrono::milliseconds(25));
    co_await timer.async_wait(asio::use_awaitable);
    std::lock_guard lock(stream->mutex);
    finished = stream->finished;
  }
  auto unsubscribing = env.ha.unsubscribe(handle);
  co_await std::move(unsubscribing);
  json::object health;
  std::lock_guard lock(stream->mutex);
  for (const auto& [domain, entry] : stream->domains) {
    json::object flat;
    if (const json::object* e = entry.if_object()) {
      if (const json::value* info = e->if_contains("info"); info && info->is_object())
        for (const auto& [key, value] : info->get_object()) flat[key] = plain_value(value);
      if (const json::value* url = e->if_contains("manage_url")) flat["manage_url"] = *url;
    }
    health[domain] = std::move(flat);
  }
  if (!finished) health["_note"] = "some checks still pending after 10 s";
  co_return health;
}

namespace {

const json::value* find_in(const json::object& health, std::string_view domain, std::string_view key) {
  const json::value* d = health.if_contains(domain);
  return d && d->is_object() ? d->get_object().if_contains(key) : nullptr;
}

json::object versions_of(const json::object& health, ToolEnv& env) {
  json::object v;
  const json::value* core = find_in(health, "homeassistant", "version");
  if (core && core->is_string()) {
    std::string version(core->get_string());  // HA says "core-2026.2.3"
    if (version.rfind("core-", 0) == 0) version.erase(0, 5);
    v["core"] = version;
  } else
    v["core"] = env.ha.status().ha_version;
  if (const json::value* t = find_in(health, "homeassistant", "installation_type")) v["installation_type"] = *t;
  if (const json::value* os = find_in(health, "hassio", "host_os")) v["os"] = *os;
  if (const json::value* sup = find_in(health, "hassio", "supervisor_version")) v["supervisor"] = *sup;
  return v;
}

json::object repair_of(const json::object& issue) {
  json::object r;
  for (const char* k : {"domain", "issue_id", "severity", "ignored", "translation_key", "translation_placeholders",
                        "breaks_in_ha_version", "created", "learn_more_url"})
    if (const json::value* v = issue.if_contains(k); v && !v->is_null()) r[k] = *v;
  const bool fixable = issue.contains("is_fixable") && issue.at("is_fixable") == true;
  r["fix"] = fixable ? "HA offers a fix flow: Settings > System > Repairs"
                     : "follow learn_more_url; ha_manage_updates action=ignore_repair hides it";
  return r;
}

asio::awaitable<json::object> read_repairs(ToolEnv& env, bool include_ignored) {
  json::object message{{"type", "repairs/list_issues"}};
  auto reading = env.ha.command(std::move(message));
  json::value listed = co_await std::move(reading);
  json::array items;
  std::size_t ignored = 0;
  if (const json::value* issues = listed.is_object() ? listed.get_object().if_contains("issues") : nullptr)
    if (const json::array* a = issues->if_array())
      for (const auto& i : *a) {
        const json::object* o = i.if_object();
        if (!o) continue;
        const bool is_ignored = o->contains("ignored") && o->at("ignored") == true;
        ignored += is_ignored ? 1 : 0;
        if (!is_ignored || include_ignored) items.push_back(repair_of(*o));
      }
  json::object out{{"issues", std::move(items)}};
  if (!include_ignored && ignored) out["ignored_hidden"] = ignored;
  co_return out;
}

bool wants(const std::string& include, std::string_view part) {
  return include.find(part) != std::string::npos || include.find("all") != std::string::npos;
}

// ha-mcp's include values zha_network, zwave_network, thread_network and
// matter_network: ha_manage_radio's network_status of that radio (a radio that
// is not set up answers {"configured": false, ...}).
asio::awaitable<json::object> radio_networks(ToolEnv& env, const std::string& include) {
  static constexpr std::pair<const char*, const char*> kIncludes[] = {{"zha_network", "zigbee"},
                                                                      {"zwave_network", "zwave"},
                                                                      {"thread_network", "thread"},
                                                                      {"matter_network", "matter"}};
  json::object out;
  for (const auto& [key, radio_name] : kIncludes) {
    if (!wants(include, key)) continue;
    auto reading = radio::network_status_or_absent(env, *radio::find_radio(radio_name));
    json::object status = co_await std::move(reading);
    out[key] = std::move(status);
  }
  co_return out;
}

asio::awaitable<mcp::ToolResult> run_system_health(Args& args, ToolEnv& env, mcp::RequestContext&) {
  std::string include = "health,repairs";
  if (args.has("include")) {
    include.clear();
    for (const auto& part : args.list("include")) include += part + ",";
  }
  include = ascii_lower(include);
  json::object body;
  if (args.has("config_entry_id") || args.has("device_id"))
    body["note"] = "integration diagnostics are not part of hamcp's health answer; see ha_get_integration";
  if (include.empty() || wants(include, "health") || wants(include, "version")) {
    auto reading = system::read_health(env);
    json::object health = co_await std::move(reading);
    body["versions"] = versions_of(health, env);
    if (include.empty() || wants(include, "health")) body["health"] = std::move(health);
  }
  if (wants(include, "repair")) {
    auto reading = read_repairs(env, args.flag("include_dismissed_repairs", false));
    json::object repairs = co_await std::move(reading);
    body["repairs"] = std::move(repairs);
  }
  if (wants(include, "config")) {
    auto checking = system::check_config(env);
    json::object check = co_await std::move(checking);
    body["config_check"] = std::move(check);
  }
  if (wants(include, "logger")) {
    auto reading = system::logger_levels(env);
    json::object levels = co_await std::move(reading);
    body["log_levels"] = std::move(levels);
  }
  auto radios = radio_networks(env, include);
  json::object networks = co_await std::move(radios);
  for (auto& [key, status] : networks) body[key] = std::move(status);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_system_health_spec() {
  ToolSpec s;
  s.name = "ha_get_system_health";
  s.title = "System health";
  s.description =
      "HA system health, versions and repairs. include: comma list of health, repairs (default both), config_check "
      "(slow), logger (log levels), all.";
  s.input_schema = R"J({"type":"object","properties":{"include":{"type":"string"},
"include_dismissed_repairs":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"versions":{"type":"object"},"health":{"type":"object"},
"repairs":{"type":"object"},"config_check":{"type":"object"}}})J";
  s.annotations = read_only();
  s.also_accepts = {{"include", R"({"type":["string","array"],"items":{"type":"string"}})"}};
  s.hidden_args = {"config_entry_id",       "device_id",
                   "diagnostics_fields",    "diagnostics_truncate_at_bytes",
                   "diagnostics_data_path", "diagnostics_data_offset",
                   "diagnostics_data_limit"};
  s.run = run_system_health;
  return s;
}

}  // namespace hamcp::tools
