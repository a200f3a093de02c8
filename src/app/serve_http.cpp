// PLACEHOLDER: replaced by the real implementation of serve_http.
#include <cstdio>

#include "app/commands.hpp"

namespace hamcp::app {

int serve_http(const Config& config) {
  std::fprintf(stderr, "hamcp: serve_http is not implemented yet\n");
  return 2;
}

}  // namespace hamcp::app
