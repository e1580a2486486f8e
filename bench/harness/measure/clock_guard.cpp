#include "clock_guard.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "harness/device/nvml.hpp"

namespace membench {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

clock_guard::clock_guard(const clock_policy& policy, double reference_mhz, const nvml_device* nvml, bool judge_sm_clock)
    : policy_(policy),
      threshold_mhz_(judge_sm_clock && reference_mhz > 0 ? reference_mhz * policy.threshold_pct / 100 : 0),
      nvml_(nvml),
      window_start_(now_s()) {
  if (nvml_ != nullptr) limited_ns_ = nvml_->limited_ns();
}

bool clock_guard::poll_clean() {
  if (nvml_ == nullptr) return true;
  bool clean = true;
  if (const auto r = nvml_->reasons()) {
    const std::uint64_t limiting = *r & clock_reason::throttling;
    reasons_seen_ |= limiting;
    clean = limiting == 0;
  }
  if (const auto ns = nvml_->limited_ns()) {
    if (limited_ns_ && *ns > *limited_ns_) clean = false;
    limited_ns_ = ns;
  }
  return clean;
}

void clock_guard::before_sample() {
  if (!last_dropped_ || waited_s_ >= policy_.max_wait_s) return;
  const double step = std::min(wait_step_s_, policy_.max_wait_s - waited_s_);
  std::this_thread::sleep_for(std::chrono::duration<double>(step));
  waited_s_ += step;
  wait_step_s_ = std::min(wait_step_s_ * 2, 0.1);
  // The sleep itself is outside every window.
  (void)poll_clean();
  window_start_ = now_s();
}

void clock_guard::offer(const sample& s, std::vector<sample>& kept, int& dropped) {
  if (threshold_mhz_ > 0 && s.mhz > 0 && s.mhz < threshold_mhz_) {
    ++dropped;
    last_dropped_ = true;
    return;
  }
  window_.push_back(s);
  if (now_s() - window_start_ >= poll_s) settle(kept, dropped);
}

void clock_guard::settle(std::vector<sample>& kept, int& dropped) {
  const bool clean = poll_clean();
  if (clean) {
    kept.insert(kept.end(), window_.begin(), window_.end());
    last_dropped_ = false;
    wait_step_s_ = 0.005;
  } else {
    dropped += static_cast<int>(window_.size());
    last_dropped_ = true;
  }
  window_.clear();
  window_start_ = now_s();
}

}  // namespace membench
