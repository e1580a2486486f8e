// Launch options shared by the host-device families: rows whose data crosses the PCIe
// link report pct_peak against the link's theoretical rate (`peak:pcie` in the label) and
// are timed with plain events (copy engines: see launch_options::copy_engine).
#pragma once

#include "harness/runner.hpp"

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

}  // namespace membench::host
