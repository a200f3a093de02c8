#include "tools/everyday/everyday_tools.hpp"

#include <cctype>
#include <cstdio>

#include "tools/action_tool.hpp"
#include "tools/write_outcome.hpp"

namespace hamcp::tools {

namespace {

// A mixed tool (read actions too); its answer differs per action, so the output
// schema declares none of them.
ToolSpec mixed_spec(std::string name, std::string title, std::string description) {
  ToolSpec s;
  s.name = std::move(name);
  s.title = std::move(title);
  s.description = std::move(description);
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.mixed = true;
  return s;
}

}  // namespace

ToolSpec make_manage_calendar_spec() {
  return merge_actions(
      mixed_spec("ha_manage_calendar", "Calendar events",
                 "get: events in [start, end) (default: next 7 days; no entity_id: the calendars). set: summary, "
                 "start, end; uid updates; recurrence_id: one occurrence, + recurrence_range=THISANDFUTURE: it and "
                 "the following; start/end both ISO dates (all day, end exclusive) or date-times. remove: uid, "
                 "confirm=true (else a preview)."),
      {{"get", make_get_calendar_events_spec()},
       {"set", make_set_calendar_event_spec()},
       {"remove", make_remove_calendar_event_spec()}});
}

ToolSpec make_manage_todo_spec() {
  return merge_actions(
      mixed_spec("ha_manage_todo", "To-do lists",
                 "get: items of a list (status filters; no entity_id: the lists). set: add an item (summary), or "
                 "update one (item: uid or summary): rename, status, due_date or due_datetime, description; "
                 "previous_uid moves it after that item (\"\": to the top). remove: item, confirm=true (else a "
                 "preview)."),
      {{"get", make_get_todo_spec()}, {"set", make_set_todo_item_spec()}, {"remove", make_remove_todo_item_spec()}});
}

void register_everyday_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  using Maker = ToolSpec (*)();
  static constexpr Maker kMakers[] = {make_manage_calendar_spec, make_manage_todo_spec, make_get_camera_image_spec};
  for (Maker make : kMakers) registry.add_tool(build_tool(make(), env));
}

namespace everyday {

namespace {

[[noreturn]] void throw_write_failure(const ha::HaError& failure, std::string_view what) {
  if (outcome_unknown(failure))
    throw ToolException(unknown_outcome(failure, what, "Read the list again before calling again."));
  ToolError err = from_ha_error(failure);
  if (!failure.ha_code.empty()) {
    err.code = failure.ha_code == "not_found" ? "not_found" : "ha_refused";
    err.message = "Home Assistant refused " + std::string(what) + ": " + failure.detail + " Nothing was changed.";
    err.suggestion = "Fix the argument HA names and call again.";
  }
  err.extra["written"] = false;
  throw ToolException(std::move(err));
}

}  // namespace

boost::asio::awaitable<ha::EntityStatePtr> entity_arg(Args& args, ToolEnv& env, std::string_view domain) {
  const std::string entity_id = args.str("entity_id");
  const std::string prefix = std::string(domain) + ".";
  if (entity_id.rfind(prefix, 0) != 0)
    throw ToolException(bad_argument("entity_id", "must be a " + std::string(domain) + " entity, e.g. " + prefix + "x",
                                     "List them with ha_search domain_filter=" + std::string(domain) + "."));
  auto waiting = env.snapshot();
  ha::SnapshotPtr snap = co_await std::move(waiting);
  ha::EntityStatePtr state = snap->states.find(entity_id);
  if (!state) throw ToolException(unknown_entity(env.index, entity_id));
  co_return state;
}

boost::asio::awaitable<json::value> call_action(ToolEnv& env, std::string domain, std::string service,
                                                const std::string& entity_id, json::object data) {
  const std::string what = domain + "." + service;
  ha::ServiceCall call;
  call.domain = std::move(domain);
  call.service = std::move(service);
  call.data = std::move(data);
  call.target = {{"entity_id", entity_id}};
  ha::HaError failure;
  try {
    auto calling = env.ha.call_service(std::move(call));
    json::value result = co_await std::move(calling);
    co_return result;
  } catch (const ha::HaException& e) {
    failure = e.error();
  }
  throw_write_failure(failure, what);
}

boost::asio::awaitable<json::value> ws_write(ToolEnv& env, json::object message, std::string what) {
  ha::HaError failure;
  try {
    auto sending = env.ha.command(std::move(message));
    json::value result = co_await std::move(sending);
    co_return result;
  } catch (const ha::HaException& e) {
    failure = e.error();
  }
  throw_write_failure(failure, what);
}

std::string query_value(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || c == ':') {
      out += c;
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", u);
      out += buf;
    }
  }
  return out;
}

}  // namespace everyday

}  // namespace hamcp::tools
