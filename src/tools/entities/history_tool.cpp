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

struct HistoryRequest {
  std::vector<std::string> ids;
  double start = 0, end = 0;
  std::string source;
  std::size_t limit = 100;
};

HistoryRequest read_request(Args& args, const ToolEnv& env, const ha::Snapshot& snap) {
  HistoryRequest req;
  req.ids = args.list("entity_id");
  if (req.ids.empty()) throw ToolException(bad_argument("entity_id", "missing", "Pass one entity id or a list."));
  for (const auto& id : req.ids)
    if (!snap.states.find(id) && !snap.registry(ha::RegistryKind::entity).find(id))
      throw ToolException(unknown_entity(env.index, id));
  const double now = now_epoch_seconds();
  req.start = time_argument(args, "start", "24h", now);
  req.end = args.has("end") ? time_argument(args, "end", "now", now) : now;
  if (req.end <= req.start) throw ToolException(bad_argument("end", "is not after start", "Give a start before end."));
  req.source = args.str("source");
  if (req.source.empty()) req.source = args.has("period") || args.has("types") ? "statistics" : "history";
  if (req.source != "statistics" && req.source != "history")
    throw ToolException(bad_argument("source", "must be history or statistics", "Use source=\"history\"."));
  req.limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 100), 1, 1000));
  return req;
}

// What is left of the response budget; rows stop at the first that does not fit.
struct RowBudget {
  std::size_t left;
  bool cut = false;
  bool take(const json::object& row) {
    const std::size_t size = json_size(row) + 1;
    if (size > left) {
      cut = true;
      return false;
    }
    left -= size;
    return true;
  }
};

json::object period_message(const char* type, const HistoryRequest& req) {
  json::object msg;
  msg.emplace("type", type);
  msg.emplace("start_time", ha::format_iso_time(req.start));
  msg.emplace("end_time", ha::format_iso_time(req.end));
  return msg;
}

json::array id_array(const std::vector<std::string>& ids) {
  json::array out;
  for (const auto& id : ids) out.emplace_back(id);
  return out;
}

// HA's rows of one entity in a per-entity result object (empty when absent).
const json::array* rows_of(const json::value& result, const std::string& id) {
  const json::value* rows = result.is_object() ? result.get_object().if_contains(id) : nullptr;
  return rows ? rows->if_array() : nullptr;
}

json::array statistics_entities(const json::value& r, const HistoryRequest& req, const std::vector<std::string>& types,
                                RowBudget& budget) {
  json::array out;
  for (const auto& id : req.ids) {
    json::object e;
    e.emplace("entity_id", id);
    const json::array* rows = rows_of(r, id);
    const std::size_t n = rows ? rows->size() : 0;
    json::array rows_out;
    for (std::size_t i = n > req.limit ? n - req.limit : 0; i < n; ++i) {  // the most recent `limit` rows
      const json::object* row = (*rows)[i].if_object();
      if (!row) continue;
      json::object o;
      o.emplace("start", iso_seconds(any_time(row->if_contains("start"))));
      for (const auto& t : types)
        if (const json::value* v = row->if_contains(t); v && !v->is_null())
          o.emplace(t, std::round(v->to_number<double>() * 1000) / 1000);
      if (!budget.take(o)) break;
      rows_out.emplace_back(std::move(o));
    }
    e.emplace("count", n);
    if (n == 0)
      e.emplace("note",
                "No statistics: only entities with a state_class (measurement/total) have long-term statistics.");
    e.emplace("rows", std::move(rows_out));
    out.emplace_back(std::move(e));
  }
  return out;
}

boost::asio::awaitable<json::array> statistics(Args& args, ToolEnv& env, const HistoryRequest& req, json::object& body,
                                               RowBudget& budget) {
  const std::string period = args.str("period", "hour");
  std::vector<std::string> types = args.list("types");
  if (types.empty()) types = {"mean", "min", "max", "sum", "state", "change"};
  json::object msg = period_message("recorder/statistics_during_period", req);
  msg.emplace("statistic_ids", id_array(req.ids));
  msg.emplace("period", period);
  json::array types_json;
  for (const auto& t : types) types_json.emplace_back(t);
  msg.emplace("types", std::move(types_json));
  json::value r = co_await env.ha.command(std::move(msg));
  body.emplace("period", period);
  co_return statistics_entities(r, req, types, budget);
}

// One state change; compressed rows are {"s","lu","lc"?}, full rows {"state","last_changed",...}.
json::object change_of(const json::object& row) {
  json::object c;
  const json::value* s = row.if_contains("s");
  if (!s) s = row.if_contains("state");
  c.emplace("state", s ? *s : json::value(""));
  const json::value* t = row.if_contains("lc");
  if (!t) t = row.if_contains("lu");
  if (!t) t = row.if_contains("last_changed");
  c.emplace("at", iso_seconds(any_time(t)));
  return c;
}

boost::asio::awaitable<json::array> history(ToolEnv& env, const HistoryRequest& req, RowBudget& budget) {
  json::object msg = period_message("history/history_during_period", req);
  msg.emplace("entity_ids", id_array(req.ids));
  msg.emplace("include_start_time_state", true);
  msg.emplace("significant_changes_only", false);
  msg.emplace("minimal_response", true);
  msg.emplace("no_attributes", true);
  json::value r = co_await env.ha.command(std::move(msg));
  json::array out;
  for (const auto& id : req.ids) {
    json::object e;
    e.emplace("entity_id", id);
    const json::array* rows = rows_of(r, id);
    const std::size_t n = rows ? rows->size() : 0;
    json::array changes;
    for (std::size_t i = n > req.limit ? n - req.limit : 0; i < n; ++i) {
      const json::object* row = (*rows)[i].if_object();
      if (!row) continue;
      json::object c = change_of(*row);
      if (!budget.take(c)) break;
      changes.emplace_back(std::move(c));
    }
    e.emplace("count", n);
    if (n > req.limit) e.emplace("omitted_older", n - req.limit);
    e.emplace("changes", std::move(changes));
    out.emplace_back(std::move(e));
  }
  co_return out;
}

boost::asio::awaitable<mcp::ToolResult> run_history(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const HistoryRequest req = read_request(args, env, *snap);
  json::object body;
  body.emplace("source", req.source);
  body.emplace("start", iso_seconds(req.start));
  body.emplace("end", iso_seconds(req.end));
  RowBudget budget{env.options.response_budget};
  json::array out;
  if (req.source == "statistics") {
    out = co_await statistics(args, env, req, body, budget);
  } else {
    out = co_await history(env, req, budget);
  }
  body.emplace("entities", std::move(out));
  if (budget.cut) {
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
