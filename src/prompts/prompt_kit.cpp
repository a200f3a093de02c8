#include "prompts/prompt_kit.hpp"

#include <algorithm>

#include "common/ascii.hpp"
#include "common/json_fields.hpp"
#include "ha/errors.hpp"
#include "mcp/errors.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::prompts {
namespace {

constexpr std::size_t kMaxCompletions = 100;

}  // namespace

json::object prompt_result(std::string description, std::string text) {
  json::object content{{"type", "text"}, {"text", std::move(text)}};
  json::object message{{"role", "user"}, {"content", std::move(content)}};
  return json::object{{"description", std::move(description)}, {"messages", json::array{std::move(message)}}};
}

void rethrow_as_mcp_error(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const tools::ToolException& e) {
    throw mcp::McpError(mcp::error_code::internal_error, e.error().message + " " + e.error().suggestion);
  } catch (const ha::HaException& e) {
    throw mcp::McpError(mcp::error_code::internal_error, std::string("Home Assistant: ") + e.what());
  }
}

asio::awaitable<ha::SnapshotPtr> home_snapshot(ToolEnv& env) {
  std::exception_ptr failure;
  ha::SnapshotPtr snap;
  try {
    auto waiting = env.snapshot();
    snap = co_await std::move(waiting);
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure) rethrow_as_mcp_error(failure);
  co_return snap;
}

void bad_argument(std::string_view prompt, std::string_view argument, std::string_view problem, std::string_view fix) {
  throw mcp::McpError(mcp::error_code::invalid_params, "Invalid params: prompt " + std::string(prompt) +
                                                           ", argument \"" + std::string(argument) + "\" " +
                                                           std::string(problem) + ". " + std::string(fix));
}

Candidates area_candidates(const ha::Snapshot& snap) {
  Candidates out;
  snap.registry(ha::RegistryKind::area).for_each([&](const json::value& item) {
    if (const json::object* o = item.if_object())
      out.emplace_back(string_or_empty(*o, "area_id"), string_or_empty(*o, "name"));
  });
  return out;
}

Candidates automation_candidates(const ha::Snapshot& snap) {
  Candidates out;
  snap.states.for_each([&](const ha::EntityStatePtr& s) {
    if (s->entity_id.starts_with("automation."))
      out.emplace_back(s->entity_id, s->attributes.string_of("friendly_name"));
  });
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::string>& energy_periods() {
  static const std::vector<std::string> periods{"today", "yesterday", "week", "month", "year"};
  return periods;
}

std::vector<std::string> complete_from(const Candidates& candidates, std::string_view typed) {
  const std::string wanted = ascii_lower(typed);
  std::vector<std::string> prefix, inside;
  for (const auto& [value, label] : candidates) {
    const std::string id = ascii_lower(value);
    if (id.starts_with(wanted))
      prefix.push_back(value);
    else if (id.find(wanted) != std::string::npos || ascii_lower(label).find(wanted) != std::string::npos)
      inside.push_back(value);
  }
  prefix.insert(prefix.end(), inside.begin(), inside.end());
  if (prefix.size() > kMaxCompletions) prefix.resize(kMaxCompletions);
  return prefix;
}

std::string area_of_entity(const ha::Snapshot& snap, std::string_view entity_id) {
  ha::RegistryItem entry = snap.registry(ha::RegistryKind::entity).find(entity_id);
  if (!entry) return {};
  std::string area = string_or_empty(*entry, "area_id");
  if (!area.empty()) return area;
  const std::string device_id = string_or_empty(*entry, "device_id");
  if (device_id.empty()) return {};
  ha::RegistryItem device = snap.registry(ha::RegistryKind::device).find(device_id);
  return device ? string_or_empty(*device, "area_id") : std::string();
}

std::string area_name(const ha::Snapshot& snap, std::string_view area_id) {
  ha::RegistryItem area = snap.registry(ha::RegistryKind::area).find(area_id);
  return area ? string_or_empty(*area, "name") : std::string();
}

std::string compact_json(const json::value& value, std::size_t max_bytes) {
  std::string text = json::serialize(value);
  if (text.size() <= max_bytes) return text;
  text.resize(max_bytes);
  return text + " …(cut; read the whole config with ha_config_get)";
}

}  // namespace hamcp::prompts
