// ha_get_logs: logbook (what happened), system log (warnings/errors HA
// collected) or the raw error log. Also serves ha_get_logbook.
#include <algorithm>
#include <cctype>

#include "common/ascii.hpp"
#include "home/entity_docs.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/entities/entity_view.hpp"
#include "tools/entities/time_spec.hpp"
#include "tools/system/system_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

double number_of(const json::value* v) {
  if (!v) return 0;
  if (v->is_number()) return v->to_number<double>();
  if (v->is_string()) return ha::parse_iso_time(v->get_string()).value_or(0);
  return 0;
}

// Pages `items` (already newest first) with the byte budget.
json::object page_of(std::vector<json::object> items, std::size_t offset, std::size_t limit, std::size_t budget) {
  PageWriter page(budget);
  for (std::size_t i = offset; i < items.size() && page.count() < limit; ++i)
    if (!page.add(std::move(items[i]))) break;
  json::object body;
  const std::size_t returned = page.count();
  body.emplace("entries", page.take());
  put_page_info(body, offset, returned, items.size(), page.budget_cut());
  return body;
}

// Text filters shared by every source: `query` anywhere in the entry, `level` (system log).
struct LogFilter {
  std::string query, level;
  bool matches(const json::object& entry) const {
    return query.empty() || ascii_lower(json::serialize(entry)).find(query) != std::string::npos;
  }
};

json::object logbook_entry(const json::object& row) {
  json::object e;
  e.emplace("when", iso_seconds(number_of(row.if_contains("when"))));
  for (const char* k : {"entity_id", "name", "state", "message", "domain"})
    if (std::string v = str_of(&row, k); !v.empty()) e.emplace(k, v);
  if (std::string by = str_of(&row, "context_entity_id"); !by.empty())
    e.emplace("by", by);
  else if (std::string ev = str_of(&row, "context_event_type"); !ev.empty())
    e.emplace("by", ev);
  return e;
}

boost::asio::awaitable<std::vector<json::object>> logbook(Args& args, ToolEnv& env, const LogFilter& filter) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const double now = now_epoch_seconds();
  const double start = time_argument(args, "start", "24h", now);
  const double end = args.has("end") ? time_argument(args, "end", "now", now) : now;
  json::object msg;
  msg.emplace("type", "logbook/get_events");
  msg.emplace("start_time", ha::format_iso_time(start));
  msg.emplace("end_time", ha::format_iso_time(end));
  const std::vector<std::string> ids = args.list("entity_id");
  if (!ids.empty()) {
    json::array a;
    for (const auto& id : ids) {
      if (!snap->states.find(id) && !snap->registry(ha::RegistryKind::entity).find(id))
        throw ToolException(unknown_entity(env.index, id));
      a.emplace_back(id);
    }
    msg.emplace("entity_ids", std::move(a));
  }
  json::value r = co_await env.ha.command(std::move(msg));
  std::vector<json::object> items;
  if (const json::array* rows = r.if_array()) {
    for (auto it = rows->rbegin(); it != rows->rend(); ++it) {  // newest first
      const json::object* row = it->if_object();
      if (!row) continue;
      json::object e = logbook_entry(*row);
      if (filter.matches(e)) items.push_back(std::move(e));
    }
  }
  co_return items;
}

// HA's message is a string or a list of repeats of it.
std::string system_message(const json::object& row) {
  std::string message;
  if (const json::value* m = row.if_contains("message")) {
    if (m->is_string())
      message = m->get_string();
    else if (m->is_array())
      for (const auto& part : m->get_array())
        if (part.is_string()) message += (message.empty() ? "" : " | ") + std::string(part.get_string());
  }
  return message;
}

