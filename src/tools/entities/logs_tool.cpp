// ha_get_logs: logbook (what happened), system log (warnings/errors HA
// collected) or the raw error log. Also serves ha_get_logbook.
#include <algorithm>
#include <cctype>

#include "common/ascii.hpp"
#include "home/entity_docs.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/entities/entity_view.hpp"
#include "tools/entities/time_spec.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

double number_of(const json::value* v) {
  if (!v) return 0;
  if (v->is_number()) return v->to_number<double>();
  if (v->is_string()) return ha::parse_iso_time(v->get_string()).value_or(0);
  return 0;
}

double time_arg(Args& args, const char* key, const char* fallback, double now) {
  std::string text = args.str(key, fallback);
  if (const json::value* v = args.get(key); v && v->is_number()) text = std::to_string(v->to_number<double>()) + "h";
  auto parsed = parse_time_spec(text, now);
  if (auto* err = std::get_if<std::string>(&parsed))
    throw ToolException(bad_argument(key, *err, "Example: \"24h\", \"7d\" or \"2026-01-01T00:00:00Z\"."));
  return std::get<double>(parsed);
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

boost::asio::awaitable<mcp::ToolResult> run_logs(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string source = args.str("source", "logbook");
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 50), 1, 500));
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  const std::string query = ascii_lower(args.str("query"));
  const std::string level = ascii_lower(args.str("level"));
  std::vector<json::object> items;

  if (source == "logbook") {
    ha::SnapshotPtr snap = co_await env.snapshot();
    const double now = now_epoch_seconds();
    const double start = time_arg(args, "start", "24h", now);
    const double end = args.has("end") ? time_arg(args, "end", "now", now) : now;
    json::object msg;
    msg.emplace("type", "logbook/get_events");
    msg.emplace("start_time", ha::format_iso_time(start));
    msg.emplace("end_time", ha::format_iso_time(end));
    const std::vector<std::string> ids = args.list("entity_id");
    if (!ids.empty()) {
      for (const auto& id : ids)
        if (!snap->states.find(id) && !snap->registry(ha::RegistryKind::entity).find(id))
          throw ToolException(unknown_entity(env.index, id));
      json::array a;
      for (const auto& id : ids) a.emplace_back(id);
      msg.emplace("entity_ids", std::move(a));
    }
    json::value r = co_await env.ha.command(std::move(msg));
    if (const json::array* rows = r.if_array()) {
      for (auto it = rows->rbegin(); it != rows->rend(); ++it) {  // newest first
        const json::object* row = it->if_object();
        if (!row) continue;
        json::object e;
        e.emplace("when", iso_seconds(number_of(row->if_contains("when"))));
        for (const char* k : {"entity_id", "name", "state", "message", "domain"})
          if (std::string v = str_of(row, k); !v.empty()) e.emplace(k, v);
        if (std::string by = str_of(row, "context_entity_id"); !by.empty())
          e.emplace("by", by);
        else if (std::string ev = str_of(row, "context_event_type"); !ev.empty())
          e.emplace("by", ev);
        if (!query.empty() && ascii_lower(json::serialize(e)).find(query) == std::string::npos) continue;
        items.push_back(std::move(e));
      }
    }
  } else if (source == "system") {
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
    for (const json::object* row : rows) {
      json::object e;
      const std::string lvl = str_of(row, "level");
      if (!level.empty() && ascii_lower(lvl) != level) continue;
      e.emplace("level", lvl);
      e.emplace("logger", str_of(row, "name"));
      std::string message;
      if (const json::value* m = row->if_contains("message")) {
        if (m->is_string())
          message = m->get_string();
        else if (m->is_array())
          for (const auto& part : m->get_array())
            if (part.is_string()) message += (message.empty() ? "" : " | ") + std::string(part.get_string());
      }
      e.emplace("message", message);
      e.emplace("when", iso_seconds(number_of(row->if_contains("timestamp"))));
      if (const json::value* c = row->if_contains("count"); c && c->is_number() && c->to_number<double>() > 1)
        e.emplace("count", *c);
      if (const json::value* src = row->if_contains("source");
          src && src->is_array() && src->get_array().size() == 2 && src->get_array()[0].is_string())
        e.emplace("source", std::string(src->get_array()[0].get_string()) + ":" + json::serialize(src->get_array()[1]));
      if (!query.empty() && ascii_lower(json::serialize(e)).find(query) == std::string::npos) continue;
      items.push_back(std::move(e));
    }
  } else if (source == "error_log") {
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
    // Newest lines first; a line starting with whitespace continues the previous one (tracebacks).
    std::vector<std::string> entries;
    std::size_t pos = 0;
    while (pos < r.body.size()) {
      std::size_t nl = r.body.find('\n', pos);
      if (nl == std::string::npos) nl = r.body.size();
      std::string line = r.body.substr(pos, nl - pos);
      pos = nl + 1;
      if (line.empty()) continue;
      if (!entries.empty() && (line[0] == ' ' || line[0] == '\t' || line.rfind("Traceback", 0) == 0))
        entries.back() += "\n" + line;
      else
        entries.push_back(std::move(line));
    }
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
      if (!level.empty() && ascii_lower(*it).find(level) == std::string::npos) continue;
      if (!query.empty() && ascii_lower(*it).find(query) == std::string::npos) continue;
      json::object e;
      e.emplace("line", it->size() > 2000 ? it->substr(0, 2000) + "…" : *it);
      items.push_back(std::move(e));
    }
  } else {
    throw ToolException(bad_argument("source", "must be logbook, system or error_log", "Use source=\"logbook\"."));
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
      "Newest first. source=logbook: what happened (filter entity_id, start \"24h\"/ISO); system: warnings and "
      "errors HA collected (filter level); error_log: raw log lines. query filters text.";
  s.input_schema = R"J({"type":"object","properties":{
"source":{"enum":["logbook","system","error_log"],"default":"logbook"},
"entity_id":{"type":"string"},"start":{"type":"string"},"end":{"type":"string"},
"level":{"type":"string"},"query":{"type":"string"},
"limit":{"type":"integer","minimum":1,"maximum":500,"default":50},"offset":{"type":"integer","minimum":0,"maximum":1000000000}}})J";
  s.output_schema =
      R"J({"type":"object","properties":{"entries":{"type":"array"},"total":{"type":"integer"},"has_more":{"type":"boolean"}}})J";
  s.annotations = read_only();
  s.annotations.open_world_hint = true;
  s.aliases = {"ha_get_logbook"};
  s.legacy_args = {{"hours_back", "start"}, {"start_time", "start"}, {"end_time", "end"}};
  s.also_accepts = {{"entity_id", R"J({"type":["string","array"],"items":{"type":"string"}})J"}};
  s.run = run_logs;
  return s;
}

}  // namespace hamcp::tools
