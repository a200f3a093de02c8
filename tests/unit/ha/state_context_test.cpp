// A state's context (HA's id, parent_id, user_id) in one small value: the same
// JSON comes back, and the usual context (a ULID, no parent, no user) needs no
// heap block of its own (as three std::strings it needed one per state).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <utility>
#include <vector>
#if defined(__GLIBC__)
#endif

#include "ha/snapshot.hpp"
#include "ha/state_context.hpp"
#include "unit/heap_in_use.hpp"

using hamcp::ha::EntityState;
using hamcp::ha::StateContext;
namespace json = boost::json;

namespace {

using hamcp::testing::kSanitized;
using hamcp::testing::small_heap_in_use;

json::value state_with_context(json::value context) {
  return json::value{{"entity_id", "light.kitchen"},
                     {"state", "on"},
                     {"attributes", json::object{}},
                     {"last_changed", "2026-01-01T00:00:00+00:00"},
                     {"last_updated", "2026-01-01T00:00:00+00:00"},
                     {"last_reported", "2026-01-01T00:00:00+00:00"},
                     {"context", std::move(context)}};
}

json::value round_trip_context(const json::value& context) {
  auto state = EntityState::from_json(state_with_context(context));
  EXPECT_TRUE(state.has_value());
  if (!state) return nullptr;
  return state->to_json().at("context");
}

}  // namespace

TEST(StateContext, GivesBackWhatHaSent) {
  const json::value ulid_only = {{"id", "01KBN3Z8M1Q2W3E4R5T6Y7U8I9"}, {"parent_id", nullptr}, {"user_id", nullptr}};
  EXPECT_EQ(round_trip_context(ulid_only), ulid_only);
  const json::value all_three = {{"id", "01KBN3Z8M1Q2W3E4R5T6Y7U8I9"},
                                 {"parent_id", "01KBN3Z8M1Q2W3E4R5T6Y7AAAA"},
                                 {"user_id", "0123456789abcdef0123456789abcdef"}};
  EXPECT_EQ(round_trip_context(all_three), all_three);
  const json::value user_only = {{"id", "x"}, {"parent_id", nullptr}, {"user_id", "u"}};
  EXPECT_EQ(round_trip_context(user_only), user_only);
}

TEST(StateContext, CopiesAndMovesKeepTheIds) {
  for (const std::string& parent : {std::string(), std::string(40, 'p')}) {  // inline, then on the heap
    StateContext original("01KBN3Z8M1Q2W3E4R5T6Y7U8I9", parent, "user");
    StateContext copy(original);
    StateContext assigned;
    assigned = copy;
    assigned = assigned;  // self-assignment keeps the value
    StateContext moved(std::move(copy));
    StateContext move_assigned("old", "", "");
    move_assigned = std::move(moved);
    for (const StateContext* c : {&original, &assigned, &move_assigned}) {
      EXPECT_EQ(c->id(), "01KBN3Z8M1Q2W3E4R5T6Y7U8I9");
      EXPECT_EQ(c->parent_id(), parent);
      EXPECT_EQ(c->user_id(), "user");
    }
    std::vector<StateContext> grown;
    for (int i = 0; i < 20; ++i) grown.push_back(original);  // moves on growth
    EXPECT_EQ(grown.front().parent_id(), parent);
    EXPECT_EQ(grown.back().user_id(), "user");
  }
}

// The usual context is a 26-character ULID with neither parent nor user: it is
// stored inside the state. Three std::strings took 96 bytes plus a heap block
// for the ULID (fails this test).
TEST(StateContext, UsualContextNeedsNoHeapBlock) {
  static_assert(sizeof(StateContext) <= 40);
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
#if defined(__GLIBC__)
  std::vector<EntityState> states(1000);
  const std::size_t before = small_heap_in_use();
  for (auto& state : states) state.context = StateContext("01KBN3Z8M1Q2W3E4R5T6Y7U8I9", "", "");
  EXPECT_EQ(small_heap_in_use(), before);
  EXPECT_EQ(states.back().context.id(), "01KBN3Z8M1Q2W3E4R5T6Y7U8I9");
#endif
}
