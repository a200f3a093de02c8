// ha_manage_app action=configure: read the add-on's configuration, check
// config_hash, merge the given options (a masked "**REDACTED**" keeps the secret),
// write once (never retried), journal before/after, answer what changed.
#include "ha/supervisor_client.hpp"
#include "home/config_json.hpp"
#include "tools/addons/addon_config.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/addons/manage_app_parts.hpp"
#include "tools/config_lock.hpp"
#include "tools/edit_record.hpp"
#include "tools/response.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::addons {
namespace {

json::object planned_config(Args& args, const json::object& current, json::object& request) {
  json::object after = current;
  if (const json::object* options = args.object("options")) {
    const json::value* old = current.if_contains("options");
    json::value merged = merge_options(old ? *old : json::value(json::object{}), *options);
    request["options"] = merged;
    after["options"] = std::move(merged);
  }
  if (const json::object* network = args.object("network")) {
    request["network"] = *network;
    json::value net = current.contains("network") && current.at("network").is_object() ? current.at("network")
                                                                                       : json::value(json::object{});
    for (const auto& [port, host] : *network) net.as_object()[port] = host;
    after["network"] = std::move(net);
  }
  for (const char* k : {"boot", "auto_update", "watchdog"})
    if (args.has(k)) {
      request[k] = *args.get(k);
      after[k] = *args.get(k);
    }
  return after;
}

[[noreturn]] void throw_invalid(const ha::SupervisorFailure& f, const json::value& secrets) {
  const std::string message = scrub_secrets(f.message, secrets);
  if (f.kind == ha::SupervisorFailure::Kind::unavailable)
    throw ToolException(
        ToolError{"supervisor_unavailable", message, "This Home Assistant has no add-ons.", {{"written", false}}});
  throw ToolException(ToolError{"invalid_options",
                                "The Supervisor refused the configuration; nothing was changed: " + message,
                                "Fix the fields named in `fields` (ha_get_app slug=... shows the current options).",
                                {{"fields", field_errors(message)}, {"written", false}}});
}

json::array changed_keys(const json::object& before, const json::object& after) {
  json::array out;
  for (const auto& [k, v] : after) {
    const json::value* old = before.if_contains(k);
    if (k == "options" && old && v.is_object() && old->is_object()) {
      for (const auto& [ok, ov] : v.get_object()) {
        const json::value* was = old->get_object().if_contains(ok);
        if (!was || *was != ov) out.emplace_back("options." + std::string(ok));
      }
      for (const auto& [ok, ov] : old->get_object())
        if (!v.get_object().contains(ok)) out.emplace_back("options." + std::string(ok));
    } else if (!old || *old != v) {
      out.emplace_back(k);
    }
  }
  return out;
}

}  // namespace

boost::asio::awaitable<mcp::ToolResult> configure(Args& args, ToolEnv& env) {
  const std::string slug = checked_slug(args);
  auto reading = supervisor(env, "get", "/addons/" + slug + "/info");
  const json::value info = co_await std::move(reading);
  const json::object before = current_config(info);
  check_config_hash(env, {"", slug, "Add-on " + slug + "'s configuration", "ha_get_app slug=\"" + slug + "\""}, before,
                    args.opt_str("config_hash"));
  json::object request;
  const json::object after = planned_config(args, before, request);
  if (request.empty())
    throw ToolException(bad_argument("options", "configure needs options, network, boot, auto_update or watchdog",
                                     "E.g. options={\"log_level\":\"debug\"}."));
  std::optional<ha::SupervisorFailure> failure;
  try {
    auto writing = env.ha.supervisor("post", "/addons/" + slug + "/options", request);
    co_await std::move(writing);
  } catch (const ha::SupervisorException& e) {
    failure = e.failure();
  }
  const json::value secrets = json::object{{"before", before}, {"after", after}};
  if (failure) throw_invalid(*failure, secrets);
  json::object body{{"action", "configure"},
                    {"slug", slug},
                    {"done", true},
                    {"written", true},
                    {"changed", changed_keys(before, after)},
                    {"config", masked(after)},
                    {"config_hash", home::config_hash(after)}};
  if (request.contains("options") && addon_started(info))
    body.emplace("next", "The add-on reads its options at start: restart it (action=restart) to apply them.");
  record_addon_config(env, body, slug, "update", before, after);
  co_return ok(std::move(body));
}

}  // namespace hamcp::tools::addons
