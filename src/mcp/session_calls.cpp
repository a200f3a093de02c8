// A Session's concurrent requests (tools/call, resources/read, prompts/get,
// completion/complete): each runs as its own coroutine after a fair turn
// (call_scheduler.hpp) and answers on its reply channel, or into its batch.
#include <spdlog/spdlog.h>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>

#include "mcp/methods.hpp"
#include "mcp/server.hpp"
#include "mcp/session.hpp"
#include "mcp/session_parts.hpp"

namespace hamcp::mcp {

using detail::id_key;

namespace {
asio::awaitable<json::value> run_method(const Registry& registry, const std::string& method, json::object params,
                                        RequestContext& ctx);
}  // namespace

// The body of one concurrent request (or task): waits for a fair turn first
// (call_scheduler.hpp; tool work of one session must not hold up the other
// sessions' requests), then runs the method; every failure is caught.
asio::awaitable<detail::CallOutcome> detail::run_outcome(const Registry& registry,
                                                         std::shared_ptr<CallScheduler> scheduler, const void* owner,
                                                         std::string method, json::object params, RequestContext& ctx) {
  detail::CallOutcome out;
  try {
    auto turn = scheduler->wait_turn(owner);  // named before co_await (GCC 12)
    co_await std::move(turn);
    if (method == "tools/call") {
      auto calling = methods::call_tool_result(registry, std::move(params), ctx);  // named (GCC 12)
      out.tool_result = co_await std::move(calling);
    } else {
      auto working = run_method(registry, method, std::move(params), ctx);  // named (GCC 12)
      out.result = co_await std::move(working);
    }
  } catch (const McpError& e) {
    out.failure.emplace(e);
  } catch (const InputRequired& e) {
    out.tool_result.reset();
    out.result = e.result();  // the client retries with the answers (2026-07-28 MRTR)
    out.input_required = true;
  } catch (const std::exception& e) {
    out.internal = e.what();
  } catch (...) {
    out.internal = "unknown error";
  }
  co_return out;
}

namespace {

// A tools/call result as the JSON-RPC response text, written once.
detail::Reply render_tool_response(json::value id, const ToolResult& result) {
  detail::Reply reply;
  reply.text = R"({"jsonrpc":"2.0","id":)";
  append_json_text(reply.text, id);
  reply.text += R"(,"result":)";
  result.write_json(reply.text);
  reply.text += '}';
  json::object shape;
  shape.reserve(2);
  shape.emplace("jsonrpc", "2.0");
  shape.emplace("id", std::move(id));
  reply.message = std::move(shape);
  return reply;
}

asio::awaitable<json::value> run_method(const Registry& registry, const std::string& method, json::object params,
                                        RequestContext& ctx) {
  asio::awaitable<json::value> work;  // named before co_await (GCC 12 coroutine temporaries)
  if (method == "resources/read")
    work = methods::read_resource(registry, std::move(params), ctx);
  else if (method == "prompts/get")
    work = methods::get_prompt(registry, std::move(params), ctx);
  else if (method == "completion/complete")
    work = methods::complete(registry, std::move(params), ctx);
  else
    work = methods::call_extension(registry, method, std::move(params), ctx);
  json::value result = co_await std::move(work);
  co_return result;
}

// A concurrent request's result, a JSON-RPC error, or nothing when it was
// cancelled (then nothing is sent).
detail::Reply render_reply(json::value id, const std::string& method, detail::CallOutcome outcome, bool cancelled) {
  if (cancelled) return detail::Reply{};
  if (outcome.failure)
    return detail::Reply{
        make_error_response(std::move(id), outcome.failure->code(), outcome.failure->what(), outcome.failure->data()),
        {}};
  if (!outcome.internal.empty()) {
    spdlog::warn("mcp: {} failed: {}", method, outcome.internal);
    return detail::Reply{
        make_error_response(std::move(id), error_code::internal_error, "Internal error: " + outcome.internal), {}};
  }
  if (outcome.tool_result) return render_tool_response(std::move(id), *outcome.tool_result);
  return detail::Reply{make_result_response(std::move(id), std::move(outcome.result)), {}};
}

// Runs one request and answers it on the spot: when the call never suspends (a
// tool that reads the mirror), the answer is on its channel by the time
// Session::deliver returns, so a transport waiting for it (an HTTP POST) needs
// no wake-up. (co_spawn's completion handler would run only after a post.)
// `finish` is Session::spawn_request's: it answers and forgets the request.
template <class Finish>
asio::awaitable<void> run_request(const Registry& registry, std::shared_ptr<CallScheduler> scheduler, const void* owner,
                                  std::string method, json::object params, std::shared_ptr<SessionRequestContext> ctx,
                                  std::shared_ptr<detail::InFlightRequest> in_flight, Finish finish) {
  json::value id = ctx->request_id();
  auto running = detail::run_outcome(registry, std::move(scheduler), owner, method, std::move(params), *ctx);
  // Named before co_await (GCC 12). The NOLINT: clang-tidy 14 takes the coroutine's own copies of a
  // template coroutine's parameters for uses of `params` after its move.
  detail::CallOutcome outcome = co_await std::move(running);  // NOLINT(bugprone-use-after-move)
  ctx->finish();
  if (ctx->finish_as_task(outcome)) {
    finish(detail::Reply{});  // answered already: a CreateTaskResult
    co_return;
  }
  finish(render_reply(std::move(id), method, std::move(outcome), in_flight->cancelled));
}

}  // namespace

void Session::spawn_request(json::value id, std::string method, json::object params,
                            const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch) {
  json::value progress_token;
  if (const json::value* meta = params.if_contains("_meta"); meta && meta->is_object()) {
    if (const json::value* token = meta->get_object().if_contains("progressToken");
        token && (token->is_string() || token->is_int64() || token->is_uint64()))
      progress_token = *token;
  }
  auto in_flight = std::make_shared<detail::InFlightRequest>();
  std::string key = id_key(id);
  in_flight_.emplace(key, in_flight);
  auto self = shared_from_this();
  auto ctx = std::make_shared<SessionRequestContext>(self, std::move(id), std::move(progress_token), reply, in_flight);
  if (modern_) ctx->set_round_trip(params);
  auto finish = [self, key = std::move(key), reply, batch, in_flight](detail::Reply response) {
    if (std::exchange(in_flight->finished, true)) return;  // once: in the coroutine, or after its failure
    auto it = self->in_flight_.find(key);
    if (it != self->in_flight_.end() && it->second == in_flight) self->in_flight_.erase(it);
    if (in_flight->detached) return;                       // continued as a task: answered and closed already
    if (in_flight->cancelled) response = detail::Reply{};  // cancelled: never answer
    if (batch) {
      batch->finish_one(std::move(response));
      return;
    }
    if (reply->is_open()) {
      if (!response.text.empty())
        reply->send_text(std::move(response.text), response.message);
      else if (!response.message.is_null())
        reply->send(std::move(response.message));
    }
    reply->close();
  };
  auto slot = in_flight->signal.slot();
  // The handler holds `finish` and so in_flight, whose signal owns the slot Asio clears at the end.
  asio::co_spawn(core_->executor,
                 run_request(core_->registry, core_->scheduler, this, std::move(method), std::move(params),
                             std::move(ctx), in_flight, finish),
                 asio::bind_cancellation_slot(slot, [finish](std::exception_ptr failed) {
                   if (failed) finish(detail::Reply{});  // failed before answering: closed unanswered, as before
                 }));
}

}  // namespace hamcp::mcp
