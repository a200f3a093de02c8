// ha_get_state's answer without needless allocations (issue 9, item 6): the
// stored attributes are parsed once (the parse used to copy its own result),
// and a view can be built in an arena (ha_get_state's one entity: its nodes
// are then not allocated one by one), equal to the view on the heap.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <new>

#include "ha/snapshot.hpp"
#include "tools/entities/entity_view.hpp"

namespace hamcp::tools {
namespace {

namespace json = boost::json;

// Counts what it hands out; the memory comes from the heap.
class CountingResource final : public json::memory_resource {
 public:
  std::size_t calls = 0, bytes = 0;

 private:
  void* do_allocate(std::size_t n, std::size_t align) override {
    ++calls;
    bytes += n;
    return ::operator new(n, std::align_val_t(align));
  }
  void do_deallocate(void* p, std::size_t n, std::size_t align) override {
    ::operator delete(p, std::align_val_t(align));
  }
  bool do_is_equal(const json::memory_resource& other) const noexcept override { return this == &other; }
};

const char* const kLightAttributes =
    R"({"friendly_name":"Kitchen ceiling light, the long name","supported_color_modes":["brightness","color_temp","hs"],)"
    R"("brightness":200,"color_mode":"color_temp","min_color_temp_kelvin":2000,"max_color_temp_kelvin":6500,)"
    R"("effect_list":["colorloop","random","candle light"]})";

TEST(EntityViewAllocation, StoredAttributesAreParsedOnceNotCopied) {
  const ha::Attributes stored(json::parse(kLightAttributes).as_object());
  CountingResource direct, via_stored;
  const json::value reference = json::parse(stored.text(), &direct);
  const json::object parsed = stored.parse(&via_stored);
  const std::size_t calls = via_stored.calls, bytes = via_stored.bytes;  // before comparing (which may copy)
  EXPECT_EQ(calls, direct.calls) << "the parsed attributes were copied";
  EXPECT_EQ(bytes, direct.bytes);
  EXPECT_TRUE(parsed == reference.as_object());
}

TEST(EntityViewAllocation, AViewGivenAnArenaLivesThereWhole) {
  ha::Snapshot snap;
  ha::EntityState st;
  st.entity_id = "light.kitchen_ceiling_light";
  st.state = "on";
  st.attributes = json::parse(kLightAttributes).as_object();
  st.last_changed = st.last_updated = 1767225600.0;
  ViewOptions vo;
  vo.attributes = true;
  vo.times = true;
  CountingResource heap;
  json::storage_ptr arena = json::make_shared_resource<json::monotonic_resource>(64, &heap);
  const json::object v = entity_view(snap, st, vo, arena);
  EXPECT_EQ(v.storage().get(), arena.get());
  ASSERT_TRUE(v.at("attributes").is_object());
  EXPECT_EQ(v.at("attributes").as_object(), json::parse(kLightAttributes).as_object());
  EXPECT_EQ(v.at("last_changed").as_string(), "2026-01-01T00:00:00+00:00");
  EXPECT_GT(heap.calls, 0u) << "the arena's blocks come from its upstream";
  // The same view on the default resource is equal.
  EXPECT_EQ(entity_view(snap, st, vo), v);
}

}  // namespace
}  // namespace hamcp::tools
