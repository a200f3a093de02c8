# The search tests need only the engine: the labelled query set runs on frozen
# fixtures (tests/unit/search/fixtures, written by bench/search/dump_home_docs
# from src/sim), so simulator changes never invalidate the labels.
set(UNIT_LINK hamcp_search)
# The labelled queries and frozen fixtures are found by absolute path, so the
# test binary passes from any working directory (not only ctest's).
set_source_files_properties(${area_dir}/quality_test.cpp ${area_dir}/property_test.cpp ${area_dir}/index_memory_test.cpp
  ${area_dir}/parallel_build_test.cpp ${area_dir}/bulk_build_test.cpp ${area_dir}/entry_words_test.cpp
  PROPERTIES COMPILE_DEFINITIONS "HAMCP_SEARCH_TEST_DIR=\"${area_dir}\"")
