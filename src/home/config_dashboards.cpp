#include "home/config_dashboards.hpp"

#include <set>

#include "common/json_fields.hpp"
#include "ha/ws_command.hpp"
#include "home/config_terms.hpp"

namespace hamcp::home {

namespace json = boost::json;
namespace asio = boost::asio;

namespace {

constexpr std::size_t kMaxTerms = 400;  // a 300-card dashboard's entities and card types

// What a dashboard's views and cards say besides entity ids: view and card
// titles, headings and names, and each card type once ("card: thermostat").
struct DashboardWords {
  std::vector<std::string> words;
  std::set<std::string> seen;
  std::size_t cards = 0;
  void add(std::string word) {
    if (!word.empty() && words.size() < kMaxTerms && seen.insert(word).second) words.push_back(std::move(word));
  }
  void walk(const json::value& v) {
    if (const json::object* o = v.if_object()) {
      if (const std::string type = string_or_empty(*o, "type"); !type.empty()) {
        ++cards;
        add("card: " + type);
      }
      for (const char* key : {"title", "heading", "name"}) add(string_or_empty(*o, key));
      for (const auto& kv : *o)
        if (kv.value().is_object() || kv.value().is_array()) walk(kv.value());
    } else if (const json::array* a = v.if_array()) {
      for (const auto& item : *a) walk(item);
    }
  }
};

// What a result shows about a dashboard: its title, url_path and views (title, path).
json::object outline(const DashboardRef& ref, const json::value& config) {
  json::array views;
  const json::object* o = config.if_object();
  const json::value* list = o ? o->if_contains("views") : nullptr;
  if (list && list->is_array())
    for (const auto& view : list->get_array())
      if (const json::object* vo = view.if_object()) {
        json::object shown{{"title", string_or_empty(*vo, "title")}};
        if (std::string path = string_or_empty(*vo, "path"); !path.empty()) shown["path"] = std::move(path);
        views.push_back(std::move(shown));
      }
  return json::object{{"title", ref.title}, {"url_path", ref.url_path}, {"views", std::move(views)}};
}

}  // namespace

std::string dashboard_doc_id(std::string_view url_path) {
  return std::string(kDashboardDocDomain) + "." + std::string(url_path);
}

ConfigItem dashboard_item(const DashboardRef& ref, const json::value& config) {
  ConfigItem item;
  item.doc.entity_id = dashboard_doc_id(ref.url_path);
  item.doc.domain = std::string(kDashboardDocDomain);
  item.doc.friendly_name = ref.title;
  const json::object* o = config.if_object();
  if (o) item.doc.registry_name = string_or_empty(*o, "title");  // the config's own title, when it has one
  item.doc.original_name = ref.url_path;
  DashboardWords words;
  words.walk(config);
  std::vector<std::string> terms = config_terms(config, kMaxTerms);  // the entity ids its cards show
  for (auto& w : words.words)
    if (terms.size() < kMaxTerms) terms.push_back(std::move(w));
  item.doc.aliases = std::move(terms);
  item.meta = {{"kind", "dashboard"}, {"url_path", ref.url_path}, {"title", ref.title}, {"cards", words.cards}};
  if (ref.yaml) item.meta["mode"] = "yaml";
  item.config = outline(ref, config);
  return item;
}

asio::awaitable<std::vector<DashboardRef>> fetch_dashboards(ha::HaClient& ha) {
  auto listing = ha.command(json::object{{"type", "lovelace/dashboards/list"}});  // named: GCC 12 temporaries
  const json::value listed = co_await std::move(listing);
  std::vector<DashboardRef> out{{std::string(kDefaultDashboardUrl), "Overview", false}};
  if (const json::array* items = listed.if_array())
    for (const auto& v : *items)
      if (const json::object* d = v.if_object()) {
        DashboardRef ref{string_or_empty(*d, "url_path"), string_or_empty(*d, "title"),
                         string_or_empty(*d, "mode") == "yaml"};
        if (!ref.url_path.empty()) out.push_back(std::move(ref));
      }
  co_return out;
}

asio::awaitable<ConfigItem> fetch_dashboard_item(ha::HaClient& ha, DashboardRef ref) {
  json::object message{{"type", "lovelace/config"}};
  if (ref.url_path != kDefaultDashboardUrl) message["url_path"] = ref.url_path;
  // HA refuses (config_not_found) a dashboard never saved, the default one of most homes: an
  // answer, not a failure, so not thrown (each throw makes the unwinder's tables resident).
  auto reading = ha.command(ha::refusal_as_value(std::move(message)));
  json::value config = co_await std::move(reading);
  if (ha::refused_by(config)) config = nullptr;
  co_return dashboard_item(ref, config);
}

}  // namespace hamcp::home
