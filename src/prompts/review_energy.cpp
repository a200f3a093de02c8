// review_energy: the Energy dashboard's sources and tracked devices with
// their use over a period (recorder statistics), and what to look at.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "common/iso_time.hpp"
#include "common/json_fields.hpp"
#include "ha/errors.hpp"
#include "prompts/prompt_kit.hpp"
#include "prompts/prompts.hpp"

namespace hamcp::prompts {
namespace {

constexpr std::string_view kName = "review_energy";

struct Period {
  double start = 0;         // epoch seconds
  double end = 0;           // 0 = now
  std::string granularity;  // statistics period
};

Period period_of(const std::string& name) {
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const double day_start = std::floor(now / 86400) * 86400;  // UTC midnight
  if (name == "today") return {day_start, 0, "hour"};
  if (name == "yesterday") return {day_start - 86400, day_start, "hour"};
  if (name == "week") return {day_start - 6 * 86400, 0, "day"};
  if (name == "month") return {day_start - 29 * 86400, 0, "day"};
  return {day_start - 364 * 86400, 0, "month"};  // year
}

struct Stat {
  std::string id, role;  // role: "grid import", "solar", "device: Dishwasher", ...
};

void add_flow(const json::object& source, std::string_view list, std::string_view key, std::string_view role,
              std::vector<Stat>& out) {
  const json::value* flows = source.if_contains(list);
  if (!flows || !flows->is_array()) return;
  for (const auto& f : flows->get_array())
    if (const json::object* o = f.if_object(); o && !string_or_empty(*o, key).empty())
      out.push_back({string_or_empty(*o, key), std::string(role)});
}

std::vector<Stat> stats_of(const json::object& prefs) {
  std::vector<Stat> out;
  if (const json::value* sources = prefs.if_contains("energy_sources"); sources && sources->is_array()) {
    for (const auto& s : sources->get_array()) {
      const json::object* o = s.if_object();
      if (!o) continue;
      const std::string type = string_or_empty(*o, "type");
      add_flow(*o, "flow_from", "stat_energy_from", "grid import", out);
      add_flow(*o, "flow_to", "stat_energy_to", "grid export", out);
      if (!string_or_empty(*o, "stat_energy_from").empty())
        out.push_back({string_or_empty(*o, "stat_energy_from"), type});
      if (!string_or_empty(*o, "stat_energy_to").empty())
        out.push_back({string_or_empty(*o, "stat_energy_to"), type + " charge"});
    }
  }
  if (const json::value* devices = prefs.if_contains("device_consumption"); devices && devices->is_array())
    for (const auto& d : devices->get_array())
      if (const json::object* o = d.if_object())
        out.push_back({string_or_empty(*o, "stat_consumption"), "device: " + string_or_empty(*o, "name")});
  return out;
}

double total_change(const json::value& rows) {
  double sum = 0;
  if (const json::array* a = rows.if_array())
    for (const auto& r : *a)
      if (const json::value* c = r.is_object() ? r.get_object().if_contains("change") : nullptr; c && c->is_number())
        sum += c->to_number<double>();
  return sum;
}

// HA answers not_found ("No prefs") until the Energy dashboard was first saved.
asio::awaitable<json::value> read_prefs(ToolEnv& env) {
  json::value prefs;
  try {
    auto reading = env.ha.command(json::object{{"type", "energy/get_prefs"}});
    prefs = co_await std::move(reading);
  } catch (const ha::HaException& e) {
    if (e.error().ha_code != "not_found") throw;
  }
  co_return prefs;
}

asio::awaitable<json::object> read_statistics(ToolEnv& env, std::vector<Stat> stats, Period p) {
  json::array ids;
  for (const auto& s : stats) ids.emplace_back(s.id);
  json::object msg{{"type", "recorder/statistics_during_period"},
                   {"start_time", common::format_iso_time(p.start)},
                   {"statistic_ids", std::move(ids)},
                   {"period", p.granularity},
                   {"types", json::array{"change"}}};
  if (p.end > 0) msg["end_time"] = common::format_iso_time(p.end);
  auto reading = env.ha.command(std::move(msg));
  json::value got = co_await std::move(reading);
  co_return got.is_object() ? std::move(got.get_object()) : json::object();
}

std::string describe(const std::string& period, const std::vector<Stat>& stats, const json::object& rows,
                     const ha::Snapshot& snap) {
  std::string text = "Review this home's energy use over the period \"" + period + "\" (" +
                     "figures from Home Assistant's long-term statistics, kWh unless noted).\n";
  for (const auto& s : stats) {
    const json::value* r = rows.if_contains(s.id);
    char amount[32];
    std::snprintf(amount, sizeof amount, "%.2f", r ? total_change(*r) : 0.0);
    ha::EntityStatePtr state = snap.states.find(s.id);
    const std::string unit = state ? state->attributes.string_of("unit_of_measurement") : std::string();
    text += "- " + s.role + " (" + s.id + "): " + (r ? std::string(amount) + " " + unit : "no statistics") + "\n";
  }
  return text +
         "\nSteps (hamcp tools):\n"
         "1. Summarise: consumption (import + own solar - export), the self-used share of solar, the biggest "
         "devices and what is not tracked (consumption minus the devices' sum).\n"
         "2. Look closer where it helps: ha_get_history / the statistics tool for hourly patterns, ha_search for "
         "power sensors not yet on the Energy dashboard.\n"
         "3. Suggest concrete savings or automations (shift loads to solar hours, standby use). Changes to the "
         "Energy dashboard go through ha_manage_energy_prefs, only after the user agrees.\n";
}

asio::awaitable<json::object> get(std::shared_ptr<ToolEnv> base, std::map<std::string, std::string> args,
                                  mcp::RequestContext& ctx) {
  const std::shared_ptr<ToolEnv> held_env = base->for_session(ctx.session());  // held while this runs
  ToolEnv& env = *held_env;
  const std::string period = args["period"];
  const auto& periods = energy_periods();
  if (std::find(periods.begin(), periods.end(), period) == periods.end())
    bad_argument(kName, "period", "is not a period this prompt knows", "Pass today, yesterday, week, month or year.");
  auto snapping = home_snapshot(env);
  ha::SnapshotPtr snap = co_await std::move(snapping);
  std::exception_ptr failure;
  std::vector<Stat> stats;
  json::object rows;
  try {
    auto prefs_reading = read_prefs(env);
    json::value prefs = co_await std::move(prefs_reading);
    if (prefs.is_object()) stats = stats_of(prefs.get_object());
    if (!stats.empty()) {
      auto stats_reading = read_statistics(env, stats, period_of(period));
      rows = co_await std::move(stats_reading);
    }
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure) rethrow_as_mcp_error(failure);
  if (stats.empty())
    co_return prompt_result("Energy review (" + period + ")",
                            "This home has no Energy dashboard configured yet. Help the user set it up: find energy "
                            "sensors (ha_search with device_class energy), then add the grid meter, solar and "
                            "devices with ha_manage_energy_prefs once the user agrees.");
  co_return prompt_result("Energy review (" + period + ")", describe(period, stats, rows, *snap));
}

}  // namespace

mcp::Prompt make_review_energy(std::shared_ptr<ToolEnv> env) {
  mcp::Prompt p;
  p.name = std::string(kName);
  p.title = "Review energy use";
  p.description = "Review energy use over a period from the Energy dashboard's sources and devices.";
  p.arguments = {{"period", "Period", "today, yesterday, week, month or year (last 7/30/365 days)", true}};
  p.getter = [env](std::map<std::string, std::string> args, mcp::RequestContext& ctx) {
    return get(env, std::move(args), ctx);
  };
  return p;
}

}  // namespace hamcp::prompts
