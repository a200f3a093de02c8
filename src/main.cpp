#include "app/main.hpp"

#include "common/allocator_settings.hpp"

int main(int argc, char** argv) {
  hamcp::apply_allocator_settings();
  return hamcp::app::run(argc, argv);
}
