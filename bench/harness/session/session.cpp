#include "session.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include "harness/core/check.hpp"
#include "harness/device/metrics.hpp"
#include "harness/device/nvml.hpp"
#include "harness/measure/device_timers.hpp"
#include "harness/process/progress.hpp"

namespace membench {

namespace {
constexpr std::size_t staging_bytes = std::size_t{64} << 20;
}  // namespace

session::session(run_options options) : options_(std::move(options)) {}

session::~session() { close(); }

const device_info& session::device() const {
  if (!device_) throw std::logic_error("membench: the session has no device (open() was not called)");
  return *device_;
}

void session::open(const device_info& device) {
  device_ = device;
  nvtx_ = nvtxDomainCreateA("membench");
  nvml_ = nvml_device::open(device.pci_bus_id, nvml_missing_);
  // The host-device ceiling. NVML's maximum is what the device and slot allow; an idle
  // link may have trained down, and virtual machines often hide sysfs ("Unknown").
  const std::optional<nvml_pcie> np = nvml_ ? nvml_->pcie() : std::nullopt;
  if (np) pcie_ = pcie_link_of(np->max_generation, np->max_width);
  if (pcie_) {
    pcie_source_ = fmt::format("nvml maximum; now gen{} x{}", np->current_generation, np->current_width);
  } else if ((pcie_ = read_pcie_link(device.pci_bus_id))) {
    pcie_source_ = "sysfs current link";
  }
  if (!options_.metrics.empty()) {
    metrics_ = std::make_unique<metrics_profiler>(device.index, options_.metrics);
    if (metrics_->unavailable())
      std::fprintf(stderr, "membench: metrics unavailable: %s; rows are timed without them\n",
                   metrics_->unavailable()->c_str());
  }
  if (options_.method == timing_method::single) return;  // one launch per row: nothing to calibrate
  stream calibration_stream;
  probe_ = std::make_unique<clock_probe>();
  reference_mhz_ = reference_sm_clock(*probe_, calibration_stream.get(), device.sm_count);
  if (options_.method != timing_method::blocking) return;
  blocker_ = std::make_unique<stream_blocker>(options_.blocking_timeout_s);
  spin_gpu(calibration_stream.get(), device.sm_count, 0.05);  // the calibration starts at working clocks
  calibration_ = calibrate_event_pair(*blocker_, calibration_stream.get());
  if (!calibration_) {
    options_.method = timing_method::events;
    blocker_.reset();
    timing_fallback_ = "the blocking kernel timed out at start-up: launches block the host (a profiler? "
                       "CUDA_LAUNCH_BLOCKING?); every row uses plain events";
    std::fprintf(stderr, "membench: %s\n", timing_fallback_.c_str());
  }
}

void session::release_cuda() noexcept {
  workspaces_.clear();
  flusher_.reset();
  blocker_.reset();
  probe_.reset();
  staging_.reset();
}

void session::close() noexcept {
  if (!device_) return;
  if (blocker_ && poisoned_by_.empty()) {
    try {
      stream s;
      spin_gpu(s.get(), device_->sm_count, 0.05);
      end_calibration_ = calibrate_event_pair(*blocker_, s.get());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "membench: the closing calibration failed: %s\n", e.what());
    }
  }
  release_cuda();
  nvml_.reset();
  metrics_.reset();
  progress_.reset();
  device_.reset();
  medians_.clear();
}

measure_env session::environment() {
  return measure_env{options_,
                     blocker_.get(),
                     probe_.get(),
                     nvml_.get(),
                     reference_mhz_,
                     calibration_ ? calibration_->median_s : 0,
                     [this](cudaStream_t s) { flush_l2(s); }};
}

void session::flush_l2(cudaStream_t s) {
  if (!flusher_) flusher_ = std::make_unique<l2_flusher>(device().l2_bytes);
  flusher_->flush(s);
}

std::span<std::byte> session::staging() {
  if (!staging_) staging_ = std::make_unique<pinned_buffer<std::byte>>(staging_bytes);
  return {staging_->data(), staging_->size()};
}

void session::keep_samples(const std::string& name, const std::vector<double>& samples) {
  if (options_.keep_samples <= 0) return;
  // Every k-th sample in time order: bounded, and spread over the whole sampling.
  const std::size_t limit = static_cast<std::size_t>(options_.keep_samples);
  const std::size_t step = samples.size() <= limit ? 1 : (samples.size() + limit - 1) / limit;
  std::vector<double> kept;
  for (std::size_t i = 0; i < samples.size(); i += step) kept.push_back(samples[i]);
  kept_[name].push_back(std::move(kept));
}

void session::expect_rows(std::size_t total, std::string build) {
  progress_ = total > 0 ? std::make_unique<progress>(total, std::move(build), options_.progress) : nullptr;
}

}  // namespace membench
