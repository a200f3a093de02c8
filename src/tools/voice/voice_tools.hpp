#pragma once
// The voice family: ha_manage_pipeline (ha-mcp's name and arguments), Assist
// pipelines (assist_pipeline/pipeline/list, get, create, update,
// set_preferred; writes journaled as kind "pipeline" / "pipeline_preferred",
// restorable with ha_config_set restore=<edit id>) and a sentence run through
// Assist (conversation/process: a write, as Assist may act on devices).

#include <memory>

#include "home/edit_journal.hpp"
#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_pipeline_spec();
void register_voice_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace voice {

// The pipeline fields HA's create/update take (PIPELINE_FIELDS), in its order.
const std::vector<std::string>& pipeline_fields();
// A pipeline as create/update want it: `item`'s fields, without its id.
json::object fields_of(const json::object& item);

boost::asio::awaitable<json::object> get_pipeline(ToolEnv& env, std::string pipeline_id);
boost::asio::awaitable<json::object> list_pipelines(ToolEnv& env);
// A write sent once (everyday::ws_write's failure rules); HA's answer.
boost::asio::awaitable<json::value> write(ToolEnv& env, json::object message, std::string what);

// conversation/process of `sentence`: the answer, the intent's targets, what succeeded and failed.
boost::asio::awaitable<json::object> process(Args& args, ToolEnv& env);

bool is_voice_kind(std::string_view kind);
boost::asio::awaitable<json::object> restore_voice_edit(ToolEnv& env, const home::EditRecord& rec);

}  // namespace voice

}  // namespace hamcp::tools
