// Administration actions: logger levels, the configuration check, restart and
// reloading one config entry. homeassistant.restart only fires the store
// signal "@restart_requested": the server (sim_server.cpp) closes every
// connection and listens again, as a real restart looks from outside.
#include <set>

#include "sim/core/service_spec.hpp"
#include "sim/core/sim_core.hpp"

namespace hamcp::sim::svc {

namespace {

const std::set<std::string>& log_levels() {
  static const std::set<std::string> kLevels = {"CRITICAL", "FATAL", "ERROR", "WARNING",
                                                "WARN",     "INFO",  "DEBUG", "NOTSET"};
  return kLevels;
}

std::string level_of(const json::value& v, const std::string& key) {
  std::string level = v.is_string() ? std::string(v.get_string()) : std::string();
  for (auto& ch : level) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (!log_levels().count(level))
    throw invalid(
        "value must be one of ['CRITICAL', 'DEBUG', 'ERROR', 'FATAL', 'INFO', 'NOTSET', 'WARN', 'WARNING'] "
        "for dictionary value @ data['" +
        key + "']");
  return level;
}

// HA refuses restart, stop and check_config when the configuration is invalid.
void require_valid_config(Services::Impl& impl, const std::string& action) {
  if (const auto& errors = impl.store.home().system.config_errors) {
    ServiceError e{"home_assistant_error",
                   "The system cannot " + action + " because the configuration is not valid: " + *errors,
                   "config_validation_failed",
                   {{"errors", *errors}}};
    throw e;
  }
}

void add_logger(Services::Impl& impl) {
  impl.add(plain_spec("logger", "set_default_level", "Sets the default log level for integrations.",
                      {fstr("level", "Default severity level for all integrations.", true)},
                      [&impl](Run&, const json::object& d) -> std::optional<json::value> {
                        impl.store.home().system.default_log_level = level_of(d.at("level"), "level");
                        return std::nullopt;
                      }));
  impl.add(plain_spec("logger", "set_level", "Sets the log level for one or more integrations.",
                      {fany("*", "A logger name and its level.")},
                      [&impl](Run&, const json::object& d) -> std::optional<json::value> {
                        std::map<std::string, std::string> levels;  // all checked before any is set
                        for (const auto& kv : d) levels[std::string(kv.key())] = level_of(kv.value(), kv.key());
                        for (auto& [name, level] : levels) impl.store.home().system.logger_levels[name] = level;
                        return std::nullopt;
                      }));
}

void add_core_admin(Services::Impl& impl) {
  impl.add(plain_spec("homeassistant", "check_config", "Checks the Home Assistant YAML-configuration files for errors.",
                      {}, [&impl](Run&, const json::object&) -> std::optional<json::value> {
                        require_valid_config(impl, "check_config");
                        return std::nullopt;
                      }));
  impl.add(plain_spec("homeassistant", "restart", "Restarts Home Assistant.",
                      {fbool("safe_mode", "Restart in safe mode.")},
                      [&impl](Run& r, const json::object&) -> std::optional<json::value> {
                        require_valid_config(impl, "restart");
                        ++impl.store.home().system.restarts;
                        impl.store.fire("@restart_requested", {}, r.ctx);
                        return std::nullopt;
                      }));
  impl.add(plain_spec("homeassistant", "reload_config_entry", "Reloads the specified config entry.",
                      {fstr("entry_id", "The configuration entry ID of the entry to be reloaded.")},
                      [&impl](Run&, const json::object& d) -> std::optional<json::value> {
                        const json::value* id = d.if_contains("entry_id");
                        for (const auto& e : impl.store.home().config_entries)
                          if (id && e.at("entry").at("entry_id") == *id) return std::nullopt;
                        throw ServiceError{"unknown_error", "There were no matching config entries to reload", {}, {}};
                      }));
}

}  // namespace

void add_admin_services(Services::Impl& impl) {
  add_logger(impl);
  add_core_admin(impl);
}

}  // namespace hamcp::sim::svc
