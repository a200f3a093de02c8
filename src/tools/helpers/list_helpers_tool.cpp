// ha_config_list_helpers: the helpers of one type, or of every type ('all'):
// storage collections through their WebSocket list, config-flow helpers as
// their config entries (with their entities). describe=true shows how to
// create one: a flow helper's first form or menu (menu_choice: the form behind
// an option), a storage type's fields.
#include <map>
#include <set>

#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_tools.hpp"

namespace hamcp::tools {

namespace {

using namespace helpers;

// The fields of each storage collection's create command (HA 2026.2), `!` = required.
const char* storage_fields(std::string_view type) {
  static const std::map<std::string_view, const char*> kFields = {
      {"input_boolean", "name!, initial (bool), icon"},
      {"input_button", "name!, icon"},
      {"input_datetime", "name!, has_date (bool), has_time (bool; one of the two true), initial, icon"},
      {"input_number", "name!, min!, max!, step (=1), mode (box|slider), initial, unit_of_measurement, icon"},
      {"input_select", "name!, options! (list, unique), initial (one of options), icon"},
      {"input_text", "name!, min (=0), max (=100), mode (text|password), pattern, initial, icon"},
      {"counter", "name!, initial (=0), minimum, maximum, step (=1), restore (bool), icon"},
      {"timer", "name!, duration (\"H:MM:SS\"), restore (bool), icon"},
      {"schedule", "name!, monday..sunday: [{from: \"HH:MM:SS\", to: \"HH:MM:SS\"}], icon"},
      {"zone", "name!, latitude!, longitude!, radius (=100), passive (bool), icon"},
      {"person", "name!, user_id, device_trackers (list), picture"},
      {"tag", "tag_id, name, description"}};
  auto it = kFields.find(type);
  return it == kFields.end() ? "" : it->second;
}

boost::asio::awaitable<json::array> storage_items(ToolEnv& env, const std::string& type) {
  auto reading = ws_read(env, json::object{{"type", type + "/list"}});
  json::value listed = co_await std::move(reading);
  if (const json::object* o = listed.if_object(); o && o->contains("storage")) listed = o->at("storage");  // person
  json::array items;
  if (!listed.is_array()) co_return items;
  for (auto& item : listed.as_array()) {
    if (!item.is_object()) continue;
    json::object o = std::move(item.as_object());
    o["helper_type"] = type;
    if (const json::value* id = o.if_contains("id"); id && id->is_string() && type != "tag")  // tag.<name>
      o["entity_id"] = type + "." + std::string(id->get_string());
    items.push_back(std::move(o));
  }
  co_return items;
}

boost::asio::awaitable<json::array> flow_items(ToolEnv& env, const std::string& type) {
  std::string path = "/api/config/config_entries/entry";
  if (type != "all") path += "?domain=" + type;
  auto reading = rest_call(env, "GET", std::move(path), nullptr, false);
  const RestAnswer listed = co_await std::move(reading);
  ha::SnapshotPtr snap = env.ha.snapshot();
  json::array items;
  if (!listed.body.is_array()) co_return items;
  for (const auto& e : listed.body.as_array()) {
    const std::string domain(e.at("domain").as_string());
    if (type == "all" && !is_flow_helper_domain(domain)) continue;
    const std::string entry_id(e.at("entry_id").as_string());
    json::array entities;
    for (const auto& eid : entities_of_entry(*snap, entry_id)) entities.emplace_back(eid);
    items.push_back(json::object{{"helper_type", domain},
                                 {"entry_id", entry_id},
                                 {"title", e.at("title")},
                                 {"state", e.at("state")},
                                 {"entities", std::move(entities)}});
  }
  co_return items;
}

boost::asio::awaitable<json::object> describe(ToolEnv& env, const std::string& type, const Args& args) {
  if (is_storage_type(type))
    co_return json::object{{"helper_type", type}, {"kind", "storage"}, {"fields", storage_fields(type)}};
  auto peeking = peek_flow(env, type, args.opt_str("menu_choice"));
  json::object step = co_await std::move(peeking);
  step["helper_type"] = type;
  step["kind"] = "config_flow";
  co_return step;
}

boost::asio::awaitable<mcp::ToolResult> run_list_helpers(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string type = args.str("helper_type", "all");
  if (args.flag("describe", false)) {
    if (type == "all")
      throw ToolException(bad_argument("helper_type", "describe needs one type", "Pass e.g. helper_type=template."));
    auto describing = describe(env, type, args);
    json::object body = co_await std::move(describing);
    co_return ok(std::move(body));
  }
  json::array items;
  for (const auto& t : storage_types()) {
    if (type != "all" && type != t) continue;
    json::array some;
    try {
      auto reading = storage_items(env, t);
      some = co_await std::move(reading);
    } catch (const ToolException& e) {
      // 'all' on a Home Assistant without this collection (older versions): list the others
      if (type != "all" || !e.error().extra.contains("ha_code")) throw;
    }
    for (auto& i : some) items.push_back(std::move(i));
  }
  if (!is_storage_type(type)) {
    auto reading = flow_items(env, type);
    json::array some = co_await std::move(reading);
    for (auto& i : some) items.push_back(std::move(i));
  }
  if (const auto id = args.opt_str("helper_id")) {
    json::array match;
    for (auto& i : items)
      for (const char* k : {"id", "entry_id", "entity_id"})
        if (const json::value* v = i.as_object().if_contains(k); v && v->is_string() && v->get_string() == *id) {
          match.push_back(i);
          break;
        }
    items = std::move(match);
  }
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(0, args.integer("offset", 0)));
  const auto limit = static_cast<std::size_t>(std::max<std::int64_t>(1, args.integer("limit", 50)));
  PageWriter page(env.options.response_budget);
  for (std::size_t i = offset; i < items.size() && page.count() < limit; ++i)
    if (!page.add(std::move(items[i]))) break;
  json::object body;
  body["helper_type"] = type;
  const std::size_t returned = page.count();
  body["items"] = page.take();
  put_page_info(body, offset, returned, items.size(), page.budget_cut());
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_list_helpers_spec() {
  ToolSpec s;
  s.name = "ha_config_list_helpers";
  s.title = "List helpers";
  s.description =
      "List helpers of a type ('all', a storage type: input_*, counter, timer, schedule, zone, person, tag; or a "
      "flow helper: template, group, utility_meter, ...). describe=true: the fields to create one (menu_choice: the "
      "form behind a menu option).";
  s.input_schema = R"J({"type":"object","properties":{"helper_type":{"type":"string"},
"describe":{"type":"boolean"},"menu_choice":{"type":"string"},"helper_id":{"type":"string"},
"limit":{"type":"integer","minimum":1},"offset":{"type":"integer","minimum":0}}})J";
  s.output_schema = R"J({"type":"object","properties":{"items":{"type":"array"}}})J";
  s.annotations = read_only();
  s.run = run_list_helpers;
  return s;
}

}  // namespace hamcp::tools
