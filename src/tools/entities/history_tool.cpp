// ha_get_history: state history or long-term statistics of entities over a
// time window ("24h", "7d", ISO). Also serves ha_get_statistics.
#include <algorithm>
#include <cmath>

#include "tools/entities/entity_tools.hpp"
#include "tools/entities/entity_view.hpp"
#include "tools/entities/time_spec.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

double time_arg(Args& args, const char* key, const char* fallback, double now) {
  std::string text = args.str(key, fallback);
  if (const json::value* v = args.get(key); v && v->is_number()) text = std::to_string(v->to_number<double>()) + "h";
  auto parsed = parse_time_spec(text, now);
  if (auto* err = std::get_if<std::string>(&parsed))
    throw ToolException(bad_argument(key, *err, "Example: \"24h\", \"7d\" or \"2026-01-01T00:00:00Z\"."));
  return std::get<double>(parsed);
}

// HA times: float seconds, integer milliseconds (statistics), or ISO strings.
double any_time(const json::value* v) {
  if (!v) return 0;
  if (v->is_number()) {
    const double d = v->to_number<double>();
    return d > 1e11 ? d / 1000.0 : d;
  }
  if (v->is_string()) return ha::parse_iso_time(v->get_string()).value_or(0);
  return 0;
}

boost::asio::awaitable<mcp::ToolResult> run_history(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  std::vector<std::string> ids = args.list("entity_id");
  if (ids.empty()) throw ToolException(bad_argument("entity_id", "missing", "Pass one entity id or a list."));
  for (const auto& id : ids)
    if (!snap->states.find(id) && !snap->registry(ha::RegistryKind::entity).find(id))
      throw ToolException(unknown_entity(env.index, id));
  const double now = now_epoch_seconds();
  const double start = time_arg(args, "start", "24h", now);
  const double end = args.has("end") ? time_arg(args, "end", "now", now) : now;
  if (end <= start) throw ToolException(bad_argument("end", "is not after start", "Give a start before end."));
  std::string source = args.str("source");
  if (source.empty()) source = args.has("period") || args.has("types") ? "statistics" : "history";
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 100), 1, 1000));

  json::array entity_ids;
  for (const auto& id : ids) entity_ids.emplace_back(id);
  json::object body;
  body.emplace("source", source);
  body.emplace("start", iso_seconds(start));
  body.emplace("end", iso_seconds(end));
  json::array out;
  std::size_t budget_left = env.options.response_budget;
  bool cut = false;

  if (source == "statistics") {
    const std::string period = args.str("period", "hour");
    json::object msg;
    msg.emplace("type", "recorder/statistics_during_period");
    msg.emplace("start_time", ha::format_iso_time(start));
    msg.emplace("end_time", ha::format_iso_time(end));
    msg.emplace("statistic_ids", entity_ids);
    msg.emplace("period", period);
    std::vector<std::string> types = args.list("types");
    if (types.empty()) types = {"mean", "min", "max", "sum", "state", "change"};
    json::array types_json;
    for (const auto& t : types) types_json.emplace_back(t);
    msg.emplace("types", types_json);
    json::value r = co_await env.ha.command(std::move(msg));
    body.emplace("period", period);
    for (const auto& id : ids) {
      json::object e;
      e.emplace("entity_id", id);
      const json::value* rows = r.is_object() ? r.get_object().if_contains(id) : nullptr;
      json::array rows_out;
      std::size_t n = rows && rows->is_array() ? rows->get_array().size() : 0;
      const std::size_t first = n > limit ? n - limit : 0;  // the most recent `limit` rows
      for (std::size_t i = first; i < n; ++i) {
        const json::object* row = rows->get_array()[i].if_object();
        if (!row) continue;
        json::object o;
        o.emplace("start", iso_seconds(any_time(row->if_contains("start"))));
        for (const auto& t : types)
          if (const json::value* v = row->if_contains(t); v && !v->is_null()) {
            double d = v->to_number<double>();
            o.emplace(t, std::round(d * 1000) / 1000);
          }
        const std::size_t size = json_size(o) + 1;
        if (size > budget_left) {
          cut = true;
          break;
        }
        budget_left -= size;
        rows_out.emplace_back(std::move(o));
      }
      e.emplace("count", n);
      if (n == 0)
        e.emplace("note",
                  "No statistics: only entities with a state_class (measurement/total) have long-term statistics.");
      e.emplace("rows", std::move(rows_out));
      out.emplace_back(std::move(e));
    }
  } else if (source == "history") {
    json::object msg;
    msg.emplace("type", "history/history_during_period");
    msg.emplace("start_time", ha::format_iso_time(start));
    msg.emplace("end_time", ha::format_iso_time(end));
    msg.emplace("entity_ids", entity_ids);
    msg.emplace("include_start_time_state", true);
    msg.emplace("significant_changes_only", false);
    msg.emplace("minimal_response", true);
    msg.emplace("no_attributes", true);
    json::value r = co_await env.ha.command(std::move(msg));
    for (const auto& id : ids) {
      json::object e;
      e.emplace("entity_id", id);
      const json::value* rows = r.is_object() ? r.get_object().if_contains(id) : nullptr;
      const std::size_t n = rows && rows->is_array() ? rows->get_array().size() : 0;
      const std::size_t first = n > limit ? n - limit : 0;
      json::array changes;
      for (std::size_t i = first; i < n; ++i) {
        const json::object* row = rows->get_array()[i].if_object();
        if (!row) continue;
        json::object c;
        // Compressed rows: {"s","lu","lc"?}; full rows: {"state","last_changed",...}.
        const json::value* s = row->if_contains("s");
        if (!s) s = row->if_contains("state");
        c.emplace("state", s ? *s : json::value(""));
        const json::value* t = row->if_contains("lc");
        if (!t) t = row->if_contains("lu");
        if (!t) t = row->if_contains("last_changed");
        c.emplace("at", iso_seconds(any_time(t)));
        const std::size_t size = json_size(c) + 1;
        if (size > budget_left) {
          cut = true;
          break;
        }
        budget_left -= size;
        changes.emplace_back(std::move(c));
      }
      e.emplace("count", n);
      if (n > limit) e.emplace("omitted_older", n - limit);
      e.emplace("changes", std::move(changes));
      out.emplace_back(std::move(e));
    }
  } else {
    throw ToolException(bad_argument("source", "must be history or statistics", "Use source=\"history\"."));
  }
  body.emplace("entities", std::move(out));
  if (cut) {
    body.emplace("truncated", true);
    body.emplace("notice",
                 "Response size limit reached; use a shorter window, fewer entities, a lower limit or "
                 "source=statistics with a longer period.");
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_history_spec() {
  ToolSpec s;
  s.name = "ha_get_history";
  s.title = "History and statistics";
  s.description =
      "State changes of entities over a window (source=history), or long-term statistics (source=statistics: "
      "mean/min/max/sum per period). start/end: \"24h\", \"7d\" (ago) or ISO. Newest `limit` rows per entity.";
  s.input_schema = R"J({"type":"object","properties":{
"entity_id":{"type":"string"},
"start":{"type":"string","default":"24h"},"end":{"type":"string"},
"source":{"enum":["history","statistics"]},"period":{"enum":["5minute","hour","day","week","month"]},
"types":{"type":"array","items":{"enum":["mean","min","max","sum","state","change"]}},
"limit":{"type":"integer","minimum":1,"maximum":1000,"default":100}}})J";
  s.output_schema = R"J({"type":"object","properties":{"source":{"type":"string"},"entities":{"type":"array"}}})J";
  s.annotations = read_only();
  s.annotations.open_world_hint = true;  // read from Home Assistant's recorder
  s.aliases = {"ha_get_statistics"};
  s.legacy_args = {{"entity_ids", "entity_id"}, {"statistic_ids", "entity_id"}, {"start_time", "start"},
                   {"end_time", "end"},         {"statistic_types", "types"},   {"hours_back", "start"}};
  s.hidden_args = {"minimal_response", "significant_changes_only"};
  s.also_accepts = {{"entity_id", R"J({"type":["string","array"],"items":{"type":"string"},"maxItems":20})J"}};
  s.run = run_history;
  return s;
}

}  // namespace hamcp::tools
