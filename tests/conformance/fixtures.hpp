#pragma once
// The tools, resources, prompts and completion that the official MCP conformance suite
// (@modelcontextprotocol/conformance 0.1.16, "server" scenarios) calls by name, registered on
// hamcp's own protocol core, plus a few extra tools the end-to-end client tests use.

#include <cstddef>

#include "mcp/registry.hpp"
#include "mcp/server.hpp"

namespace hamcp::conformance {

// Exactly the suite's fixtures: test_simple_text ... test_reconnection, json_schema_2020_12_tool,
// test://static-text, test://static-binary, test://template/{id}/data, test://watched-resource,
// the four test_* prompts and completion for test_prompt_with_arguments.
void register_conformance_fixtures(mcp::Registry& registry);
// Its resources, prompts and completion (fixtures_prompts.cpp).
void register_conformance_resources_and_prompts(mcp::Registry& registry);
// A 1x1 red pixel PNG (generated, a valid file): an image tool, resource and prompt.
inline constexpr const char* kRedPixelPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

// Extra tools for tests/e2e (never registered for the conformance run, so its tool list is
// exactly the suite's):
//   slow_echo {text, ms?, steps?}  waits `ms` (default 200) in `steps` slices, reporting progress
//                                  as each starts, honouring cancellation; returns "echo: <text>"
//   log_burst {count?}             sends `count` info log notifications, returns "logged <n>"
//   page_tool_NNN                  `extra_tools` trivial tools, so tools/list needs several pages
// The 2026-07-28 scenarios' fixtures (fixtures_modern.cpp); the trigger tools
// announce list changes through `server`.
void register_modern_fixtures(mcp::Server& server);
// The tasks extension's (SEP-2663) fixtures: greet, slow_compute, failing_job,
// protocol_error_job, confirm_delete, multi_input, test_tool_with_task (fixtures_tasks.cpp).
void register_task_fixtures(mcp::Server& server);

void register_e2e_tools(mcp::Registry& registry, std::size_t extra_tools);

}  // namespace hamcp::conformance
