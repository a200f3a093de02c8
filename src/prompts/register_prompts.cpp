// Registers the prompts and completes their arguments (ref/prompt):
// automation ids and area ids from the mirror, energy periods from the list.
#include "prompts/prompt_kit.hpp"
#include "prompts/prompts.hpp"

namespace hamcp::prompts {
namespace {

asio::awaitable<mcp::Completion> complete(std::shared_ptr<ToolEnv> base, mcp::CompletionRequest request,
                                          mcp::RequestContext& ctx) {
  mcp::Completion out;
  const std::string& argument = request.argument_name;
  if (argument == "period") {
    Candidates periods;
    for (const auto& p : energy_periods()) periods.emplace_back(p, p);
    out.values = complete_from(periods, request.argument_value);
    co_return out;
  }
  if (argument != "automation_id" && argument != "area") co_return out;
  // Right after start the mirror may still be syncing: wait for it as briefly as
  // reads do (first_sync_wait), then answer from whatever the mirror holds.
  const std::shared_ptr<ToolEnv> held_env = base->for_session(ctx.session());  // held while this runs
  ToolEnv& env = *held_env;
  auto syncing = env.ha.wait_synced(env.options.first_sync_wait);
  co_await std::move(syncing);
  ha::SnapshotPtr snap = env.ha.snapshot();
  const Candidates candidates = argument == "area" ? area_candidates(*snap) : automation_candidates(*snap);
  out.values = complete_from(candidates, request.argument_value);
  co_return out;
}

}  // namespace

void register_prompts(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_prompt(make_troubleshoot_automation(env));
  registry.add_prompt(make_review_energy(env));
  registry.add_prompt(make_tidy_areas_and_names(env));
  registry.add_prompt(make_write_automation(env));
  registry.set_completion_for("ref/prompt", [env](mcp::CompletionRequest request, mcp::RequestContext& ctx) {
    return complete(env, std::move(request), ctx);
  });
}

}  // namespace hamcp::prompts
