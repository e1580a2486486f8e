// Hardware counters through CUPTI's range profiler (the metrics behind Nsight Compute),
// the successor of the nvprof metrics the lessons read (gld_efficiency, gld_transactions).
// Opt-in (--metrics): after a row is timed, its launch is profiled in a separate pass and
// the values become counters of that row, named by the metric. The profiler is enabled
// only around that pass, so no timed sample ever runs under it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace membench {

/// The default list: load and store efficiency, sectors and requests of global loads,
/// L1 and L2 hit rates, DRAM throughput.
const std::vector<std::string>& default_metrics();

/// "a,b,c" -> {"a", "b", "c"}; throws std::invalid_argument on an empty list, an empty
/// entry, a duplicate, or a character outside [A-Za-z0-9_.].
std::vector<std::string> parse_metric_list(std::string_view text);

/// Counters a row gets from `values` (metric name, value), in list order, plus
/// `sectors_per_request` when both the global-load sector and request sums are present
/// (and requests are not zero).
std::vector<std::pair<std::string, double>> metric_counters(const std::vector<std::pair<std::string, double>>& values);

/// One row's metrics from its kernels' values (per_kernel[k][m] for metrics[m]): one kernel's
/// as they are; for several kernels only the `.sum` metrics, added (a rate or percentage
/// of several kernels is not their sum, and has no weights here).
std::vector<std::pair<std::string, double>> combine_kernels(const std::vector<std::string>& metrics,
                                                          const std::vector<std::vector<double>>& per_kernel);

/// The label token of a row whose metrics could not be read: `metrics:unavailable(REASON)`,
/// REASON reduced to one token ([A-Za-z0-9_] kept, runs of anything else as one '_').
std::string metrics_unavailable_token(std::string_view reason);

/// One CUPTI range-profiler session for one device. Construction never throws: when the
/// profiler cannot be used (no permission, unsupported device, missing library) it says
/// why in unavailable() and profile() is not to be called.
class metrics_profiler {
 public:
  metrics_profiler(int device, std::vector<std::string> metrics);
  ~metrics_profiler();
  metrics_profiler(const metrics_profiler&) = delete;
  metrics_profiler& operator=(const metrics_profiler&) = delete;

  const std::optional<std::string>& unavailable() const noexcept { return unavailable_; }
  /// The metrics profiled: the list asked for less those CUPTI rejected.
  const std::vector<std::string>& metrics() const noexcept { return metrics_; }
  const std::vector<std::string>& rejected() const noexcept { return rejected_; }
  const std::string& chip() const noexcept { return chip_; }
  /// Replay passes one profile() needs for this metric list (0 before the first).
  std::size_t passes() const noexcept { return passes_; }
  /// Kernels the last profile() saw in the row's launch (one range each).
  std::size_t kernels() const noexcept { return kernels_; }

  /// Profiles the kernels `launch` runs, one range per kernel (auto range), the launch
  /// replayed once per pass with `prepare` (untimed: the L2 flush of a cold row) before
  /// each; synchronises the device. `values`: combine_kernels of them, in list order.
  /// throws std::runtime_error naming the CUPTI call
  void profile(const std::function<void()>& prepare, const std::function<void()>& launch,
               std::vector<std::pair<std::string, double>>& values);

 private:
  struct state;
  std::vector<std::string> metrics_;
  std::vector<std::string> rejected_;
  std::optional<std::string> unavailable_;
  std::string chip_;
  std::size_t passes_ = 0;
  std::size_t kernels_ = 0;
  std::unique_ptr<state> state_;
};

}  // namespace membench
