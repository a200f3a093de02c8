#pragma once
// Append-only text storage with stable views: many short texts (registry
// items, keys) packed into a few large buffers instead of one allocation each.
// A chunk is reserved in full before anything is written to it and never
// grows, so a view stays valid for the lifetime of the TextChunks. Chunks
// start small (a 20-item area list wastes little) and double up to 64 KiB
// (the last chunk of a big registry wastes at most that).

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace hamcp::ha::detail {

class TextChunks {
 public:
  static constexpr std::size_t kFirstChunk = std::size_t{4} * 1024;
  static constexpr std::size_t kMaxChunk = std::size_t{64} * 1024;

  std::string_view append(std::string_view text);
  std::size_t bytes_reserved() const noexcept { return reserved_; }

 private:
  struct Chunk {
    std::unique_ptr<char[]> data;
    std::size_t size = 0, capacity = 0;
  };
  std::vector<Chunk> chunks_;
  std::size_t reserved_ = 0;
};

}  // namespace hamcp::ha::detail
