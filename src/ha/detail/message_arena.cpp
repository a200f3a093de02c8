#include "ha/detail/message_arena.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace hamcp::ha::detail {

MessageArena::~MessageArena() {
  for (const Block& b : blocks_) ::munmap(b.base, b.size);
}

void* MessageArena::do_allocate(std::size_t bytes, std::size_t align) {
  auto p = reinterpret_cast<std::uintptr_t>(next_);
  std::size_t pad = (align - (p & (align - 1))) & (align - 1);
  if (!next_ || pad + bytes > left_) {
    // Untouched pages of a block cost no RSS, so a large fixed block wastes
    // only address space.
    const std::size_t size = bytes + align > kBlockBytes ? bytes + align : kBlockBytes;
    void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    blocks_.push_back({base, size});
    mapped_ += size;
    next_ = static_cast<char*>(base);
    left_ = size;
    p = reinterpret_cast<std::uintptr_t>(next_);
    pad = (align - (p & (align - 1))) & (align - 1);
  }
  next_ += pad + bytes;
  left_ -= pad + bytes;
  return reinterpret_cast<void*>(p + pad);
}

boost::json::storage_ptr make_message_arena() { return boost::json::make_shared_resource<MessageArena>(); }

}  // namespace hamcp::ha::detail
