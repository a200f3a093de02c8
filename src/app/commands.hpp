#pragma once
// The subcommands hamcp runs. Each lives in its own file; main.cpp only parses
// and dispatches. Every one returns a process exit code.

#include "app/config.hpp"

namespace hamcp::app {

int serve_stdio(const Config& config);  // default: MCP over stdin/stdout
int serve_http(const Config& config);   // --http: Streamable HTTP + legacy SSE
int run_sim(const SimConfig& config);   // `hamcp sim`: simulated HA alone
int run_doctor(const Config& config);   // `hamcp doctor`: connection diagnosis
int run_setup(const Config& config);    // `hamcp setup <client>`: MCP client configuration

}  // namespace hamcp::app
