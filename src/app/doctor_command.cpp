// PLACEHOLDER: replaced by the real implementation of run_doctor.
#include <cstdio>

#include "app/commands.hpp"

namespace hamcp::app {

int run_doctor(const Config& config) {
  std::fprintf(stderr, "hamcp: run_doctor is not implemented yet\n");
  return 2;
}

}  // namespace hamcp::app
