#pragma once
// Where the DOM of one large message from Home Assistant lives (a get_states
// result, a registry list, the initial subscribe_entities event: many MB).
//
// Parsed through malloc, such a DOM is hundreds of thousands of small blocks
// interleaved with what the mirror keeps; once the mirror has converted it to
// its compact form and freed it, the holes stay in the heap (and in RSS: on a
// 10k-entity home about 20 MB that malloc_trim cannot give back). Here the DOM
// is bump-allocated in 1 MiB blocks mapped straight from the kernel, and the
// blocks are unmapped when the last value of the message is gone: the memory
// really returns, whatever was allocated in between. Parsing is also faster
// (no malloc per node).

#include <boost/json/storage_ptr.hpp>
#include <cstddef>
#include <vector>

namespace hamcp::ha::detail {

class MessageArena final : public boost::json::memory_resource {
 public:
  static constexpr std::size_t kBlockBytes = std::size_t{1024} * 1024;
  MessageArena() = default;
  ~MessageArena() override;
  MessageArena(const MessageArena&) = delete;
  MessageArena& operator=(const MessageArena&) = delete;

  std::size_t bytes_mapped() const noexcept { return mapped_; }

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override;
  void do_deallocate(void*, std::size_t, std::size_t) override {}  // unmapped with the arena
  bool do_is_equal(const boost::json::memory_resource& other) const noexcept override { return this == &other; }

  struct Block {
    void* base;
    std::size_t size;
  };
  std::vector<Block> blocks_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
  std::size_t mapped_ = 0;
};

// A storage_ptr owning a fresh MessageArena.
boost::json::storage_ptr make_message_arena();

}  // namespace hamcp::ha::detail
