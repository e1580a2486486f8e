// The counters of a pointer-chase row (the latency families of every space).
#pragma once

#include <cmath>
#include <cstdint>

#include "common/schema.hpp"
#include "harness/session/context.hpp"

namespace membench {

/// After timing: `cycles` clock64 ticks of the last launch's `steps` timed loads, over a
/// cycle of `nodes` nodes; ns at the SM clock the row measured (none when it measured none).
inline void report_chase(bench_context& ctx, std::uint64_t cycles, std::uint64_t steps, std::uint64_t nodes) {
  const double per_load = static_cast<double>(cycles) / static_cast<double>(steps);
  ctx.set_counter(schema::counter("cycles_per_load"), per_load);
  const double mhz = ctx.counter(schema::counter("sm_clock_mhz"));
  if (std::isfinite(mhz) && mhz > 0) ctx.set_counter(schema::counter("ns_per_load"), per_load / mhz * 1e3);
  ctx.set_counter(schema::counter("chain_nodes"), static_cast<double>(nodes));
}

}  // namespace membench