json::object system_entry(const json::object& row) {
  json::object e;
  e.emplace("level", str_of(&row, "level"));
  e.emplace("logger", str_of(&row, "name"));
  e.emplace("message", system_message(row));
  e.emplace("when", iso_seconds(number_of(row.if_contains("timestamp"))));
  if (const json::value* c = row.if_contains("count"); c && c->is_number() && c->to_number<double>() > 1)
    e.emplace("count", *c);
  if (const json::value* src = row.if_contains("source");
      src && src->is_array() && src->get_array().size() == 2 && src->get_array()[0].is_string())
    e.emplace("source", std::string(src->get_array()[0].get_string()) + ":" + json::serialize(src->get_array()[1]));
  return e;
}

boost::asio::awaitable<std::vector<json::object>> system_log(ToolEnv& env, const LogFilter& filter) {
  json::object msg;
  msg.emplace("type", "system_log/list");
  json::value r = co_await env.ha.command(std::move(msg));
  std::vector<const json::object*> rows;
  if (const json::array* a = r.if_array())
    for (const auto& v : *a)
      if (const json::object* o = v.if_object()) rows.push_back(o);
  std::stable_sort(rows.begin(), rows.end(), [](const json::object* a, const json::object* b) {
    return number_of(a->if_contains("timestamp")) > number_of(b->if_contains("timestamp"));
  });
  std::vector<json::object> items;
  for (const json::object* row : rows) {
    if (!filter.level.empty() && ascii_lower(str_of(row, "level")) != filter.level) continue;
    json::object e = system_entry(*row);
    if (filter.matches(e)) items.push_back(std::move(e));
  }
  co_return items;
}

// Log lines, oldest first; a line starting with whitespace or "Traceback"
// continues the previous entry.
std::vector<std::string> log_entries(const std::string& body) {
  std::vector<std::string> entries;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t nl = body.find('\n', pos);
    if (nl == std::string::npos) nl = body.size();
    std::string line = body.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    if (!entries.empty() && (line[0] == ' ' || line[0] == '\t' || line.rfind("Traceback", 0) == 0))
      entries.back() += "\n" + line;
    else
      entries.push_back(std::move(line));
  }
  return entries;
}

boost::asio::awaitable<std::vector<json::object>> error_log(ToolEnv& env, const LogFilter& filter) {
  ha::Response r = co_await env.ha.rest_get("/api/error_log");
  if (r.status == 404)
    throw ToolException(ToolError{"error_log_unavailable",
                                  "Home Assistant has no error log file (file logging is off on this install).",
                                  "Use source=\"system\" for recent warnings and errors.",
                                  {}});
  if (!r.ok()) {
    ha::HaError e;
    e.cause = r.status == 401 ? ha::ErrorCause::unauthorized : ha::ErrorCause::server_error;
    e.http_status = r.status;
    e.detail = ha_body_message(r.body, 200);
    throw ToolException(from_ha_error(e));
  }
  const std::vector<std::string> entries = log_entries(r.body);
  std::vector<json::object> items;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {  // newest first
    const std::string folded = ascii_lower(*it);
    if (!filter.level.empty() && folded.find(filter.level) == std::string::npos) continue;
    if (!filter.query.empty() && folded.find(filter.query) == std::string::npos) continue;
    json::object e;
    e.emplace("line", it->size() > 2000 ? it->substr(0, 2000) + "…" : *it);
    items.push_back(std::move(e));
  }
  co_return items;
}

// The loaded integrations' log levels (HA's logger/log_info), by name.
boost::asio::awaitable<std::vector<json::object>> logger_levels(ToolEnv& env, const LogFilter& filter) {
  auto reading = system::logger_levels(env);
  const json::object levels = co_await std::move(reading);
  std::vector<json::object> items;
  for (const auto& [integration, level] : levels) {
    json::object e{{"integration", integration}, {"level", level}};
    if (!filter.level.empty() && ascii_lower(level.as_string()) != filter.level) continue;
    if (filter.matches(e)) items.push_back(std::move(e));
  }
  co_return items;
}

