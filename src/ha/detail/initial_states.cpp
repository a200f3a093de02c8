#include "ha/detail/initial_states.hpp"

#include <utility>

namespace hamcp::ha::detail {

void InitialStates::begin() {
  std::lock_guard lock(mutex_);
  staging_ = true;
  held_.reset();
}

std::optional<StateTable> InitialStates::end() {
  std::lock_guard lock(mutex_);
  staging_ = false;
  std::optional<StateTable> out = std::move(held_);
  held_.reset();
  return out;
}

bool InitialStates::waiting() const {
  std::lock_guard lock(mutex_);
  return staging_;
}

std::optional<StateTable> InitialStates::offer(StateTable table) {
  std::lock_guard lock(mutex_);
  if (!staging_) return table;
  held_ = std::move(table);
  return std::nullopt;
}

bool InitialStates::edit_held(const std::function<void(StateTableBuilder&)>& edit) {
  std::lock_guard lock(mutex_);
  if (!staging_ || !held_) return false;
  StateTableBuilder b(*held_);
  edit(b);
  held_ = b.build();
  return true;
}

}  // namespace hamcp::ha::detail
