// The JSON context a session contributes: how rows were timed and stopped, the
// calibrations, NVML's view of the device and the PCIe link. Keys from the schema.
#include <cstdlib>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "harness/device/metrics.hpp"
#include "harness/device/nvml.hpp"
#include "harness/process/cpu_affinity.hpp"
#include "harness/process/devices.hpp"
#include "harness/session/session.hpp"

namespace membench {

std::vector<std::pair<std::string, std::string>> session::context() const {
  using schema::context_key;
  using schema::entry;
  const run_options& o = options_;
  const stopping_rule& r = o.rule;
  std::vector<std::pair<std::string, std::string>> out{
      entry(context_key("membench_suite"), to_string(o.suite)),
      entry(context_key("membench_timing"), to_string(o.method)),
      entry(context_key("membench_min_samples"), fmt::format("{}", r.min_samples)),
      entry(context_key("membench_max_ci_pct"), fmt::format("{}", r.max_ci_pct)),
      entry(context_key("membench_max_ci_host_pct"), fmt::format("{}", r.max_ci_host_pct)),
      entry(context_key("membench_ci_level_pct"), fmt::format("{}", r.ci_level_pct)),
      entry(context_key("membench_max_time_s"), fmt::format("{}", r.max_time_s)),
      entry(context_key("membench_max_time_host_s"), fmt::format("{}", r.max_time_host_s)),
      entry(context_key("membench_min_time_s"), fmt::format("{}", r.min_time_s)),
      entry(context_key("membench_row_limit_s"), fmt::format("{}", r.row_limit_s)),
      entry(context_key("membench_clock_threshold_pct"), fmt::format("{}", o.clocks.threshold_pct)),
      entry(context_key("membench_batch_below_us"), fmt::format("{}", o.batch_below_us)),
      entry(context_key("membench_keep_samples"), fmt::format("{}", o.keep_samples)),
  };
  if (reference_mhz_ > 0)
    out.push_back(entry(context_key("membench_reference_sm_clock_mhz"), fmt::format("{:.0f}", reference_mhz_)));
  if (calibration_) {
    out.push_back(entry(context_key("membench_event_overhead_us"), fmt::format("{:.3f}", calibration_->median_s * 1e6)));
    out.push_back(entry(context_key("membench_event_overhead_spread_us"),
                        fmt::format("{:.3f}", (calibration_->p90_s - calibration_->p10_s) * 1e6)));
    if (calibration_->resolution_s > 0)
      out.push_back(
          entry(context_key("membench_timer_resolution_us"), fmt::format("{:.4f}", calibration_->resolution_s * 1e6)));
    out.push_back(
        entry(context_key("membench_empty_kernel_us"), fmt::format("{:.3f}", calibration_->empty_kernel_s * 1e6)));
  }
  if (!timing_fallback_.empty()) out.push_back(entry(context_key("membench_timing_fallback"), timing_fallback_));
  if (metrics_) {
    std::string list;
    for (const auto& m : metrics_->metrics()) list += (list.empty() ? "" : ",") + m;
    out.push_back(entry(context_key("membench_metrics"), list));
    if (!metrics_->rejected().empty()) {
      std::string rejected;
      for (const auto& m : metrics_->rejected()) rejected += (rejected.empty() ? "" : ",") + m;
      out.push_back(entry(context_key("membench_metrics_rejected"), rejected));
    }
    out.push_back(entry(context_key("membench_metrics_status"),
                        metrics_->unavailable()
                            ? fmt::format("unavailable: {}", *metrics_->unavailable())
                            : fmt::format("CUPTI range profiler, chip {}, {} passes per row, one range per kernel, user "
                                          "replay of the row's launch after its timing",
                                          metrics_->chip(), metrics_->passes())));
  }
  // Hardware queues behind the streams (8 unless raised): bounds multi-stream overlap.
  const char* connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  out.push_back(entry(context_key("cuda_device_max_connections"), connections != nullptr ? connections : "unset (8)"));
  if (pcie_) {
    out.push_back(entry(context_key("pcie_link"), fmt::format("{} ({})", pcie_->str(), pcie_source_)));
    out.push_back(entry(context_key("pcie_peak_gbps"), fmt::format("{:.1f}", pcie_->gbps())));
  } else {
    out.push_back(entry(context_key("pcie_link"), "unknown (neither NVML nor sysfs gives the link generation and width)"));
  }
  out.push_back(entry(context_key("host_name"), host_name()));
  out.push_back(entry(context_key("host_boot_id"), host_boot_id()));
  out.push_back(entry(context_key("host_cpu_model"), host_cpu_model()));
  out.push_back(entry(context_key("membench_concurrent_devices"), fmt::format("{}", concurrent_devices())));
  out.push_back(entry(context_key("membench_host_link"), to_string(options_.host_link)));
  out.push_back(entry(context_key("membench_cpus"), format_cpu_list(allowed_cpus())));
  for (auto& kv : scheduler_context([](const char* v) { return std::getenv(v); })) out.push_back(std::move(kv));
  if (nvml_) {
    for (auto& kv : nvml_->context()) out.push_back(std::move(kv));
    for (auto& kv : identity_context(nvml_->identity())) out.push_back(std::move(kv));
  } else {
    out.push_back(entry(context_key("nvml"), fmt::format("unavailable: {}", nvml_missing_)));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> session::closing_context() const {
  if (!end_calibration_) return {};
  return {schema::entry(schema::context_key("membench_event_overhead_end_us"),
                        fmt::format("{:.3f}", end_calibration_->median_s * 1e6))};
}

}  // namespace membench
