// Templates and configuration checks: render_template (a subscription that
// renders again when a state it read changes) and validate_config.
#include <algorithm>
#include <set>

#include "sim/core/template.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim {
namespace {

using Table = std::map<std::string, WsConnection::Handler, std::less<>>;

json::object listeners_json(const TemplateResult& r) {
  json::array ents;
  for (const auto& e : r.entities) ents.emplace_back(e);
  return {{"all", r.all_states}, {"domains", json::array{}}, {"entities", std::move(ents)}, {"time", r.time}};
}

void render_template_cmd(WsConnection& c, int64_t id, const json::object& msg) {
  std::string source = req_string(msg, "template");
  json::object vars;
  if (const auto* v = msg.if_contains("variables"); v && v->is_object()) vars = v->get_object();
  bool report_errors = opt_bool(msg, "report_errors", false);
  auto& store = c.core().store();
  TemplateResult first;
  try {
    first = render_template(store, source, vars);
  } catch (const TemplateError& e) {
    c.send_error(id, "template_error", e.what());
    return;
  }
  auto watched = std::make_shared<std::set<std::string>>(first.entities.begin(), first.entities.end());
  auto weak = c.weak();
  uint64_t listener =
      store.listen("state_changed", [weak, id, watched, source, vars, report_errors, &store](const Event& e) {
        auto self = weak.lock();
        if (!self) return;
        const auto* eid = e.data.if_contains("entity_id");
        if (!eid || !eid->is_string() || !watched->count(std::string(eid->get_string()))) return;
        try {
          TemplateResult r = render_template(store, source, vars);
          watched->insert(r.entities.begin(), r.entities.end());
          self->send_event(id, json::object{{"result", r.value}, {"listeners", listeners_json(r)}});
        } catch (const TemplateError& err) {
          if (report_errors) self->send_event(id, json::object{{"error", err.what()}, {"level", "ERROR"}});
        }
      });
  c.add_subscription(id, [&store, listener] { store.unlisten(listener); });
  c.send_result(id, nullptr);
  c.send_event(id, json::object{{"result", first.value}, {"listeners", listeners_json(first)}});
}

// HA's message for the first invalid item of a triggers/conditions/actions list
// ("" when valid), with the item's position as voluptuous reports it.
std::string first_invalid(const std::string& key, const json::value& v) {
  if (!v.is_array() && !v.is_object()) return "expected a list";
  json::array items = v.is_array() ? v.get_array() : json::array{v};
  static const std::set<std::string> kActionKeys = {"action",
                                                    "service",
                                                    "delay",
                                                    "wait_template",
                                                    "wait_for_trigger",
                                                    "condition",
                                                    "choose",
                                                    "if",
                                                    "repeat",
                                                    "parallel",
                                                    "sequence",
                                                    "event",
                                                    "scene",
                                                    "stop",
                                                    "variables",
                                                    "device_id",
                                                    "set_conversation_response"};
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string at = " @ data[" + std::to_string(i) + "]";
    const json::object* o = items[i].if_object();
    if (key == "conditions" && items[i].is_string()) continue;  // template shorthand
    if (!o) return "expected a dictionary" + at;
    if (key == "triggers" && !o->contains("trigger") && !o->contains("platform"))
      return "required key not provided" + at + "['trigger']";
    if (key == "conditions" && !o->contains("condition")) return "required key not provided" + at + "['condition']";
    if (key == "actions" &&
        std::none_of(o->begin(), o->end(), [](const auto& kv) { return kActionKeys.count(std::string(kv.key())) > 0; }))
      return "Unable to determine action" + at;
  }
  return {};
}

void validate_config(WsConnection& c, int64_t id, const json::object& msg) {
  json::object out;
  for (const char* key : {"triggers", "conditions", "actions", "trigger", "condition", "action"})
    if (const auto* v = msg.if_contains(key)) {
      std::string name(key);
      if (name.back() != 's') name += 's';
      const std::string error = first_invalid(name, *v);
      out[name] =
          json::object{{"valid", error.empty()}, {"error", error.empty() ? json::value(nullptr) : json::value(error)}};
    }
  c.send_result(id, out);
}

}  // namespace

void register_template_commands(Table& t) {
  t["render_template"] = render_template_cmd;
  t["validate_config"] = validate_config;
}

}  // namespace hamcp::sim
