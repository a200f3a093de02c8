// Actions of homeassistant.*, notifications, the logbook and the system log.
#include "sim/core/service_spec.hpp"
#include "sim/core/sim_core.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim::svc {

namespace {

void add_homeassistant(Services::Impl& impl) {
  for (const char* svc : {"turn_on", "turn_off", "toggle"}) {
    Spec s = plain_spec("homeassistant", svc, std::string("Generic action to ") + svc + " devices.", {}, nullptr);
    s.entity = true;
    s.on_call = [&impl, svc](Run& r, const json::object& d) -> std::optional<json::value> {
      std::map<std::string, std::vector<std::string>> by_domain;
      for (const auto& eid : string_list(d.at("entity_id"))) by_domain[std::string(domain_of(eid))].push_back(eid);
      for (auto& [dom, ids] : by_domain) {
        std::string service = svc;
        if (dom == "cover")
          service = svc == std::string("turn_on")    ? "open_cover"
                    : svc == std::string("turn_off") ? "close_cover"
                                                     : "toggle";
        if (dom == "lock") service = svc == std::string("turn_on") ? "unlock" : "lock";
        if (!impl.specs.count(dom) || !impl.specs[dom].count(service)) continue;  // HA logs "not supported"
        json::array arr;
        for (auto& i : ids) arr.emplace_back(i);
        r.call(dom, service, {}, {{"entity_id", arr}});
      }
      return std::nullopt;
    };
    impl.add(std::move(s));
  }
  impl.add(entity_spec("homeassistant", "update_entity", "Forces one or more entities to update their data.", {},
                       [](Run&, const StoredState&, const json::object&) {}));
  for (const char* svc :
       {"reload_core_config", "reload_all", "stop", "save_persistent_states", "reload_custom_templates"})
    impl.add(plain_spec("homeassistant", svc, "Core maintenance action.", {},
                        [](Run&, const json::object&) { return std::nullopt; }));
  impl.add(plain_spec("homeassistant", "set_location", "Updates the Home Assistant location.",
                      {ffloat("latitude", -90, 90, "Latitude of your location.", true),
                       ffloat("longitude", -180, 180, "Longitude of your location.", true),
                       ffloat("elevation", {}, {}, "Elevation of your location.")},
                      [&impl](Run&, const json::object& d) -> std::optional<json::value> {
                        impl.store.home().config.latitude = num(d.at("latitude"));
                        impl.store.home().config.longitude = num(d.at("longitude"));
                        return std::nullopt;
                      }));
}

void add_notifications_and_logs(Services::Impl& impl) {
  impl.add(plain_spec(
      "persistent_notification", "create", "Shows a notification on the notifications panel.",
      {fstr("message", "Message body of the notification.", true), fstr("title", "Optional title of the notification."),
       fstr("notification_id", "ID of the notification.")},
      [&impl](Run& r, const json::object& d) -> std::optional<json::value> {
        impl.store.fire("persistent_notifications_updated", {{"message", d.at("message")}}, r.ctx);
        return std::nullopt;
      }));
  impl.add(plain_spec("persistent_notification", "dismiss", "Deletes a notification from the notifications panel.",
                      {fstr("notification_id", "ID of the notification to be deleted.", true)},
                      [](Run&, const json::object&) { return std::nullopt; }));
  impl.add(plain_spec("persistent_notification", "dismiss_all", "Deletes all notifications.", {},
                      [](Run&, const json::object&) { return std::nullopt; }));
  for (const char* svc : {"notify", "persistent_notification", "mobile_app_alex_s_iphone"})
    impl.add(plain_spec(
        "notify", svc, "Sends a notification message.",
        {fstr("message", "Message body of the notification.", true), fstr("title", "Title of the notification."),
         fany("target", "Targets."), fany("data", "Extended information.")},
        [](Run&, const json::object&) { return std::nullopt; }));
  impl.add(plain_spec("logbook", "log", "Writes a custom entry to the logbook.",
                      {fstr("name", "Custom name for an entity, can be referenced using an `entity_id`.", true),
                       fstr("message", "Message of the logbook entry.", true),
                       fstr("entity_id", "Entity to reference in the logbook entry."),
                       fstr("domain", "Determines which icon is used in the logbook entry.")},
                      [&impl](Run& r, const json::object& d) -> std::optional<json::value> {
                        LogbookEntry e;
                        e.when = now_timestamp();
                        e.name = std::string(d.at("name").get_string());
                        e.message = std::string(d.at("message").get_string());
                        if (auto* v = d.if_contains("entity_id")) e.entity_id = std::string(v->get_string());
                        if (auto* v = d.if_contains("domain")) e.domain = std::string(v->get_string());
                        e.context = r.ctx;
                        impl.store.add_logbook(std::move(e));
                        return std::nullopt;
                      }));
  impl.add(plain_spec("system_log", "write", "Write log entry.",
                      {fstr("message", "Message to log.", true), fstr("level", "Log level."),
                       fstr("logger", "Logger name under which to log the message.")},
                      [&impl](Run& r, const json::object& d) -> std::optional<json::value> {
                        impl.store.fire("system_log_event",
                                        {{"message", json::array{d.at("message")}},
                                         {"level", d.contains("level") ? d.at("level") : json::value("error")}},
                                        r.ctx);
                        return std::nullopt;
                      }));
  impl.add(plain_spec("system_log", "clear", "Deletes all log entries.", {},
                      [](Run&, const json::object&) { return std::nullopt; }));
}

// frontend.set_theme: an unknown theme changes nothing (HA only logs a warning);
// "default" / "none" reset the light / dark default.
void add_frontend(Services::Impl& impl) {
  impl.add(plain_spec("frontend", "set_theme", "Sets the default theme Home Assistant uses.",
                      {fstr("name", "Name of the theme to set."), fstr("name_dark", "Name of the dark theme to set."),
                       fstr("mode", "Theme mode (light or dark).")},
                      [&impl](Run& r, const json::object& d) -> std::optional<json::value> {
                        Lovelace& l = impl.store.home().lovelace;
                        const std::string mode = d.contains("mode") ? attr_str(d, "mode") : "light";
                        if (mode != "light" && mode != "dark")
                          throw invalid("value must be one of ['dark', 'light'] for dictionary value @ data['mode']");
                        const bool dark = mode == "dark" || d.contains("name_dark");
                        const std::string name = attr_str(d, dark && d.contains("name_dark") ? "name_dark" : "name");
                        if (name != "default" && name != "none" && !l.themes.contains(name)) return std::nullopt;
                        if (dark)
                          l.default_dark_theme =
                              name == "none" || name == "default" ? std::nullopt : std::optional<std::string>(name);
                        else
                          l.default_theme = name == "none" ? "default" : name;
                        impl.store.fire("themes_updated", {}, r.ctx);
                        return std::nullopt;
                      }));
}

}  // namespace

void add_system_services(Services::Impl& impl) {
  add_homeassistant(impl);
  add_notifications_and_logs(impl);
  add_admin_services(impl);
  add_frontend(impl);
}

}  // namespace hamcp::sim::svc
