#include "app/main.hpp"

int main(int argc, char** argv) { return hamcp::app::run(argc, argv); }