// The Supervisor's text logs (an add-on's, its own, a host service's): lines
// newest first, `query` and `level` as for error_log.
boost::asio::awaitable<std::vector<json::object>> supervisor_log(Args& args, ToolEnv& env, const std::string& source,
                                                                 const LogFilter& filter) {
  std::string slug = args.str("slug");
  if (slug.size() > 100 || slug.find_first_of("/?#%. ") != std::string::npos)
    throw ToolException(bad_argument("slug", "must be an add-on slug (source=supervisor) or a syslog identifier",
                                     "E.g. slug=\"core_mosquitto\"; leave it out for the Supervisor's own log."));
  const int lines =
      static_cast<int>(std::clamp<std::int64_t>(args.integer("offset", 0) + args.integer("limit", 50), 2, 5000));
  auto reading =
      addons::supervisor_log_lines(env, source, slug, filter.query.empty() && filter.level.empty() ? lines : 5000);
  const std::vector<std::string> all = co_await std::move(reading);
  std::vector<json::object> items;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {  // newest first
    const std::string folded = ascii_lower(*it);
    if (!filter.level.empty() && folded.find(filter.level) == std::string::npos) continue;
    if (!filter.query.empty() && folded.find(filter.query) == std::string::npos) continue;
    items.push_back(json::object{{"line", it->size() > 2000 ? it->substr(0, 2000) + "…" : *it}});
  }
  co_return items;
}

boost::asio::awaitable<mcp::ToolResult> run_logs(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string source = args.str("source", "logbook");
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 50), 1, 500));
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  const LogFilter filter{ascii_lower(args.str("query")), ascii_lower(args.str("level"))};
  std::vector<json::object> items;
  if (source == "logbook") {
    items = co_await logbook(args, env, filter);
  } else if (source == "system") {
    items = co_await system_log(env, filter);
  } else if (source == "error_log") {
    items = co_await error_log(env, filter);
  } else if (source == "logger") {
    items = co_await logger_levels(env, filter);
  } else if (source == "supervisor" || source == "system_service") {
    auto reading = supervisor_log(args, env, source, filter);
    items = co_await std::move(reading);
  } else {
    throw ToolException(bad_argument("source",
                                     "must be logbook, system, error_log, logger, supervisor or system_service",
                                     "Use source=\"logbook\"."));
  }
  json::object body = page_of(std::move(items), offset, limit, env.options.response_budget);
  body.emplace("source", source);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_logs_spec() {
  ToolSpec s;
  s.name = "ha_get_logs";
  s.title = "Logs";
  s.description =
      "Newest first. source=logbook: what happened (filter entity_id, start \"24h\"/ISO); system: HA's warnings "
      "and errors (filter level); error_log: raw lines; logger: integrations' log levels; supervisor: an add-on's "
      "log (slug) or the Supervisor's; system_service: a host service's (slug). query filters text.";
  s.input_schema = R"J({"type":"object","properties":{
"source":{"enum":["logbook","system","error_log","logger","supervisor","system_service"],"default":"logbook"},
"slug":{"type":"string"},
"entity_id":{"type":"string"},"start":{"type":"string"},"end":{"type":"string"},
"level":{"type":"string"},"query":{"type":"string"},
"limit":{"type":"integer","minimum":1,"maximum":500,"default":50},"offset":{"type":"integer","minimum":0,"maximum":1000000000}}})J";
  s.output_schema =
      R"J({"type":"object","properties":{"entries":{"type":"array"},"total":{"type":"integer"},"has_more":{"type":"boolean"}}})J";
  s.annotations = read_only();
  s.annotations.open_world_hint = true;
  s.aliases = {"ha_get_logbook"};
  s.legacy_args = {{"hours_back", "start"}, {"start_time", "start"}, {"end_time", "end"}, {"search", "query"}};
  s.also_accepts = {{"entity_id", R"J({"type":["string","array"],"items":{"type":"string"}})J"}};
  s.run = run_logs;
  return s;
}

}  // namespace hamcp::tools
