# The search tests need only the engine: the labelled query set runs on frozen
# fixtures (tests/unit/search/fixtures, written by bench/search/dump_home_docs
# from src/sim), so simulator changes never invalidate the labels.
set(UNIT_LINK hamcp_search)
