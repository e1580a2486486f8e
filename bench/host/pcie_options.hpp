// What the host-device families share: rows whose data crosses the PCIe link report
// pct_peak against the link's theoretical rate (`peak:pcie` in the label) and are timed with
// plain events (copy engines: see launch_options::copy_engine); host buffers are filled in
// parallel; a copy of pattern words is checked the same way whichever API makes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/parallel.hpp"
#include "harness/core/harness_kernels.hpp"
#include "harness/session/context.hpp"
#include "kernels/common/pattern.hpp"
#include "kernels/host/copy.hpp"

namespace membench::host {

inline launch_options over_pcie(const bench_context& ctx, bool blocks_host = false, cudaStream_t stream = nullptr) {
  launch_options o;
  o.l2 = l2_state::warm;  // the data comes from the host: no device cache state to set
  o.blocks_host = blocks_host;
  o.copy_engine = true;  // every copy: plain events, as the lessons timed them
  o.stream = stream;
  o.peak_gbps = ctx.pcie() ? ctx.pcie()->gbps() : 0.0;
  o.peak_name = "pcie";
  return o;
}

/// out[i] = value(i) for i in [0, n), on every core: GiB buffers are filled in a fraction
/// of a second.
template <class T, class Value>
void fill_host(T* out, std::size_t n, Value value) {
  parallel_parts(n, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) out[i] = value(i);
  });
}

inline std::uint32_t copy_word(std::size_t i) { return pattern_word(i, copy_seed); }

/// The check of a copy of `n` words between `host` and `dev` in direction `h2d`: the source
/// is written with copy_word, the destination poisoned (0xA5 bytes on the host, other words
/// on the device); after the copy every word must be copy_word. The copy may be a
/// synchronous call on the legacy stream, which does not wait for the row's stream: the
/// poison is complete before it starts, the whole device idle before the comparison.
/// Write-combined host memory (`host_readable` false) is read back through the device: the
/// CPU reads it uncached, and a GiB would take minutes.
inline output_check copy_check(bench_context& ctx, bool h2d, std::uint32_t* host, std::uint32_t* dev, std::size_t n,
                               bool host_readable = true) {
  auto poison = [=](cudaStream_t s) {
    if (h2d) {
      fill_host(host, n, copy_word);
      fill_words(dev, n, copy_poison_seed, s);
    } else {
      std::memset(host, 0xA5, n * sizeof(std::uint32_t));
      fill_words(dev, n, copy_seed, s);
    }
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
  };
  auto verify = [&ctx, h2d, host, dev, n, host_readable] {
    MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
    if (h2d) {
      verify_device_array(ctx.reader(), dev, n, copy_word, "device copy");
    } else if (host_readable) {
      verify_host_array(host, n, copy_word, "host copy");
    } else {
      fill_words(dev, n, copy_poison_seed, ctx.stream());
      MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(dev, host, n * sizeof(std::uint32_t), cudaMemcpyHostToDevice, ctx.stream()));
      verify_device_array(ctx.reader(), dev, n, copy_word, "host copy (read back through the device)");
    }
  };
  return {poison, verify};
}

}  // namespace membench::host
