// ha_set_integration remove=true (and ha-mcp's ha_remove_helpers_integrations):
// a config entry, one of its subentries, or a storage helper (helper_type).
// Without confirm=true: a preview of what would go (devices, entities,
// subentries), nothing sent. A removed entry is journaled with its view and
// options, a removed subentry with its values (restorable); never retried.
#include <spdlog/spdlog.h>

#include "home/entity_docs.hpp"
#include "tools/confirmation.hpp"
#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_write.hpp"
#include "tools/integrations/integration_change.hpp"
#include "tools/integrations/integration_tools.hpp"

namespace hamcp::tools::integrations {

namespace {

using home::str_of;

// Asks (or previews) before a removal: nullopt = go ahead.
boost::asio::awaitable<std::optional<json::object>> ask_first(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                              std::string target, json::value would_change,
                                                              json::object fields) {
  auto asking = confirm_or_preview_body(
      args, env, ctx, Preview{"remove", json::string(target), std::move(would_change), {}, std::move(fields)});
  std::optional<json::object> preview = co_await std::move(asking);
  co_return preview;
}

boost::asio::awaitable<json::object> remove_storage_helper(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                           const std::string& type, const std::string& id) {
  std::string storage_id = id;
  if (id.rfind(type + ".", 0) == 0) {  // an entity id: its registry entry's unique_id is the storage id
    const ha::RegistryItem entry = env.ha.snapshot()->registry(ha::RegistryKind::entity).find(id);
    storage_id = entry && !str_of(entry, "unique_id").empty()
                     ? str_of(entry, "unique_id")
                     : id.substr(type.size() + 1);  // not in the mirror yet: HA makes the object id from the id
  }
  json::object body{{"helper_type", type}, {"helper_id", storage_id}};
  if (storage_id != id) body["entity_id"] = id;
  auto asking = ask_first(args, env, ctx, id, json::object{{"removes_helper", body}}, body);
  std::optional<json::object> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  helpers::HelperCall call;
  call.type = type;
  call.action = "remove";
  call.id = storage_id;
  call.wait = args.flag("wait", true);
  auto removing = helpers::write_storage_helper(env, call);
  json::object removed = co_await std::move(removing);
  co_return removed;
}

// Home Assistant 2026.2 has no API that shows a subentry's data
// (config_entries/subentries/list: id, type, title, unique_id; diagnostics
// only where an integration adds its own, in its own shape).
constexpr std::string_view kNoDataToRestore =
    "Home Assistant shows no data of this subentry (its reconfigure form suggests none) and hamcp did not write "
    "it, so a restore from the journal cannot make it again with its data: it would be refused. To have it "
    "back, create it again with ha_config_set_helper helper_type=config_subentry and its values.";

constexpr std::string_view kMaybeNoDataToRestore =
    "Home Assistant shows a subentry's data only as its reconfigure form's suggested values, read when you "
    "confirm, and hamcp did not write this one: if that form suggests none (kitchen_sink's), a restore from the "
    "journal cannot make it again with its data; the answer will say.";

bool reconfigurable(const json::object& entry, const std::string& type) {
  const json::value* types = entry.if_contains("supported_subentry_types");
  const json::value* one = types && types->is_object() ? types->as_object().if_contains(type) : nullptr;
  const json::value* can = one && one->is_object() ? one->as_object().if_contains("supports_reconfigure") : nullptr;
  return can && can->is_bool() && can->get_bool();
}

// A subentry's values before it goes: HA lists none, but its reconfigure form
// suggests them (the flow is aborted again); a form that suggests none
// (kitchen_sink's), or a type without one, leaves the values hamcp gave it
// itself (journaled_subentry_values) as the only source. The journal keeps them under
// "data", so a restore can answer the creation form with them; with neither
// they are left out.
boost::asio::awaitable<json::object> with_values(ToolEnv& env, const json::object& entry, json::object subentry) {
  const std::string type = str_of(&subentry, "subentry_type");
  const std::string entry_id = str_of(&entry, "entry_id"), subentry_id = str_of(&subentry, "subentry_id");
  json::object form;
  if (reconfigurable(entry, type)) {
    try {
      auto peeking = helpers::peek_subentry_flow(env, entry_id, type, subentry_id);
      form = co_await std::move(peeking);
    } catch (const std::exception& e) {  // no values then: the removal itself does not depend on them
      spdlog::debug("subentry {}: its values were not read: {}", subentry_id, e.what());
    }
  }
  const bool shown = str_of(&form, "type") == "form";
  json::object data = shown ? helpers::suggested_values(form) : json::object{};
  json::array from_journal;
  for (const auto& kv : helpers::journaled_subentry_values(env, entry_id, subentry_id))
    if (!data.contains(kv.key())) {
      data[kv.key()] = kv.value();
      from_journal.emplace_back(kv.key());
    }
  // A form with fields that suggests none (kitchen_sink's) shows no data: nothing to keep then.
  const json::value* schema = form.if_contains("data_schema");
  const bool no_fields = !schema || !schema->is_array() || schema->get_array().empty();
  if (!data.empty() || (shown && no_fields)) subentry["data"] = std::move(data);
  if (!from_journal.empty()) subentry["data_from_journal"] = std::move(from_journal);
  co_return subentry;
}

boost::asio::awaitable<json::object> remove_subentry(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                     const json::object& entry, const std::string& subentry_id) {
  const std::string entry_id = str_of(&entry, "entry_id");
  auto listing =
      helpers::ws_read(env, json::object{{"type", "config_entries/subentries/list"}, {"entry_id", entry_id}});
  const json::value listed = co_await std::move(listing);
  json::value found = nullptr;
  json::array known;
  if (const json::array* a = listed.if_array())
    for (const auto& s : *a) {
      if (str_of(s.if_object(), "subentry_id") == subentry_id) found = s;
      known.emplace_back(str_of(s.if_object(), "subentry_id"));
    }
  if (found.is_null())
    throw ToolException(ToolError{"subentry_not_found",
                                  "Config entry '" + entry_id + "' has no subentry '" + subentry_id + "'.",
                                  "Pass one of its subentry ids (ha_get_integration include_subentries=true).",
                                  {{"subentry_ids", std::move(known)}, {"written", false}}});
  json::object body = entry_view(entry);
  body["subentry"] = found;
  json::object would{{"removes_subentry", found}};
  // The preview writes nothing, so it does not peek at the reconfigure form: from the journal and the type alone.
  if (helpers::journaled_subentry_values(env, entry_id, subentry_id).empty())
    would["restore"] =
        reconfigurable(entry, str_of(found.if_object(), "subentry_type")) ? kMaybeNoDataToRestore : kNoDataToRestore;
  auto asking = ask_first(args, env, ctx, entry_id + "/" + subentry_id, std::move(would), body);
  std::optional<json::object> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  auto reading = with_values(env, entry, found.as_object());
  json::object journaled = co_await std::move(reading);
  if (!journaled.contains("data")) body["restore"] = kNoDataToRestore;
  json::object msg{{"type", "config_entries/subentries/delete"}, {"entry_id", entry_id}, {"subentry_id", subentry_id}};
  auto deleting = helpers::ws_write(env, std::move(msg), "the removal of subentry " + subentry_id);
  co_await std::move(deleting);
  body["result"] = "subentry_removed";
  helpers::journal(env, body, "integration", "subentry/" + entry_id + "/" + subentry_id, "", "remove",
                   std::move(journaled), nullptr);
  co_return body;
}

boost::asio::awaitable<json::object> remove_entry(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                  const json::object& entry) {
  const std::string entry_id = str_of(&entry, "entry_id");
  json::object body = entry_view(entry);
  auto finding = entry_members(env, entry_id);
  const json::object members = co_await std::move(finding);
  json::object fields = body;
  fields["would_remove"] = members;
  auto asking = ask_first(args, env, ctx, entry_id, members, std::move(fields));
  std::optional<json::object> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::object before = body;
  if (entry.contains("supports_options") && entry.at("supports_options") == true) {
    auto reading = helpers::current_options(env, entry_id);
    before["options"] = co_await std::move(reading);
  }
  auto deleting = helpers::rest_call(env, "DELETE", "/api/config/config_entries/entry/" + entry_id, nullptr, true);
  const helpers::RestAnswer answer = co_await std::move(deleting);
  if (answer.status == 404)
    throw ToolException(ToolError{"entry_not_found",
                                  "Home Assistant has no config entry '" + entry_id + "' any more.",
                                  "List entries with ha_get_integration.",
                                  {{"written", false}}});
  if (answer.status >= 400) throw_http_failure(answer.status, json::serialize(answer.body));
  body["result"] = "removed";
  body["removed"] = members;
  if (const json::object* a = answer.body.if_object(); a && a->contains("require_restart"))
    body["require_restart"] = a->at("require_restart");
  helpers::journal(env, body, "integration", "entry/" + entry_id, "", "remove", json::value(std::move(before)),
                   nullptr);
  co_return body;
}

}  // namespace

boost::asio::awaitable<json::object> remove_integration(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string target = args.str("entry_id");
  if (target.empty())
    throw ToolException(bad_argument("entry_id", "missing", "Pass the entry_id (or ha-mcp's target) to remove."));
  const std::string type = args.str("helper_type");
  if (helpers::is_storage_type(type)) {
    auto removing = remove_storage_helper(args, env, ctx, type, target);
    json::object removed = co_await std::move(removing);
    co_return removed;
  }
  auto listing = list_entries(env);
  const std::vector<json::object> entries = co_await std::move(listing);
  const json::object entry = find_entry(entries, target);
  const std::string subentry_id = args.str("subentry_id");
  if (type == "config_subentry" && subentry_id.empty())
    throw ToolException(bad_argument("subentry_id", "required with helper_type=config_subentry",
                                     "Pass the subentry_id (ha_get_integration include_subentries=true)."));
  if (!subentry_id.empty()) {
    auto removing = remove_subentry(args, env, ctx, entry, subentry_id);
    json::object removed = co_await std::move(removing);
    co_return removed;
  }
  auto removing = remove_entry(args, env, ctx, entry);
  json::object removed = co_await std::move(removing);
  co_return removed;
}

}  // namespace hamcp::tools::integrations
