// Actions of automations, scripts and scenes (running their configs).
#include "sim/core/service_spec.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim::svc {

namespace {

void add_automations(Services::Impl& impl) {
  auto automation_trigger = [&impl](Run& r, const StoredState& s, const json::object& d) {
    json::object a = s.attributes;
    a["last_triggered"] = iso_time(now_timestamp());
    std::string name = attr_str(a, "friendly_name");
    r.set_attrs(s, a);
    impl.store.fire("automation_triggered", {{"name", name}, {"entity_id", s.entity_id}, {"source", "action"}}, r.ctx);
    LogbookEntry e;
    e.when = now_timestamp();
    e.entity_id = s.entity_id;
    e.name = name;
    e.message = "triggered by action automation.trigger";
    e.domain = "automation";
    e.context = r.ctx;
    e.context_event_type = "call_service";
    e.context_domain = "automation";
    e.context_service = "trigger";
    impl.store.add_logbook(std::move(e));
    std::string id = attr_str(s.attributes, "id");
    auto it = impl.store.home().automation_configs.find(id);
    if (it != impl.store.home().automation_configs.end()) {
      const json::object config = it->second;  // the run may edit the configs
      TraceRecorder trace("automation", id, r.ctx, config, "action automation.trigger");
      const json::value* actions = config.if_contains("actions");
      if (!actions) actions = config.if_contains("action");
      const std::string execution = actions ? r.run_sequence(*actions, &trace, "action") : "finished";
      trace.finish(impl.store.home(), execution);
    }
  };
  impl.add(entity_spec("automation", "trigger", "Triggers the actions of an automation.",
                       {fbool("skip_condition", "Defines whether or not the conditions will be skipped.")},
                       automation_trigger));
  impl.add(entity_spec("automation", "turn_on", "Enables an automation.", {}, simple_on));
  impl.add(entity_spec("automation", "turn_off", "Disables an automation.",
                       {fbool("stop_actions", "Stops currently running actions.")}, simple_off));
  impl.add(entity_spec("automation", "toggle", "Toggles (enable / disable) an automation.", {},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         s.state == "on" ? simple_off(r, s, d) : simple_on(r, s, d);
                       }));
  impl.add(plain_spec("automation", "reload", "Reloads the automation configuration.", {},
                      [](Run&, const json::object&) { return std::nullopt; }));
}

void add_scripts(Services::Impl& impl) {
  auto script_run = [&impl](Run& r, const StoredState& s, const json::object& d) {
    json::object a = s.attributes;
    a["last_triggered"] = iso_time(now_timestamp());
    r.set_attrs(s, a);
    std::string object = s.entity_id.substr(7);
    impl.store.fire("script_started", {{"name", attr_str(a, "friendly_name")}, {"entity_id", s.entity_id}}, r.ctx);
    LogbookEntry e;
    e.when = now_timestamp();
    e.entity_id = s.entity_id;
    e.name = attr_str(a, "friendly_name");
    e.message = "started";
    e.domain = "script";
    e.context = r.ctx;
    impl.store.add_logbook(std::move(e));
    auto it = impl.store.home().script_configs.find(object);
    if (it != impl.store.home().script_configs.end()) {
      const json::object config = it->second;  // the run may edit the configs
      TraceRecorder trace("script", object, r.ctx, config, {});
      const json::value* variables = d.if_contains("variables");
      if (variables && variables->is_object() && !variables->get_object().empty())
        trace.variables(variables->get_object());
      const std::string execution =
          config.contains("sequence") ? r.run_sequence(config.at("sequence"), &trace, "sequence") : "finished";
      trace.finish(impl.store.home(), execution);
    }
  };
  impl.add(entity_spec("script", "turn_on", "Runs the sequence of actions defined in a script.",
                       {fany("variables", "Variables passed to the script.")}, script_run));
  impl.add(entity_spec("script", "turn_off", "Stops a running script.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, "off", s.attributes); }));
  impl.add(entity_spec("script", "toggle", "Toggle a script.", {}, script_run));
  impl.add(plain_spec("script", "reload", "Reloads all the available scripts.", {},
                      [](Run&, const json::object&) { return std::nullopt; }));
}

void add_scenes(Services::Impl& impl) {
  auto scene_on = [&impl](Run& r, const StoredState& s, const json::object&) {
    std::string id = attr_str(s.attributes, "id");
    auto it = impl.store.home().scene_configs.find(id);
    if (it != impl.store.home().scene_configs.end() && it->second.contains("entities")) {
      for (const auto& kv : it->second.at("entities").get_object()) {
        std::string eid(kv.key());
        std::string dom(domain_of(eid));
        json::object want = kv.value().is_object() ? kv.value().get_object() : json::object{{"state", kv.value()}};
        std::string st =
            want.contains("state") && want.at("state").is_string() ? std::string(want.at("state").get_string()) : "on";
        json::object data;
        for (const auto& w : want)
          if (w.key() != "state" &&
              (dom == "light" ? (w.key() == "brightness" || w.key() == "rgb_color" || w.key() == "color_temp_kelvin")
                              : false))
            data[w.key()] = w.value();
        json::object target{{"entity_id", eid}};
        std::string service;
        if (dom == "cover")
          service = st == "closed" ? "close_cover" : "open_cover";
        else if (dom == "lock")
          service = st == "locked" ? "lock" : "unlock";
        else if (dom == "media_player")
          service = st == "off" ? "turn_off" : st == "paused" ? "media_pause" : "media_play";
        else
          service = st == "off" ? "turn_off" : "turn_on";
        if (impl.specs.count(dom) && impl.specs[dom].count(service)) {
          try {
            r.call(dom, service, std::move(data), std::move(target));
          } catch (const ServiceError&) {
          }
        }
      }
    }
    r.set(s, iso_time(now_timestamp()), s.attributes);
  };
  impl.add(entity_spec(
      "scene", "turn_on", "Activates a scene.",
      {fint("transition", 0, 300, "Time it takes the devices to transition into the states defined in the scene.")},
      scene_on));
  impl.add(plain_spec("scene", "reload", "Reloads the scenes from the YAML-configuration.", {},
                      [](Run&, const json::object&) { return std::nullopt; }));
  impl.add(plain_spec("scene", "apply", "Activates a scene with configuration.",
                      {fany("entities", "List of entities and their target state.", true),
                       fint("transition", 0, 300, "Transition time.")},
                      [](Run& r, const json::object& d) -> std::optional<json::value> {
                        const auto& ents = d.at("entities");
                        if (!ents.is_object())
                          throw invalid("expected a dictionary for dictionary value @ data['entities']");
                        for (const auto& kv : ents.get_object()) {
                          std::string eid(kv.key());
                          std::string st = kv.value().is_string() ? std::string(kv.value().get_string())
                                           : kv.value().is_object() && kv.value().get_object().contains("state")
                                               ? std::string(kv.value().get_object().at("state").get_string())
                                               : "on";
                          std::string dom(domain_of(eid));
                          r.call(dom, st == "off" ? "turn_off" : "turn_on", {}, {{"entity_id", eid}});
                        }
                        return std::nullopt;
                      }));
}

}  // namespace

void add_automation_services(Services::Impl& impl) {
  add_automations(impl);
  add_scripts(impl);
  add_scenes(impl);
}

}  // namespace hamcp::sim::svc
