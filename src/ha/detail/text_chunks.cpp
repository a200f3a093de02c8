#include "ha/detail/text_chunks.hpp"

#include <algorithm>
#include <cstring>

namespace hamcp::ha::detail {

std::string_view TextChunks::append(std::string_view text) {
  if (chunks_.empty() || chunks_.back().capacity - chunks_.back().size < text.size()) {
    const std::size_t next = chunks_.empty() ? kFirstChunk : std::min(chunks_.back().capacity * 2, kMaxChunk);
    Chunk c;
    c.capacity = std::max(next, text.size());
    c.data = std::make_unique_for_overwrite<char[]>(c.capacity);
    reserved_ += c.capacity;
    chunks_.push_back(std::move(c));
  }
  Chunk& c = chunks_.back();
  char* at = c.data.get() + c.size;
  if (!text.empty()) std::memcpy(at, text.data(), text.size());
  c.size += text.size();
  return {at, text.size()};
}

}  // namespace hamcp::ha::detail
