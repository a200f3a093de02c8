#pragma once
// The mirror's status as tools and `hamcp doctor` see it.
// Threading: any thread; one mutex guards the whole status, held only to copy
// or assign it.

#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "ha/mirror.hpp"

namespace hamcp::ha::detail {

class StatusBoard {
 public:
  StatusBoard() { value_.detail = "connecting to Home Assistant"; }

  MirrorStatus get() const {
    std::lock_guard lock(mutex_);
    return value_;
  }
  MirrorState state() const {
    std::lock_guard lock(mutex_);
    return value_.state;
  }
  // err: the new last_error; without one, the old error is cleared unless keep_error.
  void set(MirrorState state, std::string mode, std::string detail, std::optional<HaError> err, bool keep_error,
           std::string ha_version) {
    std::lock_guard lock(mutex_);
    value_.state = state;
    value_.mode = std::move(mode);
    value_.detail = std::move(detail);
    if (err)
      value_.last_error = std::move(err);
    else if (!keep_error)
      value_.last_error.reset();
    value_.ha_version = std::move(ha_version);
  }
  void set_published(std::uint64_t version, std::size_t entity_count) {
    std::lock_guard lock(mutex_);
    value_.version = version;
    value_.entity_count = entity_count;
  }

 private:
  mutable std::mutex mutex_;
  MirrorStatus value_;
};

}  // namespace hamcp::ha::detail
