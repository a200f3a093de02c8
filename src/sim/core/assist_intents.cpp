#include "sim/core/assist_intents.hpp"

#include <cctype>
#include <vector>

#include "common/ascii.hpp"
#include "sim/core/sim_core.hpp"

namespace hamcp::sim {

namespace {

namespace json = boost::json;

// Lower case, no trailing punctuation, single spaces.
std::string normalise(const std::string& text) {
  std::string out;
  for (char c : ascii_lower(text)) {
    if (c == '?' || c == '.' || c == '!' || c == ',') continue;
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool starts_with(const std::string& s, std::string_view head) { return s.rfind(head, 0) == 0; }

std::string strip_article(std::string s) { return starts_with(s, "the ") ? s.substr(4) : s; }

json::object target(const std::string& name, const char* type, const std::string& id) {
  return {{"name", name}, {"type", type}, {"id", id}};
}

json::object response(const std::string& language, const char* type, const std::string& speech, json::object data) {
  return {{"speech", json::object{{"plain", json::object{{"speech", speech}, {"extra_data", nullptr}}}}},
          {"card", json::object{}},
          {"language", language},
          {"response_type", type},
          {"data", std::move(data)}};
}

json::object error(const std::string& language, const char* code, const std::string& speech) {
  return response(language, "error", speech, json::object{{"code", code}});
}

json::object done(const std::string& language, const char* type, const std::string& speech, json::object success) {
  return response(
      language, type, speech,
      json::object{
          {"targets", json::array{}}, {"success", json::array{std::move(success)}}, {"failed", json::array{}}});
}

const EntityRegistryEntry* registry_entry(const Home& home, const std::string& entity_id) {
  for (const auto& e : home.entities)
    if (e.entity_id == entity_id) return &e;
  return nullptr;
}

// The controllable entity whose friendly name or alias is `name`.
StatePtr entity_named(SimCore& core, const std::string& name) {
  static constexpr std::string_view kDomains[] = {"light.", "switch.", "fan.", "input_boolean.", "media_player."};
  for (const auto& s : core.store().all()) {
    bool controllable = false;
    for (std::string_view d : kDomains) controllable = controllable || s->entity_id.rfind(d, 0) == 0;
    if (!controllable) continue;
    const json::value* fn = s->attributes.if_contains("friendly_name");
    if (fn && fn->is_string() && ascii_lower(fn->get_string()) == name) return s;
    if (const EntityRegistryEntry* e = registry_entry(core.store().home(), s->entity_id))
      for (const auto& alias : e->aliases)
        if (ascii_lower(alias) == name) return s;
  }
  return nullptr;
}

std::string friendly(const StatePtr& s) {
  const json::value* fn = s->attributes.if_contains("friendly_name");
  return fn && fn->is_string() ? std::string(fn->get_string()) : s->entity_id;
}

json::object turn(SimCore& core, const std::string& rest, bool on, const std::string& language) {
  const std::string name = strip_article(rest);
  StatePtr s = entity_named(core, name);
  if (!s) return error(language, "no_valid_targets", "Sorry, I am not aware of any device called " + name);
  ServiceCall call;
  call.domain = std::string(domain_of(s->entity_id));
  call.service = on ? "turn_on" : "turn_off";
  call.target = {{"entity_id", s->entity_id}};
  call.context = core.store().new_context(std::nullopt, core.store().user_id());
  try {
    core.services().call(call);
  } catch (const ServiceError& e) {
    return error(language, "failed_to_handle", "An unexpected error occurred: " + e.message);
  }
  const bool light = call.domain == "light";
  const std::string speech = std::string(on ? "Turned on" : "Turned off") + (light ? " the light" : "");
  return done(language, "action_done", speech, target(friendly(s), "entity", s->entity_id));
}

std::optional<std::string> area_of(const Home& home, const EntityRegistryEntry& e) {
  if (e.area_id) return e.area_id;
  if (!e.device_id) return std::nullopt;
  for (const auto& d : home.devices)
    if (d.id == *e.device_id) return d.area_id;
  return std::nullopt;
}

json::object temperature(SimCore& core, const std::string& rest, const std::string& language) {
  const Home& home = core.store().home();
  const std::string wanted = strip_article(rest);
  const Area* area = nullptr;
  for (const auto& a : home.areas)
    if (ascii_lower(a.name) == wanted) area = &a;
  if (!area) return error(language, "no_valid_targets", "Sorry, I am not aware of any area called " + wanted);
  for (const auto& e : home.entities) {
    if (e.entity_id.rfind("sensor.", 0) != 0 || area_of(home, e) != area->area_id) continue;
    StatePtr s = core.store().get(e.entity_id);
    const json::value* dc = s ? s->attributes.if_contains("device_class") : nullptr;
    if (!dc || !dc->is_string() || dc->get_string() != "temperature") continue;
    const json::value* unit = s->attributes.if_contains("unit_of_measurement");
    const std::string speech =
        "It is " + s->state + (unit && unit->is_string() ? " " + std::string(unit->get_string()) : std::string());
    return done(language, "query_answer", speech, target(friendly(s), "entity", s->entity_id));
  }
  return error(language, "no_valid_targets", "Sorry, no temperature sensor is in the " + area->name);
}

}  // namespace

json::object converse(SimCore& core, const std::string& text, const std::optional<std::string>& conversation_id,
                      const std::string& language) {
  const std::string said = normalise(text);
  json::object resp;
  if (starts_with(said, "turn on ") || starts_with(said, "switch on "))
    resp = turn(core, said.substr(said.find(" on ") + 4), true, language);
  else if (starts_with(said, "turn off ") || starts_with(said, "switch off "))
    resp = turn(core, said.substr(said.find(" off ") + 5), false, language);
  else if (starts_with(said, "what is the temperature in "))
    resp = temperature(core, said.substr(27), language);
  else if (starts_with(said, "what's the temperature in "))
    resp = temperature(core, said.substr(26), language);
  else
    resp = error(language, "no_intent_match", "Sorry, I couldn't understand that");
  const std::string id = conversation_id ? *conversation_id : core.store().new_context().id;
  return {{"response", std::move(resp)}, {"conversation_id", id}, {"continue_conversation", false}};
}

}  // namespace hamcp::sim
