// How membench-fleet-evaluate draws a synthetic fleet from the real GPUs of a stratum.
#pragma once

#include <cstddef>
#include <random>
#include <string_view>
#include <vector>

#include "fleet/gpu_test.hpp"

namespace membench::report::fleet_test {

/// How a synthetic fleet's GPUs and their runs are drawn from a stratum's real GPUs.
enum class draw_mode : unsigned char {
  /// Each real GPU once before any twice (a shuffled cycle, so a fleet no larger than the
  /// stratum holds distinct chips, as a real one does); runs as measured, or with five runs
  /// or more a random n - 1 of them without replacement (no run counted twice).
  distinct,
  /// GPUs drawn with replacement, and with five runs or more their runs too: the bootstrap.
  /// With five runs it repeats one run four or five times in 0.7 % of GPUs, so a rare slow
  /// run becomes a GPU's median far more often than real runs make it.
  bootstrap,
};

/// "distinct" or "bootstrap"; throws std::invalid_argument otherwise.
draw_mode parse_draw_mode(std::string_view text);

/// A fleet of `size` GPUs drawn from `m`'s GPUs (none of them empty) as `mode` says; with
/// `drawn`, the index in `m` of each GPU drawn is appended to it.
matrix draw_fleet(const matrix& m, std::size_t size, draw_mode mode, std::mt19937_64& rng,
                  std::vector<std::size_t>* drawn = nullptr);

}  // namespace membench::report::fleet_test
