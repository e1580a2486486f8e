// What a family's row sees: its name, stream and device, a workspace keyed by its name,
// the one measurement shape (verify once, then time) and its counters. Everything else
// lives in the session.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include "common/naming.hpp"
#include "common/schema.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/resources.hpp"
#include "harness/core/verify.hpp"
#include "harness/device/device_info.hpp"
#include "harness/device/pcie.hpp"
#include "harness/measure/launch.hpp"
#include "harness/session/session.hpp"

namespace membench {

/// How a launch's output is checked: `poison` runs before the verification launch (so
/// that an element the kernel does not write cannot pass), `verify` after it and throws
/// verification_error. check.hpp makes the usual ones.
struct output_check {
  launch_fn poison;
  std::function<void()> verify;
};

class bench_context {
 public:
  bench_context(session& s, benchmark::State& state, std::string name);
  ~bench_context();
  bench_context(const bench_context&) = delete;
  bench_context& operator=(const bench_context&) = delete;

  /// The row's stream: on the session's device, or on the one the row moved to.
  cudaStream_t stream() const noexcept { return moved_stream_ ? moved_stream_->get() : stream_.get(); }
  /// The row's device: the session's, or the one it moved to.
  const device_info& device() const;

  /// Moves the row to GPU `index` (a peer row whose work another GPU issues). Until the row
  /// ends that device is current and stream() is a stream of it, so verification, timing and
  /// read-back happen there, with that device's L2 flush, clock reference, event-pair cost and
  /// NVML. Call it before anything else of the row; a no-op for the session's device.
  /// throws cuda_error
  void move_to(int index);
  /// The properties of another GPU of the process, and what NVML says of its links (null
  /// without NVML), for peer rows. throws cuda_error
  const device_info& device_of(int index) { return session_.device_of(index); }
  const link_endpoint* links_of(int index) { return session_.links_of(index); }
  const std::string& name() const noexcept { return name_; }
  /// The value of a name key of this row ("" when the name has none).
  std::string param(std::string_view key) const;
  /// The benchmark's stream (or `other`, e.g. another GPU's) and the session's staging
  /// memory, for verify_device_array.
  device_reader reader() { return {stream(), session_.staging()}; }
  device_reader reader(cudaStream_t other) { return {other, session_.staging()}; }

  /// throws infeasible when `bytes` more device memory would not fit. Call it inside a
  /// workspace's make(), when the previous workspace has been freed.
  void require_device_bytes(std::uint64_t bytes) const;

  /// The object `make()` returns, shared by the rows whose names agree on `keys` and ask
  /// for the same type W (read_offset and write_offset of one size share their buffers):
  /// give each kind of content its own W, so that two experiments of a space never share
  /// buffers filled for the other. One slot: a new key frees the old first.
  template <class W, class Make>
  W& workspace(std::initializer_list<std::string_view> keys, Make&& make) {
    W& w = session_.workspaces().get<W>(workspace_key(keys), std::forward<Make>(make));
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
    return w;
  }

  /// Runs `check` (launch, compare with the host reference) once per benchmark name.
  void verify_once(const std::function<void()>& check);

  /// The one measurement shape: once per name, poison the output, launch (on opt.stream
  /// when set, e.g. the legacy stream of a synchronous API, else this row's stream),
  /// compare with the host reference; then time. Returns the median in seconds.
  /// throws verification_error, cuda_error
  double verify_and_time(const launch_options& opt, std::uint64_t bytes_per_launch, const launch_fn& launch,
                         const output_check& check);
  double verify_and_time(l2_state l2, std::uint64_t bytes_per_launch, const launch_fn& launch,
                         const output_check& check);

  /// Warm-up, then timed launches until the stopping rule is met; sets the iteration time
  /// (the median sample), counters and label; returns the median in seconds.
  /// `bytes_per_launch` comes from the family's unit-tested formula. throws cuda_error
  double time_launches(const launch_options& opt, std::uint64_t bytes_per_launch, const launch_fn& launch);
  double time_launches(l2_state l2, std::uint64_t bytes_per_launch, const launch_fn& launch);

  /// Times `call` with the host's steady clock (label `timing:host_clock`, no pct_peak), for
  /// work the GPU clock cannot see (cudaMalloc, CPU loops): `call` returns when its work is
  /// done. Returns the median in seconds.
  double time_host(const host_options& opt, std::uint64_t bytes_per_call, const std::function<void()>& call);

  /// Samples `launch` like time_launches but reports nothing: the parts of a bound.
  /// Returns the median in seconds. throws cuda_error
  double measure(const launch_options& opt, const launch_fn& launch);

  /// The median (seconds) of the benchmark named `reference`: the row of that name already
  /// timed in this process, or, when it did not run (filtered out), measured now with
  /// `launch`, which must do the same work. For ratios measured in the same run.
  double reference_seconds(const std::string& reference, const launch_options& opt, const launch_fn& launch);
  /// reference_seconds for a host-timed row (time_host).
  double reference_host_seconds(const std::string& reference, const std::function<void()>& call);

  /// The PCIe link to the host, when the system tells (NVML, else sysfs).
  const std::optional<pcie_link>& pcie() const noexcept { return session_.pcie(); }

  /// A family's own counter, named in the schema: set_counter(schema::counter("passes"), 3).
  void set_counter(const schema::field& counter, double value);
  /// A counter this row has set so far (e.g. sm_clock_mhz after timing); NaN when unset.
  double counter(const schema::field& counter) const;

 private:
  std::string workspace_key(std::initializer_list<std::string_view> keys) const;
  double report(const launch_options& opt, std::uint64_t bytes, const std::function<sample_run()>& sample);
  void profile_metrics(const launch_options& opt, const launch_fn& launch);

  session& session_;
  benchmark::State& state_;
  std::string name_;
  bench_name parsed_;
  std::string label_;
  double started_s_;
  membench::stream stream_;
  // A row moved to another device: its device, kept current (destroyed after the stream of
  // it below, before stream_), and a stream of it.
  const device_info* moved_device_ = nullptr;
  std::unique_ptr<device_scope> moved_scope_;
  std::optional<membench::stream> moved_stream_;
};

}  // namespace membench
