// PLACEHOLDER: replaced by the real implementation of serve_stdio.
#include <cstdio>

#include "app/commands.hpp"

namespace hamcp::app {

int serve_stdio(const Config& config) {
  std::fprintf(stderr, "hamcp: serve_stdio is not implemented yet\n");
  return 2;
}

}  // namespace hamcp::app
