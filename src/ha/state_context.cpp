#include "ha/state_context.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace hamcp::ha {

namespace {
std::string_view capped(std::string_view id) { return id.substr(0, std::numeric_limits<std::uint16_t>::max()); }
}  // namespace

StateContext::StateContext(std::string_view id, std::string_view parent_id, std::string_view user_id) {
  id = capped(id);
  parent_id = capped(parent_id);
  user_id = capped(user_id);
  size_ = static_cast<std::uint32_t>(id.size() + parent_id.size() + user_id.size());
  id_size_ = static_cast<std::uint16_t>(id.size());
  parent_size_ = static_cast<std::uint16_t>(parent_id.size());
  char* out = inline_;
  if (on_heap()) out = heap_ = new char[size_];
  out = std::copy(id.begin(), id.end(), out);
  out = std::copy(parent_id.begin(), parent_id.end(), out);
  std::copy(user_id.begin(), user_id.end(), out);
}

StateContext::StateContext(const StateContext& other) {
  inline_[0] = '\0';
  assign(other.all(), other.id_size_, other.parent_size_);
}

StateContext::StateContext(StateContext&& other) noexcept
    : size_(other.size_), id_size_(other.id_size_), parent_size_(other.parent_size_) {
  std::memcpy(inline_, other.inline_, kInline);  // the inline text, or the heap pointer
  other.size_ = other.id_size_ = other.parent_size_ = 0;
}

StateContext& StateContext::operator=(const StateContext& other) {
  if (this != &other) assign(other.all(), other.id_size_, other.parent_size_);
  return *this;
}

StateContext& StateContext::operator=(StateContext&& other) noexcept {
  if (this == &other) return *this;
  release();
  std::memcpy(inline_, other.inline_, kInline);
  size_ = other.size_;
  id_size_ = other.id_size_;
  parent_size_ = other.parent_size_;
  other.size_ = other.id_size_ = other.parent_size_ = 0;
  return *this;
}

void StateContext::assign(std::string_view text, std::uint32_t id_size, std::uint32_t parent_size) {
  // Copy first: text may view this object's own storage.
  char* heap = nullptr;
  if (text.size() > kInline) {
    heap = new char[text.size()];
    std::copy(text.begin(), text.end(), heap);
  }
  char staged[kInline];
  if (!heap) std::copy(text.begin(), text.end(), staged);
  release();
  if (heap)
    heap_ = heap;
  else
    std::memcpy(inline_, staged, text.size());
  size_ = static_cast<std::uint32_t>(text.size());
  id_size_ = static_cast<std::uint16_t>(id_size);
  parent_size_ = static_cast<std::uint16_t>(parent_size);
}

void StateContext::release() noexcept {
  if (on_heap()) delete[] heap_;
  size_ = 0;
}

}  // namespace hamcp::ha
