#include "session.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include "harness/core/check.hpp"
#include "harness/device/links.hpp"
#include "harness/device/metrics.hpp"
#include "harness/device/nvml.hpp"
#include "harness/measure/device_timers.hpp"
#include "harness/process/progress.hpp"

namespace membench {

namespace {
constexpr std::size_t staging_bytes = std::size_t{64} << 20;

// The host-device link's ceiling: NVML's maximum (what the device and slot allow; an idle
// link may have trained down), else sysfs (virtual machines often hide it: "Unknown").
std::optional<pcie_link> host_link(const nvml_device* nvml, const std::string& pci_bus_id, std::string& source) {
  const std::optional<nvml_pcie> np = nvml != nullptr ? nvml->pcie() : std::nullopt;
  std::optional<pcie_link> link = np ? pcie_link_of(np->max_generation, np->max_width) : std::nullopt;
  if (link) {
    source = fmt::format("nvml maximum; now gen{} x{}", np->current_generation, np->current_width);
  } else if ((link = read_pcie_link(pci_bus_id))) {
    source = "sysfs current link";
  }
  return link;
}
}  // namespace

// A GPU a peer row uses: what it is and what NVML says of it, and, once a row is timed on it
// (another GPU than the session's), what open() measures of the session's own: its clock
// reference, its event-pair cost, and its L2 flush buffer.
struct session::other_device {
  device_info info;
  std::unique_ptr<nvml_device> own_nvml;
  const nvml_device* nvml = nullptr;  ///< own_nvml, or the session's for the session's device
  std::optional<std::optional<link_endpoint>> links;  ///< outer: read yet; inner: NVML told
  bool timed = false;
  double reference_mhz = 0;
  std::optional<event_calibration> calibration;
  std::unique_ptr<l2_flusher> flusher;

  ~other_device() {  // the flush buffer is freed with its device current
    int previous = 0;
    if (!flusher || cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(info.index) != cudaSuccess) return;
    flusher.reset();
    MEMBENCH_CUDA_LOG(cudaSetDevice(previous));
  }
};

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
  pcie_ = host_link(nvml_.get(), device.pci_bus_id, pcie_source_);
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
  others_.clear();
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

session::other_device& session::other(int index) {
  std::unique_ptr<other_device>& o = others_[index];
  if (o) return *o;
  auto made = std::make_unique<other_device>();
  if (index == device().index) {
    made->info = device();
    made->nvml = nvml_.get();
  } else {
    made->info = query_device(index);
    std::string why_not;
    made->own_nvml = nvml_device::open(made->info.pci_bus_id, why_not);
    made->nvml = made->own_nvml.get();
  }
  o = std::move(made);
  return *o;
}

const device_info& session::device_of(int index) { return index == device().index ? device() : other(index).info; }

const nvml_device* session::nvml_of(int index) { return index == device().index ? nvml_.get() : other(index).nvml; }

const link_endpoint* session::links_of(int index) {
  other_device& o = other(index);
  if (!o.links) {
    o.links.emplace();
    const auto pci = parse_pci_address(o.info.pci_bus_id);
    if (o.nvml != nullptr && pci) {
      std::string source;
      const std::optional<pcie_link> pcie = host_link(o.nvml, o.info.pci_bus_id, source);
      const std::optional<nvlink_links> nv = o.nvml->nvlink();
      *o.links = link_endpoint{*pci, o.nvml->nvlink_far_ends(), nv ? nv->link_gbps : 0, pcie ? pcie->gbps() : 0};
    }
  }
  return *o.links ? &**o.links : nullptr;
}

// The device's clock reference and event-pair cost, measured as open() measures the session's.
session::other_device& session::timed_other(int index) {
  other_device& o = other(index);
  if (o.timed) return o;
  const device_scope on(index);
  stream st;
  if (probe_) o.reference_mhz = reference_sm_clock(*probe_, st.get(), o.info.sm_count);
  if (blocker_) {
    spin_gpu(st.get(), o.info.sm_count, 0.05);
    o.calibration = calibrate_event_pair(*blocker_, st.get());  // null: its rows fall back to events
  }
  st.synchronize();
  o.timed = true;
  return o;
}

measure_env session::environment() {
  int current = 0;
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&current));
  if (current == device().index) {
    return measure_env{options_,
                       blocker_.get(),
                       probe_.get(),
                       nvml_.get(),
                       reference_mhz_,
                       calibration_ ? calibration_->median_s : 0,
                       calibration_ ? calibration_->p90_s - calibration_->p10_s : 0,
                       calibration_ ? calibration_->resolution_s : 0,
                       [this](cudaStream_t s) { flush_l2(s); }};
  }
  other_device& o = timed_other(current);
  return measure_env{options_,
                     o.calibration ? blocker_.get() : nullptr,
                     probe_.get(),
                     o.nvml,
                     o.reference_mhz,
                     o.calibration ? o.calibration->median_s : 0,
                     o.calibration ? o.calibration->p90_s - o.calibration->p10_s : 0,
                     o.calibration ? o.calibration->resolution_s : 0,
                     [&o](cudaStream_t s) {
                       if (!o.flusher) o.flusher = std::make_unique<l2_flusher>(o.info.l2_bytes);
                       o.flusher->flush(s);
                     }};
}

void session::flush_l2(cudaStream_t s) {
  if (!flusher_) flusher_ = std::make_unique<l2_flusher>(device().l2_bytes);
  flusher_->flush(s);
}

std::span<std::byte> session::staging() {
  if (!staging_) staging_ = std::make_unique<pinned_buffer<std::byte>>(staging_bytes);
  return {staging_->data(), staging_->size()};
}

namespace {

// Every k-th sample in time order: at most `limit`, spread over the whole sampling.
std::vector<double> every_kth(const std::vector<double>& samples, std::size_t limit) {
  const std::size_t step = samples.size() <= limit ? 1 : (samples.size() + limit - 1) / limit;
  std::vector<double> kept;
  for (std::size_t i = 0; i < samples.size(); i += step) kept.push_back(samples[i]);
  return kept;
}

}  // namespace

void session::keep_samples(const std::string& name, const std::vector<double>& samples,
                           const std::vector<double>& batch_samples) {
  if (options_.keep_samples <= 0) return;
  const auto limit = static_cast<std::size_t>(options_.keep_samples);
  kept_[name].push_back(every_kth(samples, limit));
  kept_batch_[name].push_back(every_kth(batch_samples, limit));
}

void session::expect_rows(std::size_t total, std::string build) {
  progress_ = total > 0 ? std::make_unique<progress>(total, std::move(build), options_.progress) : nullptr;
}

}  // namespace membench
