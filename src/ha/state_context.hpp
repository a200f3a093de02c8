#pragma once
// The context of a state (HA's {"id", "parent_id", "user_id"}) in one small
// value. As three std::strings it was 96 bytes inside every EntityState plus a
// heap block for the 26-character ULID of nearly every state (~100 bytes per
// entity, ~10 MB at 100k entities). Here the three ids are one text: inline when
// they fit in 32 characters (a ULID with no parent or user does), else one
// heap block for all three.
// Not thread-safe for writes; a state is immutable once published.
#include <cstdint>
#include <string_view>

namespace hamcp::ha {

class StateContext {
 public:
  StateContext() noexcept { inline_[0] = '\0'; }
  StateContext(std::string_view id, std::string_view parent_id, std::string_view user_id);
  StateContext(const StateContext& other);
  StateContext(StateContext&& other) noexcept;
  StateContext& operator=(const StateContext& other);
  StateContext& operator=(StateContext&& other) noexcept;
  ~StateContext() { release(); }

  std::string_view id() const noexcept { return all().substr(0, id_size_); }
  std::string_view parent_id() const noexcept { return all().substr(id_size_, parent_size_); }
  std::string_view user_id() const noexcept { return all().substr(std::size_t{id_size_} + parent_size_); }

 private:
  static constexpr std::uint32_t kInline = 32;
  bool on_heap() const noexcept { return size_ > kInline; }
  std::string_view all() const noexcept { return {on_heap() ? heap_ : inline_, size_}; }
  void assign(std::string_view text, std::uint32_t id_size, std::uint32_t parent_size);
  void release() noexcept;

  union {
    char inline_[kInline];
    char* heap_;
  };
  std::uint32_t size_ = 0;
  std::uint16_t id_size_ = 0;  // ids longer than 65535 bytes are cut (HA's are 26 or 32)
  std::uint16_t parent_size_ = 0;
};

}  // namespace hamcp::ha
