// dump_home_docs demo            -> search documents of sim::demo_home()
// dump_home_docs <entities> <seed> -> of sim::generate_home(entities, seed)
// One JSON object per line on stdout (the format of tests/unit/search/fixtures).
#include <cstdlib>
#include <iostream>
#include <string>

#include "unit/search/doc_json.hpp"
#include "unit/search/home_docs.hpp"

int main(int argc, char** argv) {
  using namespace hamcp;
  if (argc < 2 || (std::string(argv[1]) != "demo" && argc < 3)) {
    std::cerr << "usage: dump_home_docs demo | dump_home_docs <entities> <seed>\n";
    return 2;
  }
  sim::Home home = std::string(argv[1]) == "demo"
                       ? sim::demo_home()
                       : sim::generate_home(std::strtoull(argv[1], nullptr, 10), std::strtoull(argv[2], nullptr, 10));
  for (const auto& d : search::testing::docs_from_home(home))
    std::cout << boost::json::serialize(search::testing::doc_to_json(d)) << "\n";
  return 0;
}
