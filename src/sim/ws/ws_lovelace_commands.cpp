// WebSocket commands of Lovelace and the frontend, with HA 2026.2's shapes
// (components/lovelace/websocket.py, dashboard.py, resources.py;
// components/frontend/__init__.py): lovelace/config (+ save, delete),
// lovelace/dashboards (list, create, update, delete), lovelace/resources
// (list, create, update, delete) and frontend/get_themes.
#include <algorithm>
#include <random>

#include "sim/home/home_builder.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

Lovelace& lovelace(WsConnection& c) { return home(c).lovelace; }

void only_fields(const json::object& msg, std::initializer_list<std::string_view> allowed) {
  for (const auto& kv : msg) {
    if (kv.key() == "type" || kv.key() == "id") continue;
    if (std::find(allowed.begin(), allowed.end(), kv.key()) == allowed.end())
      throw BadMessage{"extra keys not allowed @ data['" + std::string(kv.key()) + "']"};
  }
}

// uuid4().hex, as HA's storage collections name resources.
std::string uuid_hex() {
  static std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (char& ch : out) ch = kHex[rng() % 16];
  return out;
}

// The dashboard `url_path` names (absent / null: the default dashboard, key "").
std::optional<std::string> url_path_of(const json::object& msg) {
  const json::value* v = msg.if_contains("url_path");
  if (!v || v->is_null()) return std::string();
  if (!v->is_string()) throw BadMessage{"expected str for dictionary value @ data['url_path']"};
  return std::string(v->get_string());
}

const json::object* dashboard_by_url(Lovelace& l, const std::string& url_path) {
  for (const auto& [id, item] : l.dashboards)
    if (const json::value* u = item.if_contains("url_path"); u && u->is_string() && u->get_string() == url_path)
      return &item;
  return nullptr;
}

bool is_yaml(const json::object* item) {
  const json::value* m = item ? item->if_contains("mode") : nullptr;
  return m && m->is_string() && m->get_string() == "yaml";
}

// HA's _handle_errors: an unknown url_path is config_not_found before anything else.
bool known_dashboard(WsConnection& c, int64_t id, const std::string& url_path) {
  if (url_path.empty() || dashboard_by_url(lovelace(c), url_path)) return true;
  c.send_error(id, "config_not_found", "Unknown config specified: " + url_path);
  return false;
}

void config_get(WsConnection& c, int64_t id, const json::object& msg) {
  only_fields(msg, {"url_path", "force"});
  const std::string url_path = *url_path_of(msg);
  if (!known_dashboard(c, id, url_path)) return;
  auto it = lovelace(c).configs.find(url_path);
  if (it == lovelace(c).configs.end()) return c.send_error(id, "config_not_found", "No config found.");
  c.send_result(id, it->second);
}

void config_save(WsConnection& c, int64_t id, const json::object& msg) {
  only_fields(msg, {"url_path", "config"});
  const std::string url_path = *url_path_of(msg);
  const json::value* config = msg.if_contains("config");
  if (!config) throw BadMessage{"required key not provided @ data['config']"};
  if (!config->is_object() && !config->is_string())
    throw BadMessage{"expected dict for dictionary value @ data['config']"};
  if (!known_dashboard(c, id, url_path)) return;
  if (is_yaml(dashboard_by_url(lovelace(c), url_path))) return c.send_error(id, "error", "Not supported");
  lovelace(c).configs[url_path] = *config;
  fire(c, "lovelace_updated", {{"url_path", url_path.empty() ? json::value(nullptr) : json::value(url_path)}});
  c.send_result(id, nullptr);
}

void config_delete(WsConnection& c, int64_t id, const json::object& msg) {
  only_fields(msg, {"url_path"});
  const std::string url_path = *url_path_of(msg);
  if (!known_dashboard(c, id, url_path)) return;
  if (is_yaml(dashboard_by_url(lovelace(c), url_path))) return c.send_error(id, "error", "Not supported");
  lovelace(c).configs.erase(url_path);
  fire(c, "lovelace_updated", {{"url_path", url_path.empty() ? json::value(nullptr) : json::value(url_path)}});
  c.send_result(id, nullptr);
}

void dashboards_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& [key, item] : lovelace(c).dashboards) out.emplace_back(item);
  c.send_result(id, out);
}

// title, icon, show_in_sidebar, require_admin with HA's types (icon may be null on update).
void copy_meta(const json::object& msg, json::object& item) {
  if (const json::value* t = msg.if_contains("title")) {
    if (!t->is_string()) throw BadMessage{"expected str for dictionary value @ data['title']"};
    item["title"] = *t;
  }
  if (const json::value* i = msg.if_contains("icon")) {
    if (i->is_null())
      item.erase("icon");
    else if (!i->is_string())
      throw BadMessage{"expected str for dictionary value @ data['icon']"};
    else
      item["icon"] = *i;
  }
  for (const char* k : {"show_in_sidebar", "require_admin"})
    if (const json::value* b = msg.if_contains(k)) {
      if (!b->is_bool()) throw BadMessage{std::string("expected bool for dictionary value @ data['") + k + "']"};
      item[k] = *b;
    }
}

