// Rows that compare one load path with the plain one of the same table (cache/constant,
// cache/read_only): `speedup_vs_plain` from two medians of the same run.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "common/schema.hpp"
#include "harness/session/context.hpp"

namespace membench {

/// The one measurement shape for `launch`, then `speedup_vs_plain`: the median of the row
/// named `plain_name` (timed earlier in this run, or measured now with `plain`) over this
/// row's. throws verification_error, cuda_error
inline void time_against_plain(bench_context& ctx, const launch_options& opt, std::uint64_t bytes_per_launch,
                               const launch_fn& launch, const output_check& check, const std::string& plain_name,
                               const launch_fn& plain) {
  const double median = ctx.verify_and_time(opt, bytes_per_launch, launch, check);
  const double plain_s = ctx.reference_seconds(plain_name, opt, plain);
  ctx.set_counter(schema::counter("speedup_vs_plain"), plain_s / median);
}

/// f(std::true_type{}) or f(std::false_type{}): a case's flag as its kernels' template argument.
template <class F>
void with_flag(bool flag, F&& f) {
  if (flag) {
    f(std::true_type{});
  } else {
    f(std::false_type{});
  }
}

}  // namespace membench
