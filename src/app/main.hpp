#pragma once

#include <variant>

#include "app/config.hpp"

namespace hamcp::app {

enum class Command { serve_stdio, serve_http, sim, doctor, setup };

// Parses the command line and environment into `config`. Returns the command
// to run, or the exit code when parsing ends hamcp (help, version, bad value).
std::variant<Command, int> parse_command_line(int argc, char** argv, Config& config);

// Parses the command line and environment, then runs the chosen subcommand
// (serve over stdio by default, --http, --demo, sim, doctor). Returns the exit code.
int run(int argc, char** argv);

}  // namespace hamcp::app