bool reserved_panel(std::string_view url_path) {
  static constexpr std::string_view kPanels[] = {"lovelace",      "config",  "energy",          "map",
                                                 "logbook",       "history", "developer-tools", "profile",
                                                 "media-browser", "todo",    "calendar"};
  return std::find(std::begin(kPanels), std::end(kPanels), url_path) != std::end(kPanels);
}

void dashboards_create(WsConnection& c, int64_t id, const json::object& msg) {
  only_fields(msg, {"url_path", "title", "icon", "show_in_sidebar", "require_admin", "mode", "allow_single_word"});
  const std::string url_path = req_string(msg, "url_path");
  if (!msg.contains("title")) throw BadMessage{"required key not provided @ data['title']"};
  const json::value* single = msg.if_contains("allow_single_word");
  if (url_path.find('-') == std::string::npos && !(single && single->is_bool() && single->get_bool()))
    return c.send_error(id, "invalid_format", "Url path needs to contain a hyphen (-)");
  if (reserved_panel(url_path) || dashboard_by_url(lovelace(c), url_path))
    return c.send_error(id, "home_assistant_error", "The URL \"" + url_path + "\" is already in use");
  json::object item{{"require_admin", false}, {"show_in_sidebar", true}};
  copy_meta(msg, item);
  const std::string key = slugify(url_path);
  item["url_path"] = url_path;
  item["mode"] = "storage";
  item["id"] = key;
  lovelace(c).dashboards[key] = item;
  fire(c, "panels_updated", {});
  c.send_result(id, item);
}

void dashboards_update(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string key = req_string(msg, "dashboard_id");
  only_fields(msg, {"dashboard_id", "title", "icon", "show_in_sidebar", "require_admin"});
  auto it = lovelace(c).dashboards.find(key);
  if (it == lovelace(c).dashboards.end() || is_yaml(&it->second))
    return c.send_error(id, "not_found", "Unable to find dashboard_id " + key);
  copy_meta(msg, it->second);
  fire(c, "panels_updated", {});
  c.send_result(id, it->second);
}

void dashboards_delete(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string key = req_string(msg, "dashboard_id");
  only_fields(msg, {"dashboard_id"});
  auto it = lovelace(c).dashboards.find(key);
  if (it == lovelace(c).dashboards.end() || is_yaml(&it->second))
    return c.send_error(id, "not_found", "Unable to find dashboard_id " + key);
  const std::string url_path(it->second.at("url_path").as_string());
  lovelace(c).configs.erase(url_path);
  lovelace(c).dashboards.erase(it);
  fire(c, "lovelace_updated", {{"url_path", url_path}});  // HA: LovelaceStorage.async_delete
  fire(c, "panels_updated", {});
  c.send_result(id, nullptr);
}

std::string res_type_of(const json::object& msg) {
  const std::string t = req_string(msg, "res_type");
  if (t != "js" && t != "css" && t != "module" && t != "html")
    throw BadMessage{"value must be one of ['css', 'html', 'js', 'module'] for dictionary value @ data['res_type']"};
  return t;
}

void resources_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& [key, item] : lovelace(c).resources) out.emplace_back(item);
  c.send_result(id, out);
}

void resources_create(WsConnection& c, int64_t id, const json::object& msg) {
  only_fields(msg, {"res_type", "url"});
  const std::string type = res_type_of(msg);
  const std::string url = req_string(msg, "url");
  const std::string key = uuid_hex();
  json::object item{{"id", key}, {"type", type}, {"url", url}};
  lovelace(c).resources[key] = item;
  c.send_result(id, item);
}

void resources_update(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string key = req_string(msg, "resource_id");
  only_fields(msg, {"resource_id", "res_type", "url"});
  auto it = lovelace(c).resources.find(key);
  if (it == lovelace(c).resources.end()) return c.send_error(id, "not_found", "Unable to find resource_id " + key);
  if (msg.contains("res_type")) it->second["type"] = res_type_of(msg);
  if (msg.contains("url")) it->second["url"] = req_string(msg, "url");
  c.send_result(id, it->second);
}

void resources_delete(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string key = req_string(msg, "resource_id");
  only_fields(msg, {"resource_id"});
  if (!lovelace(c).resources.erase(key)) return c.send_error(id, "not_found", "Unable to find resource_id " + key);
  c.send_result(id, nullptr);
}

void get_themes(WsConnection& c, int64_t id, const json::object&) {
  const Lovelace& l = lovelace(c);
  c.send_result(id, json::object{{"themes", l.themes},
                                 {"default_theme", l.default_theme},
                                 {"default_dark_theme", opt(l.default_dark_theme)}});
}

}  // namespace

void register_lovelace_commands(ws_util::Table& t) {
  t["lovelace/config"] = config_get;
  t["lovelace/config/save"] = config_save;
  t["lovelace/config/delete"] = config_delete;
  t["lovelace/dashboards/list"] = dashboards_list;
  t["lovelace/dashboards/create"] = dashboards_create;
  t["lovelace/dashboards/update"] = dashboards_update;
  t["lovelace/dashboards/delete"] = dashboards_delete;
  t["lovelace/resources"] = resources_list;
  t["lovelace/resources/list"] = resources_list;
  t["lovelace/resources/create"] = resources_create;
  t["lovelace/resources/update"] = resources_update;
  t["lovelace/resources/delete"] = resources_delete;
  t["frontend/get_themes"] = get_themes;
}

}  // namespace hamcp::sim
