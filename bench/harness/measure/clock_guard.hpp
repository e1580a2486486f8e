// Which samples a row keeps: those taken at the clock the run started with. A sample is
// thrown away when the SM clock measured right after it is under the threshold (a share
// of the reference clock measured under load at start-up), or when NVML saw a power or
// thermal clock event in the window it was taken in. Samples wait in a window until NVML
// is read again (every poll_s at most); a window in which the GPU was limited is dropped
// whole. After a drop the guard sleeps, with a bounded total per row, so clocks recover.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "harness/options/options.hpp"

namespace membench {

class nvml_device;

class clock_guard {
 public:
  struct sample {
    double seconds = 0;
    double mhz = 0;  ///< 0: not measured (host rows)
  };

  /// `reference_mhz` 0 or `judge_sm_clock` false: no SM-clock test (copies, host rows).
  clock_guard(const clock_policy& policy, double reference_mhz, const nvml_device* nvml, bool judge_sm_clock);

  /// Before each sample: sleeps while the last window was dropped and the row's wait budget lasts.
  void before_sample();
  /// A finished sample. Samples that became final are appended to `kept`; dropped ones counted.
  void offer(const sample& s, std::vector<sample>& kept, int& dropped);
  /// At the end of sampling: decides the open window.
  void settle(std::vector<sample>& kept, int& dropped);

  /// NVML clock-event reasons seen while sampling (throttling ones only).
  std::uint64_t reasons_seen() const noexcept { return reasons_seen_; }
  double threshold_mhz() const noexcept { return threshold_mhz_; }
  double waited_s() const noexcept { return waited_s_; }

  static constexpr double poll_s = 0.002;

 private:
  /// True when the GPU was not limited since the last poll.
  bool poll_clean();

  clock_policy policy_;
  double threshold_mhz_;
  const nvml_device* nvml_;
  std::vector<sample> window_;
  double window_start_ = 0;   // steady-clock seconds
  std::optional<std::uint64_t> limited_ns_;
  std::uint64_t reasons_seen_ = 0;
  bool last_dropped_ = false;
  double wait_step_s_ = 0.005;
  double waited_s_ = 0;
};

}  // namespace membench
