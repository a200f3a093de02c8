#include "tools/dashboards/dashboard_ha.hpp"

#include <cctype>

#include "common/json_fields.hpp"
#include "home/config_json.hpp"
#include "tools/config_lock.hpp"
#include "tools/dashboards/dashboard_ws.hpp"
#include "tools/edit_record.hpp"

namespace hamcp::tools::dashboards {

std::string Dashboard::id() const { return string_or_empty(item, "id"); }

std::string normalise_url(std::string url_path) {
  if (url_path.empty() || url_path == "default") return kDefaultUrl;
  return url_path;
}

boost::asio::awaitable<json::array> list_items(ToolEnv& env) {
  auto reading = ws_call(env, json::object{{"type", "lovelace/dashboards/list"}}, false, "list dashboards");
  json::value items = co_await std::move(reading);
  co_return items.is_array() ? items.get_array() : json::array();
}

boost::asio::awaitable<std::optional<Dashboard>> find_dashboard(ToolEnv& env, std::string url_path) {
  url_path = normalise_url(std::move(url_path));
  auto listing = list_items(env);
  json::array items = co_await std::move(listing);
  for (auto& v : items) {
    if (!v.is_object() || string_or_empty(v.get_object(), "url_path") != url_path) continue;
    Dashboard d;
    d.url_path = url_path;
    d.item = v.get_object();
    d.yaml = string_or_empty(d.item, "mode") == "yaml";
    co_return d;
  }
  if (url_path != kDefaultUrl) co_return std::nullopt;
  Dashboard d;
  d.url_path = kDefaultUrl;
  d.is_default = true;
  co_return d;
}

boost::asio::awaitable<Dashboard> require_dashboard(ToolEnv& env, std::string url_path) {
  auto finding = find_dashboard(env, url_path);
  std::optional<Dashboard> d = co_await std::move(finding);
  if (d) co_return *d;
  auto listing = list_items(env);
  json::array items = co_await std::move(listing);
  json::array known{kDefaultUrl};
  for (auto& v : items)
    if (v.is_object()) known.emplace_back(string_or_empty(v.get_object(), "url_path"));
  throw ToolException(ToolError{"dashboard_not_found",
                                "There is no dashboard with url_path '" + url_path + "'.",
                                "Use one of `dashboards`, or create it with ha_set_dashboard and a title.",
                                {{"dashboards", std::move(known)}}});
}

boost::asio::awaitable<json::value> read_config(ToolEnv& env, const Dashboard& d) {
  json::object msg{{"type", "lovelace/config"}, {"force", false}};
  msg["url_path"] = d.is_default ? json::value(nullptr) : json::value(d.url_path);
  try {
    auto reading = ws_call(env, std::move(msg), false, "read the dashboard");
    json::value config = co_await std::move(reading);
    co_return config;
  } catch (const ToolException& e) {
    const json::value* code = e.error().extra.if_contains("ha_code");
    // "No config found.": never saved, HA shows a generated one; there is nothing stored to edit.
    if (!code || !code->is_string() || code->get_string() != "config_not_found") throw;
  }
  co_return json::value(nullptr);
}

void refuse_yaml(const Dashboard& d) {
  if (!d.yaml) return;
  throw ToolException(ToolError{"dashboard_read_only",
                                "Dashboard '" + d.url_path + "' is in YAML mode (" +
                                    string_or_empty(d.item, "filename") +
                                    "); Home Assistant does not let it be changed through its API. Nothing was "
                                    "written.",
                                "Edit the YAML file, or create a storage dashboard with ha_set_dashboard.",
                                {{"written", false}}});
}

std::string hash_of(const json::value& config) { return hash_or_empty(config); }

void check_hash(ToolEnv& env, const Dashboard& d, const json::value& current, const std::optional<std::string>& given) {
  check_config_hash(env, {"dashboard", d.url_path, "Dashboard '" + d.url_path + "'", "ha_get_dashboard"}, current,
                    given);
}

boost::asio::awaitable<void> save_config(ToolEnv& env, const Dashboard& d, const json::value& before, json::value next,
                                         std::string action, json::object& body) {
  refuse_yaml(d);
  json::object msg{{"type", "lovelace/config/save"}, {"config", next}};
  if (!d.is_default) msg["url_path"] = d.url_path;
  auto saving = ws_call(env, std::move(msg), true, "save the dashboard config");
  co_await std::move(saving);
  home::EditRecord rec;
  rec.kind = "dashboard";
  rec.key = d.url_path;
  rec.action = std::move(action);
  rec.before = before;
  rec.after = next;
  body["config_hash"] = hash_of(next);
  record_edit(env, body, std::move(rec));
}

std::string to_pointer(std::string_view path, std::string_view field) {
  if (path.empty() || path.front() == '/') return std::string(path);
  std::string out;
  std::size_t i = 0;
  while (i < path.size()) {
    const char c = path[i];
    if (c == '.') {
      ++i;
      continue;
    }
    if (c == '[') {
      const auto close = path.find(']', i);
      if (close == std::string_view::npos)
        throw ToolException(
            bad_argument(field, "'" + std::string(path) + "' has a '[' without ']'", "Write e.g. views[1].cards[2]."));
      out += '/';  // (appended in two steps: GCC 12 warns falsely on "/" + std::string)
      out += path.substr(i + 1, close - i - 1);
      i = close + 1;
      continue;
    }
    const auto end = path.find_first_of(".[", i);
    out += '/';
    out += path.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    i = end == std::string_view::npos ? path.size() : end;
  }
  return out;
}

std::string to_card_path(std::string_view pointer) {
  std::string out;
  std::size_t i = 0;
  while (i < pointer.size()) {
    const auto next = pointer.find('/', i + 1);
    const std::string_view part =
        pointer.substr(i + 1, next == std::string_view::npos ? std::string_view::npos : next - i - 1);
    const bool index = !part.empty() && (std::isdigit(static_cast<unsigned char>(part.front())) || part == "-");
    out += index ? "[" + std::string(part) + "]" : (out.empty() ? "" : ".") + std::string(part);
    i = next == std::string_view::npos ? pointer.size() : next;
  }
  return out;
}

json::object summary_of(const Dashboard& d) {
  if (d.is_default) return {{"url_path", kDefaultUrl}, {"title", "Overview"}, {"mode", "storage"}, {"default", true}};
  json::object out{{"url_path", d.url_path}};
  for (const char* k : {"title", "mode", "icon", "show_in_sidebar", "require_admin"})
    if (const json::value* v = d.item.if_contains(k); v && !v->is_null()) out[k] = *v;
  if (d.yaml || string_or_empty(d.item, "mode") == "yaml")
    out["read_only"] = true;  // HA's API cannot write YAML dashboards
  return out;
}

}  // namespace hamcp::tools::dashboards
