// The energy family's calls to Home Assistant and the restore of a journaled save.
#include "home/config_json.hpp"
#include "tools/edit_record.hpp"
#include "tools/energy/energy_prefs.hpp"
#include "tools/energy/energy_tools.hpp"
#include "tools/everyday/everyday_tools.hpp"

namespace hamcp::tools::energy {

boost::asio::awaitable<json::value> read_prefs(ToolEnv& env) {
  ha::HaError failure;
  try {
    auto reading = env.ha.command(json::object{{"type", "energy/get_prefs"}});
    json::value prefs = co_await std::move(reading);
    co_return prefs;
  } catch (const ha::HaException& e) {
    failure = e.error();
  }
  if (failure.ha_code == "not_found") co_return nullptr;  // never saved
  throw ToolException(from_ha_error(failure));
}

boost::asio::awaitable<json::object> save_prefs(ToolEnv& env, json::object prefs) {
  json::object message{{"type", "energy/save_prefs"}};
  for (const char* key : {"energy_sources", "device_consumption", "device_consumption_water"})
    if (const json::value* v = prefs.if_contains(key)) message[key] = *v;
  auto saving = everyday::ws_write(env, std::move(message), "energy/save_prefs");
  json::value saved = co_await std::move(saving);
  co_return saved.is_object() ? saved.get_object() : json::object();
}

bool is_energy_kind(std::string_view kind) { return kind == "energy"; }

boost::asio::awaitable<json::object> restore_energy_edit(ToolEnv& env, const home::EditRecord& rec) {
  auto reading = read_prefs(env);
  const json::value current = co_await std::move(reading);
  json::object target = rec.before.is_object() ? rec.before.get_object() : empty_prefs();
  auto saving = save_prefs(env, target);
  json::object saved = co_await std::move(saving);
  const json::value was = current.is_object() ? current : json::value(empty_prefs());
  json::object body{{"kind", "energy"},
                    {"result", "restored"},
                    {"restored_edit", rec.id},
                    {"diff", home::short_diff(was, saved)},
                    {"config_hash", home::config_hash(saved)}};
  home::EditRecord entry;
  entry.kind = "energy";
  entry.key = "prefs";
  entry.action = "restore";
  entry.before = current;
  entry.after = saved;
  record_edit(env, body, std::move(entry));
  co_return body;
}

}  // namespace hamcp::tools::energy
