// ha_bulk_control: many service calls at once, in parallel (bounded), each
// verified like ha_call_service. One failure never hides the others.
#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "tools/action_shorthand.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/entities/service_runner.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace asio = boost::asio;

namespace {

struct Shared {
  std::vector<json::object> results;
  std::size_t remaining = 0;
  std::size_t next = 0;
  std::shared_ptr<asio::steady_timer> done;
};

// Parses one operation; throws ToolException naming operations[i].<field>.
ServiceRequest parse_operation(const json::value& v, std::size_t i, bool wait, std::chrono::milliseconds timeout) {
  const std::string where = "operations[" + std::to_string(i) + "]";
  const json::object* o = v.if_object();
  if (!o)
    throw ToolException(
        bad_argument(where, "expected an object", "Use {\"entity_id\":\"light.x\",\"action\":\"turn_on\"}."));
  ServiceRequest r;
  r.entity_ids = string_list(o->if_contains("entity_id"));
  std::string action;
  if (const json::value* a = o->if_contains("action"); a && a->is_string()) action = a->get_string();
  if (action.empty())
    if (const json::value* a = o->if_contains("service"); a && a->is_string()) action = a->get_string();
  if (action.empty())
    throw ToolException(bad_argument(where + ".action", "missing", "Name the service, e.g. \"turn_off\"."));
  if (action.find('.') != std::string::npos) {
    r.domain = action.substr(0, action.find('.'));
    action = action.substr(action.find('.') + 1);
  }
  if (const json::value* d = o->if_contains("domain"); d && d->is_string()) r.domain = d->get_string();
  if (r.domain.empty() && !r.entity_ids.empty())
    r.domain = r.entity_ids.front().substr(0, r.entity_ids.front().find('.'));
  if (r.domain.empty()) throw ToolException(bad_argument(where + ".domain", "missing", "Give entity_id or domain."));
  // ha-mcp's action words ("off", "open", "heat"...) -> the domain's service.
  ResolvedAction resolved = resolve_action(r.domain, action);
  r.service = std::move(resolved.service);
  for (const char* key : {"data", "params", "parameters"})
    if (const json::value* d = o->if_contains(key); d && d->is_object()) r.data = d->get_object();
  for (auto& kv : resolved.extra_data)
    if (!r.data.contains(kv.key())) r.data.emplace(kv.key(), std::move(kv.value()));
  r.wait = wait;
  r.timeout = timeout;
  return r;
}

json::object failure_item(const ToolError& e) {
  json::object item;
  item.emplace("status", "failed");
  item.emplace("error", e.to_json()["error"]);
  return item;
}

asio::awaitable<void> worker(ToolEnv& env, std::shared_ptr<Shared> shared,
                             std::shared_ptr<std::vector<json::value>> ops, bool wait,
                             std::chrono::milliseconds timeout, std::string parent, std::string scope) {
  while (shared->next < ops->size()) {
    const std::size_t i = shared->next++;
    json::object item;
    std::optional<ToolError> failure;
    try {
      ServiceRequest req = parse_operation((*ops)[i], i, wait, timeout);
      req.parent_operation = parent;
      req.scope = scope;
      item = co_await run_service(env, std::move(req));
    } catch (const ToolException& e) {
      failure = e.error();
    } catch (const ha::HaException& e) {
      failure = from_ha_error(e.error());
    } catch (const std::exception& e) {
      failure = ToolError{"internal_error", e.what(), "Report this hamcp bug.", {}};
    }
    if (failure) item = failure_item(*failure);
    json::object ordered;
    ordered.emplace("index", i);
    if (const json::value* e = (*ops)[i].is_object() ? (*ops)[i].get_object().if_contains("entity_id") : nullptr)
      ordered.emplace("entity_id", *e);
    for (auto& kv : item) ordered.emplace(kv.key(), std::move(kv.value()));
    shared->results[i] = std::move(ordered);
    if (--shared->remaining == 0) shared->done->cancel();
  }
}

boost::asio::awaitable<mcp::ToolResult> run_bulk(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const json::value* ops_v = args.get("operations");
  auto ops = std::make_shared<std::vector<json::value>>();
  if (ops_v && ops_v->is_array())
    for (const auto& o : ops_v->get_array()) ops->push_back(o);
  if (ops->empty()) throw ToolException(bad_argument("operations", "empty", "Pass at least one operation."));
  const bool wait = args.flag("wait", true);
  const double seconds = args.number("timeout", static_cast<double>(env.options.default_wait.count()) / 1000.0);
  const auto timeout = std::chrono::milliseconds(
      std::clamp<std::int64_t>(static_cast<std::int64_t>(seconds * 1000), 0, env.options.max_wait.count()));

  json::object record;
  record.emplace("kind", "bulk");
  // "total", as in the result: "operations" is an array in ha_get_operation_status's
  // output schema, and a count there made the single-id lookup of a bulk run fail.
  record.emplace("total", ops->size());
  const std::string scope(ctx.session_id());
  const std::string bulk_id = env.ops.create(scope, record);

  auto executor = co_await asio::this_coro::executor;
  auto shared = std::make_shared<Shared>();
  shared->results.resize(ops->size());
  shared->remaining = ops->size();
  shared->done = std::make_shared<asio::steady_timer>(executor, asio::steady_timer::time_point::max());
  const std::size_t workers = std::min(ops->size(), std::max<std::size_t>(1, env.options.bulk_parallelism));
  for (std::size_t w = 0; w < workers; ++w)
    asio::co_spawn(executor, worker(env, shared, ops, wait, timeout, bulk_id, scope), asio::detached);
  while (shared->remaining > 0) {
    auto [ec] = co_await shared->done->async_wait(asio::as_tuple(asio::use_awaitable));
    (void)ec;
    auto cs = co_await asio::this_coro::cancellation_state;
    if (cs.cancelled() != asio::cancellation_type::none)
      throw boost::system::system_error(asio::error::operation_aborted);
  }

  std::size_t ok_count = 0, failed = 0, unconfirmed = 0, pending = 0;
  json::array results;
  for (auto& r : shared->results) {
    const std::string status(r.at("status").as_string());
    if (status == "failed")
      ++failed;
    else if (status == "unconfirmed")
      ++unconfirmed;
    else if (status == "pending")
      ++pending;
    else
      ++ok_count;
    results.emplace_back(std::move(r));
  }
  json::object body;
  body.emplace("operation_id", bulk_id);
  body.emplace("total", ops->size());
  body.emplace("succeeded", ok_count);
  body.emplace("failed", failed);
  if (unconfirmed) body.emplace("unconfirmed", unconfirmed);
  if (pending) body.emplace("pending", pending);
  body.emplace("results", results);
  json::object update;
  update.emplace("status", failed == ops->size()   ? "failed"
                           : failed || unconfirmed ? "partial"
                           : pending               ? "pending"
                                                   : "confirmed");
  update.emplace("succeeded", ok_count);
  update.emplace("failed", failed);
  update.emplace("results", std::move(results));
  env.ops.update(bulk_id, std::move(update));
  if (failed == ops->size()) {
    // Nothing worked: an error result, still listing every failure.
    ToolError e{"all_operations_failed",
                "None of the " + std::to_string(ops->size()) + " operations succeeded.",
                "Read results[].error for each one and fix those operations.",
                {}};
    e.extra.emplace("results", body.at("results"));
    co_return e.result();
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_bulk_control_spec() {
  ToolSpec s;
  s.name = "ha_bulk_control";
  s.title = "Control many entities";
  s.description =
      "Run many service calls in parallel, each verified like ha_call_service. Operation: {entity_id, action "
      "(a service like turn_off, or on/off/toggle/open/close/stop/lock/unlock/play/pause/heat...), data?}. "
      "Per-operation results; one failure does not stop the others.";
  s.input_schema = R"J({"type":"object","properties":{
"operations":{"type":"array","minItems":1,"maxItems":100,"items":{"type":"object","properties":{
"entity_id":{"type":"string"},"action":{"type":"string"},
"domain":{"type":"string"},"data":{"type":"object"}},"required":["action"]}},
"wait":{"type":"boolean","default":true},"timeout":{"type":"number","minimum":0,"maximum":60}},
"required":["operations"]})J";
  s.output_schema =
      R"J({"type":"object","properties":{"operation_id":{"type":"string"},"succeeded":{"type":"integer"},"failed":{"type":"integer"},"results":{"type":"array"}}})J";
  s.also_accepts = {{"operations[].entity_id", R"J({"type":["string","array"],"items":{"type":"string"}})J"}};
  s.annotations = writes(true, false);
  s.hidden_args = {"parallel"};
  s.run = run_bulk;
  return s;
}

}  // namespace hamcp::tools
