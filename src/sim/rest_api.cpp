#include "sim/json_writer.hpp"
#include "sim/rest_api.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "sim/home_builder.hpp"
#include "sim/template.hpp"
#include "sim/time_util.hpp"

namespace hamcp::sim {

json::object logbook_entry_json(const LogbookEntry& e);  // ws_history_commands.cpp

RestResponse json_response(int status, const json::value& body) {
  return RestResponse{status, "application/json", to_json(body), {}};
}
RestResponse message_response(int status, std::string_view message) {
  return json_response(status, json::object{{"message", message}});
}
RestResponse text_response(int status, std::string_view text) {
  return RestResponse{status, "text/plain; charset=utf-8", std::string(text), {}};
}

namespace {

RestResponse not_found() { return text_response(404, "404: Not Found"); }
RestResponse method_not_allowed() { return text_response(405, "405: Method Not Allowed"); }
RestResponse bad_request() { return text_response(400, "400: Bad Request"); }
RestResponse server_error() { return text_response(500, "500 Internal Server Error\n\nServer got itself in trouble"); }

bool valid_entity_id(std::string_view id) {
  auto dot = id.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= id.size()) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    char c = id[i];
    if (i == dot) continue;
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return id.find("__") == std::string_view::npos && id[dot + 1] != '_' && id.back() != '_';
}

struct Query {
  std::map<std::string, std::string> params;
  bool has(const std::string& k) const { return params.count(k) > 0; }
  std::string get(const std::string& k) const {
    auto it = params.find(k);
    return it == params.end() ? std::string() : it->second;
  }
};

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) parts.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  return parts;
}

std::optional<json::object> body_object(const RestRequest& r, bool& invalid) {
  invalid = false;
  if (r.body.empty()) return json::object{};
  boost::system::error_code ec;
  json::value v = json::parse(r.body, ec);
  if (ec) {
    invalid = true;
    return std::nullopt;
  }
  if (!v.is_object()) return std::nullopt;
  return v.get_object();
}

json::value history_state(const StoredState& s, bool minimal, bool no_attributes, bool first, Timestamp start) {
  if (minimal && !first)
    return json::object{{"state", s.state}, {"last_changed", iso_time(std::max(s.last_changed, start))}};
  json::object o{{"entity_id", s.entity_id}, {"state", s.state}};
  if (!no_attributes) o["attributes"] = s.attributes;
  o["last_changed"] = iso_time(std::max(s.last_changed, start));
  o["last_updated"] = iso_time(std::max(s.last_updated, start));
  return o;
}

}  // namespace

RestApi::RestApi(SimCore& core, Control control) : core_(core), control_(std::move(control)) {}

