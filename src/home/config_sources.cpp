#include "home/config_sources.hpp"

#include <algorithm>

#include "common/json_fields.hpp"
#include "home/config_terms.hpp"

namespace hamcp::home {

namespace json = boost::json;
namespace asio = boost::asio;

namespace {

// The terms of a helper: what its config references, plus its icon.
std::vector<std::string> helper_terms(const json::value& config) {
  std::vector<std::string> terms = config_terms(config);
  if (const json::object* o = config.if_object()) {
    const std::string icon = string_or_empty(*o, "icon");
    if (!icon.empty()) terms.push_back(icon);
  }
  return terms;
}

ConfigItem storage_item(const std::string& domain, json::object item) {
  ConfigItem out;
  const std::string id = string_or_empty(item, "id");
  out.doc.entity_id = domain + "." + id;
  out.doc.domain = std::string(kHelperDocDomain);
  out.doc.friendly_name = string_or_empty(item, "name");
  out.doc.aliases = helper_terms(item);
  out.meta = {{"kind", "helper"}, {"helper_type", domain}, {"helper_id", id}};
  out.config = std::move(item);
  return out;
}

// The options a form shows as suggested values (an options flow's current options).
json::object suggested_values(const json::value& step) {
  json::object options;
  const json::object* o = step.if_object();
  const json::value* schema = o ? o->if_contains("data_schema") : nullptr;
  if (!schema || !schema->is_array()) return options;
  for (const auto& field : schema->get_array()) {
    const json::object* f = field.if_object();
    const json::value* desc = f ? f->if_contains("description") : nullptr;
    const json::value* value = desc && desc->is_object() ? desc->get_object().if_contains("suggested_value") : nullptr;
    if (value && !value->is_null()) options[string_or_empty(*f, "name")] = *value;
  }
  return options;
}

asio::awaitable<json::object> fetch_entry_options(ha::HaClient& ha, const std::string& entry_id) {
  const std::string base = "/api/config/config_entries/options/flow";
  auto starting = ha.rest_post(base, json::object{{"handler", entry_id}});  // named: GCC 12 coroutine temporaries
  const ha::Response started = co_await std::move(starting);
  if (!started.ok()) co_return json::object{};  // no options flow (or the entry just left)
  const json::value step = started.json();
  json::object options = suggested_values(step);
  const std::string flow_id = step.is_object() ? string_or_empty(step.get_object(), "flow_id") : std::string();
  if (ha::RestClient* rest = ha.rest(); rest && !flow_id.empty()) {
    auto aborting = rest->del(base + "/" + flow_id);
    co_await std::move(aborting);
  }
  co_return options;
}

}  // namespace

const std::vector<std::string>& storage_helper_domains() {
  static const std::vector<std::string> kDomains = {"input_boolean", "input_button", "input_datetime", "input_number",
                                                    "input_select",  "input_text",   "counter",        "timer",
                                                    "schedule",      "zone",         "person",         "tag"};
  return kDomains;
}

bool is_storage_helper_domain(std::string_view domain) {
  const auto& d = storage_helper_domains();
  return std::find(d.begin(), d.end(), domain) != d.end();
}

asio::awaitable<std::vector<ConfigItem>> fetch_storage_helpers(ha::HaClient& ha, std::string domain) {
  auto listing = ha.command(json::object{{"type", domain + "/list"}});
  json::value listed = co_await std::move(listing);
  if (json::object* o = listed.if_object(); o && o->contains("storage")) listed = o->at("storage");  // person
  std::vector<ConfigItem> items;
  if (json::array* a = listed.if_array())
    for (auto& item : *a)
      if (json::object* o = item.if_object(); o && !string_or_empty(*o, "id").empty())
        items.push_back(storage_item(domain, std::move(*o)));
  co_return items;
}

std::optional<HelperEntry> helper_entry_of(const json::value& fragment) {
  const json::object* o = fragment.if_object();
  if (!o) return std::nullopt;
  HelperEntry e{string_or_empty(*o, "entry_id"), string_or_empty(*o, "domain"), string_or_empty(*o, "title")};
  if (e.entry_id.empty() || e.domain.empty()) return std::nullopt;
  return e;
}

asio::awaitable<std::vector<HelperEntry>> fetch_helper_entries(ha::HaClient& ha) {
  auto listing = ha.command(json::object{{"type", "config_entries/get"}, {"type_filter", json::array{"helper"}}});
  const json::value listed = co_await std::move(listing);
  std::vector<HelperEntry> entries;
  if (const json::array* a = listed.if_array())
    for (const auto& fragment : *a)
      if (auto e = helper_entry_of(fragment)) entries.push_back(std::move(*e));
  co_return entries;
}

asio::awaitable<ConfigItem> fetch_entry_item(ha::HaClient& ha, HelperEntry entry) {
  auto reading = fetch_entry_options(ha, entry.entry_id);
  json::object options = co_await std::move(reading);
  ConfigItem out;
  out.doc.entity_id = entry_doc_id(entry);
  out.doc.domain = std::string(kHelperDocDomain);
  out.doc.friendly_name = entry.title;
  out.doc.aliases = helper_terms(options);
  json::array entities;
  for (auto& id : entities_of_entry(*ha.snapshot(), entry.entry_id)) {
    entities.emplace_back(id);
    out.doc.aliases.push_back(std::move(id));  // found by the entities it makes, too
  }
  out.meta = {{"kind", "helper"},
              {"helper_type", entry.domain},
              {"entry_id", entry.entry_id},
              {"title", entry.title},
              {"entities", std::move(entities)}};
  out.config = std::move(options);
  co_return out;
}

std::string entry_doc_id(const HelperEntry& entry) {
  std::string id = entry.domain + ".entry_" + entry.entry_id;
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return id;
}

std::vector<std::string> entities_of_entry(const ha::Snapshot& snap, std::string_view entry_id) {
  std::vector<std::string> out;
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& item) {
    const json::object* o = item.if_object();
    const json::value* entry = o ? o->if_contains("config_entry_id") : nullptr;
    const json::value* eid = o ? o->if_contains("entity_id") : nullptr;
    if (entry && entry->is_string() && entry->get_string() == entry_id && eid && eid->is_string())
      out.emplace_back(eid->get_string());
  });
  return out;
}

}  // namespace hamcp::home
