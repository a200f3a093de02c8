// PLACEHOLDER: replaced by the real implementation of run_sim.
#include <cstdio>

#include "app/commands.hpp"

namespace hamcp::app {

int run_sim(const SimConfig& config) {
  std::fprintf(stderr, "hamcp: run_sim is not implemented yet\n");
  return 2;
}

}  // namespace hamcp::app
