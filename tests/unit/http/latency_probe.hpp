#pragma once
// A well-behaved client measured while an attack runs: repeats one request on
// its own thread (about every 5 ms) until stop(), recording each latency.
// Bounded: at most 5,000 requests or 60 s, whichever comes first.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hamcp::test {

class LatencyProbe {
 public:
  // `request` returns true when it got the answer it expected.
  explicit LatencyProbe(std::function<bool()> request) : request_(std::move(request)) {
    thread_ = std::thread([this] { run(); });
  }
  ~LatencyProbe() { stop(); }

  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  // Milliseconds; meaningful after stop().
  double p99_ms() const {
    if (latencies_.empty()) return 1e9;
    auto sorted = latencies_;
    std::sort(sorted.begin(), sorted.end());
    return sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)];
  }
  std::size_t samples() const { return latencies_.size(); }
  std::size_t failures() const { return failures_; }

 private:
  void run() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (int i = 0; i < 5000 && !stop_ && std::chrono::steady_clock::now() < deadline; ++i) {
      const auto start = std::chrono::steady_clock::now();
      const bool ok = request_();
      const auto took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      latencies_.push_back(took);
      if (!ok) ++failures_;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  std::function<bool()> request_;
  std::atomic<bool> stop_{false};
  std::vector<double> latencies_;  // written by the probe thread only, read after stop()
  std::size_t failures_ = 0;
  std::thread thread_;
};

}  // namespace hamcp::test
