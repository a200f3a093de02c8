#pragma once

namespace hamcp::app {

// Parses the command line and environment, then runs the chosen subcommand
// (serve over stdio by default, --http, --demo, sim, doctor). Returns the exit code.
int run(int argc, char** argv);

}  // namespace hamcp::app