RestResponse RestApi::handle(const RestRequest& req) {
  auto parsed = boost::urls::parse_origin_form(req.target);
  if (!parsed) return bad_request();
  boost::urls::url_view url = *parsed;
  std::string path = url.path();
  Query q;
  for (auto p : url.params()) q.params[std::string(p.key)] = p.has_value ? std::string(p.value) : std::string();

  // Auth: "Authorization: Bearer <token>"
  std::string_view auth = req.authorization;
  std::string token;
  if (auth.size() > 7 && (auth.substr(0, 7) == "Bearer " || auth.substr(0, 7) == "bearer ")) token = auth.substr(7);

  if (path == "/api/hamcp_sim/fault") {
    if (!req.from_loopback) return text_response(403, "403: Forbidden");
    if (!core_.control_token_ok(token)) return text_response(401, "401: Unauthorized");
    if (req.method != "POST") return method_not_allowed();
    bool invalid = false;
    auto body = body_object(req, invalid);
    if (!body) return message_response(400, "Fault command must be a JSON object, e.g. {\"action\":\"drop_websockets\"}");
    return control_(*body);
  }

  if (!core_.token_ok(token)) {
    RestResponse r = text_response(401, "401: Unauthorized");
    return r;
  }

  auto parts = split_path(path);
  if (parts.empty() || parts[0] != "api") return not_found();
  parts.erase(parts.begin());
  const std::string& m = req.method;
  auto& store = core_.store();
  std::lock_guard lock(store.mutex());
  Context user_ctx = store.new_context(std::nullopt, store.user_id());

  if (parts.empty()) {
    if (m != "GET") return method_not_allowed();
    return message_response(200, "API running.");
  }
  const std::string& head = parts[0];

  if (head == "config" && parts.size() == 1) {
    if (m != "GET") return method_not_allowed();
    return json_response(200, core_.config_json());
  }
  if (head == "core" && parts.size() == 2 && parts[1] == "state") {
    return json_response(200, json::object{{"state", "RUNNING"},
                                           {"recorder_state", json::object{{"migration_in_progress", false}, {"migration_is_live", false}}}});
  }
  if (head == "states") {
    if (parts.size() == 1) {
      if (m != "GET") return method_not_allowed();
      return RestResponse{200, "application/json", store.states_array_json(), {}};
    }
    if (parts.size() != 2) return not_found();
    const std::string& eid = parts[1];
    if (m == "GET") {
      StatePtr s = store.get(eid);
      if (!s) return message_response(404, "Entity not found.");
      return RestResponse{200, "application/json", store.state_json_cached(s), {}};
    }
    if (m == "POST") {
      if (!valid_entity_id(eid)) return message_response(400, "Invalid entity ID specified.");
      bool invalid = false;
      auto body = body_object(req, invalid);
      if (invalid || !body) return message_response(400, "Invalid JSON specified.");
      const json::value* st = body->if_contains("state");
      if (!st || st->is_null()) return message_response(400, "No state specified.");
      std::string state = st->is_string() ? std::string(st->get_string()) : to_json(*st);
      if (state.size() > 255) return message_response(400, "Invalid state specified.");
      json::object attrs;
      if (const auto* a = body->if_contains("attributes"); a && a->is_object()) attrs = a->get_object();
      bool force = body->contains("force_update") && body->at("force_update").is_bool() && body->at("force_update").get_bool();
      bool existed = store.get(eid) != nullptr;
      StatePtr s = store.set_state(eid, state, std::move(attrs), user_ctx, force);
      RestResponse r{existed ? 200 : 201, "application/json", store.state_json_cached(s), {}};
      r.headers.emplace_back("Location", "/api/states/" + eid);
      return r;
    }
    if (m == "DELETE") {
      if (!store.remove_state(eid, user_ctx)) return message_response(404, "Entity not found.");
      return message_response(200, "Entity removed.");
    }
    return method_not_allowed();
  }
  if (head == "services") {
    if (parts.size() == 1) {
      if (m != "GET") return method_not_allowed();
      return json_response(200, core_.services().describe_rest());
    }
    if (parts.size() != 3) return not_found();
    if (m != "POST") return method_not_allowed();
    bool invalid = false;
    auto body = body_object(req, invalid);
    if (invalid || !body) return message_response(400, "Data should be valid JSON.");
    ServiceCall call;
    call.domain = parts[1];
    call.service = parts[2];
    call.data = std::move(*body);
    call.return_response = q.has("return_response");
    call.context = user_ctx;
    if (!core_.services().has(call.domain, call.service)) return bad_request();
    try {
      auto out = core_.services().call(call);
      std::string changed = "[";
      for (std::size_t i = 0; i < out.changed.size(); ++i) {
        if (i) changed += ',';
        changed += store.state_json_cached(out.changed[i]);
      }
      changed += ']';
      if (!call.return_response) return RestResponse{200, "application/json", changed, {}};
      std::string body_out = "{\"changed_states\":" + changed + ",\"service_response\":" +
                             to_json(out.response ? *out.response : json::value(json::object{})) + "}";
      return RestResponse{200, "application/json", body_out, {}};
    } catch (const ServiceError& e) {
      if (e.translation_key && *e.translation_key == "service_does_not_support_response")
        return message_response(400, "Service does not support responses. Remove return_response from request.");
      if (e.translation_key && *e.translation_key == "service_lacks_response_request")
        return message_response(400, "Service call requires responses but caller did not ask for responses. Add ?return_response to query parameters.");
      if (e.code == "invalid_format" || e.code == "not_found") return bad_request();
      return server_error();
    }
  }
  if (head == "events") {
    if (parts.size() == 1) {
      if (m != "GET") return method_not_allowed();
      json::array out;
      for (const auto& [type, count] : store.listener_counts()) out.push_back(json::object{{"event", type}, {"listener_count", count}});
      return json_response(200, out);
    }
    if (parts.size() != 2) return not_found();
    if (m != "POST") return method_not_allowed();
    json::object data;
    if (!req.body.empty()) {
      boost::system::error_code ec;
      json::value v = json::parse(req.body, ec);
      if (ec) return message_response(400, "Event data should be valid JSON.");
      if (!v.is_null() && !v.is_object()) return message_response(400, "Event data should be a JSON object");
      if (v.is_object()) data = v.get_object();
    }
    store.fire(parts[1], std::move(data), user_ctx, "REMOTE");
    return message_response(200, "Event " + parts[1] + " fired.");
  }
  if (head == "history" && parts.size() >= 2 && parts[1] == "period") {
    if (m != "GET") return method_not_allowed();
    Timestamp now = now_timestamp();
    Timestamp start = now - 86400;
    if (parts.size() == 3) {
      auto t = parse_iso_time(parts[2]);
      if (!t) return message_response(400, "Invalid datetime");
      start = *t;
    }
    Timestamp end = start + 86400;
    if (q.has("end_time")) {
      auto t = parse_iso_time(q.get("end_time"));
      if (!t) return message_response(400, "Invalid end_time");
      end = *t;
    }
    if (!q.has("filter_entity_id")) return message_response(400, "filter_entity_id is missing");
    bool minimal = q.has("minimal_response"), no_attrs = q.has("no_attributes");
    bool significant = !q.has("significant_changes_only") || q.get("significant_changes_only") != "0";
    json::array out;
    std::string ids = q.get("filter_entity_id");
    std::size_t i = 0;
    while (i <= ids.size()) {
      std::size_t j = ids.find(',', i);
      if (j == std::string::npos) j = ids.size();
      std::string eid = ids.substr(i, j - i);
      i = j + 1;
      if (eid.empty()) continue;
      json::array list;
      std::string last;
      for (const auto& p : store.history(eid, start, end)) {
        if (significant && !list.empty() && p->state == last) continue;
        list.push_back(history_state(*p, minimal, no_attrs, list.empty(), start));
        last = p->state;
      }
      if (!list.empty()) out.push_back(std::move(list));
    }
    return json_response(200, out);
  }
  if (head == "logbook") {
    if (m != "GET") return method_not_allowed();
    Timestamp start = now_timestamp() - 86400;
    if (parts.size() == 2) {
      auto t = parse_iso_time(parts[1]);
      if (!t) return message_response(400, "Invalid datetime");
      start = *t;
    }
    Timestamp end = start + 86400;
    if (q.has("end_time")) {
      auto t = parse_iso_time(q.get("end_time"));
      if (!t) return message_response(400, "Invalid end_time");
      end = *t;
    }
    std::string entity = q.get("entity");
    json::array out;
    for (const auto& e : store.logbook(start, end))
      if (entity.empty() || ("," + entity + ",").find("," + e.entity_id + ",") != std::string::npos) out.push_back(logbook_entry_json(e));
    return json_response(200, out);
  }
  if (head == "template" && parts.size() == 1) {
    if (m != "POST") return method_not_allowed();
    bool invalid = false;
    auto body = body_object(req, invalid);
    if (invalid || !body) return message_response(400, "Data should be valid JSON.");
    const json::value* tpl = body->if_contains("template");
    if (!tpl || !tpl->is_string()) return message_response(400, "Message format incorrect: required key not provided @ data['template']");
    json::object vars;
    if (const auto* v = body->if_contains("variables"); v && v->is_object()) vars = v->get_object();
    try {
      auto r = render_template(store, std::string(tpl->get_string()), vars);
      return text_response(200, r.text);
    } catch (const TemplateError& e) {
      return message_response(400, std::string("Error rendering template: ") + e.what());
    }
  }
  if (head == "error_log" && parts.size() == 1) {
    std::string log;
    for (const auto& e : core_.system_log())
      log += iso_time(e.timestamp).substr(0, 19) + " " + e.level + " (MainThread) [" + e.name + "] " + e.message + "\n";
    return text_response(200, log);
  }
  if (head == "calendars" && parts.size() == 1) return json_response(200, json::array{});
  if (head == "camera_proxy" && parts.size() == 2) {
    if (!store.get(parts[1])) return not_found();
    // 1×1 grey JPEG-sized stand-in: tests only check that bytes arrive.
    static const unsigned char png[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0, 0x3A, 0x7E, 0x9B, 0x55, 0, 0, 0, 0x0A, 'I', 'D', 'A', 'T', 0x78, 0x9C, 0x63, 0x68, 0, 0, 0, 0x82, 0, 0x81, 0x77, 0xCD, 0x72, 0xB6, 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    return RestResponse{200, "image/png", std::string(reinterpret_cast<const char*>(png), sizeof png), {}};
  }
  if (head == "config" && parts.size() == 3 && parts[1] == "core" && parts[2] == "check_config") {
    if (m != "POST") return method_not_allowed();
    return json_response(200, json::object{{"result", "valid"}, {"errors", nullptr}, {"warnings", nullptr}});
  }
  if (head == "config" && parts.size() == 4 && parts[2] == "config" &&
      (parts[1] == "automation" || parts[1] == "script" || parts[1] == "scene")) {
    const std::string& kind = parts[1];
    const std::string& key = parts[3];
    Home& home = store.home();
    auto& configs = kind == "automation" ? home.automation_configs : kind == "script" ? home.script_configs : home.scene_configs;
    // the entity that carries this config
    auto entity_of = [&]() -> std::string {
      if (kind == "script") return "script." + key;
      for (const auto& s : store.all())
        if (domain_of(s->entity_id) == kind)
          if (const auto* id = s->attributes.if_contains("id"); id && id->is_string() && id->get_string() == key) return s->entity_id;
      return {};
    };
    if (m == "GET") {
      auto it = configs.find(key);
      if (it == configs.end()) return message_response(404, "Resource not found");
      return json_response(200, it->second);
    }
    if (m == "DELETE") {
      auto it = configs.find(key);
      if (it == configs.end()) return message_response(400, "Resource not found");
      std::string eid = entity_of();
      configs.erase(it);
      if (!eid.empty()) {
        store.remove_state(eid, user_ctx);
        auto& ents = home.entities;
        ents.erase(std::remove_if(ents.begin(), ents.end(), [&](const EntityRegistryEntry& e) { return e.entity_id == eid; }), ents.end());
      }
      if (kind == "script") core_.services().refresh_script_services();
      return json_response(200, json::object{{"result", "ok"}});
    }
    if (m != "POST") return method_not_allowed();
    bool invalid = false;
    auto body = body_object(req, invalid);
    if (invalid || !body) return message_response(400, "Invalid JSON specified.");
    json::object cfg = *body;
    std::string name_key = kind == "scene" ? "name" : "alias";
    if (kind == "automation") {
      if (!cfg.contains("triggers") && !cfg.contains("trigger")) return message_response(400, "Message malformed: required key not provided @ data['triggers']");
      if (!cfg.contains("actions") && !cfg.contains("action")) return message_response(400, "Message malformed: required key not provided @ data['actions']");
      cfg["id"] = key;
    } else if (kind == "script") {
      if (slugify(key) != key) return message_response(400, "Message malformed: invalid slug " + key + " (try " + slugify(key) + ")");
      if (!cfg.contains("sequence")) return message_response(400, "Message malformed: required key not provided @ data['sequence']");
    } else {
      if (!cfg.contains("entities")) return message_response(400, "Message malformed: required key not provided @ data['entities']");
      cfg["id"] = key;
    }
    std::string alias = cfg.contains(name_key) && cfg.at(name_key).is_string() ? std::string(cfg.at(name_key).get_string())
                                                                               : kind == "script" ? key : kind + " " + key;
    configs[key] = cfg;
    std::string eid = entity_of();
    bool created = eid.empty() || !store.get(eid);
    if (eid.empty()) {
      std::string object = kind == "script" ? key : slugify(alias), base = object;
      for (int n = 2; store.get(kind + "." + object); ++n) object = base + "_" + std::to_string(n);
      eid = kind + "." + object;
    }
    json::object attrs;
    std::string state;
    if (kind == "automation") {
      attrs = {{"id", key}, {"last_triggered", nullptr}, {"mode", cfg.contains("mode") ? cfg.at("mode") : json::value("single")}, {"current", 0}};
      state = "on";
    } else if (kind == "script") {
      attrs = {{"last_triggered", nullptr}, {"mode", cfg.contains("mode") ? cfg.at("mode") : json::value("single")}, {"current", 0}};
      if (cfg.contains("icon")) attrs["icon"] = cfg.at("icon");
      state = "off";
    } else {
      json::array ids;
      if (cfg.at("entities").is_object())
        for (const auto& kv : cfg.at("entities").get_object()) ids.emplace_back(kv.key());
      attrs = {{"entity_id", ids}, {"id", key}};
      if (cfg.contains("icon")) attrs["icon"] = cfg.at("icon");
      state = "unknown";
    }
    attrs["friendly_name"] = alias;
    if (!created) {
      StatePtr old = store.get(eid);
      if (kind == "automation" && old) {
        state = old->state;
        if (const auto* lt = old->attributes.if_contains("last_triggered")) attrs["last_triggered"] = *lt;
      }
      if (kind == "scene" && old) state = old->state;
    }
    if (created && !store.entity_entry(eid)) {
      EntityRegistryEntry e;
      e.entity_id = eid;
      e.id = store.new_context().id;
      e.unique_id = key;
      e.platform = kind == "scene" ? "homeassistant" : kind;
      e.has_entity_name = false;
      e.original_name = alias;
      e.created_at = e.modified_at = now_timestamp();
      home.entities.push_back(e);
      store.fire("entity_registry_updated", {{"action", "create"}, {"entity_id", eid}}, user_ctx);
    } else if (auto* e = store.entity_entry(eid)) {
      e->original_name = alias;
    }
    store.set_state(eid, state, std::move(attrs), user_ctx);
    if (kind == "script") core_.services().refresh_script_services();
    return json_response(200, json::object{{"result", "ok"}});
  }
  return not_found();
}

}  // namespace hamcp::sim
