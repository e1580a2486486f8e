// membench-fleet-evaluate's pieces its sections share: evaluate.cpp (the real strata, a node
// fit to join) and evaluate_synthetic.cpp (synthetic fleets resampled from them).
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "fleet/draw.hpp"
#include "fleet/evaluate_load.hpp"

namespace membench::report::fleet_evaluate {

/// Rows of the GPU part in a family, or every GPU row when family is "".
std::vector<std::size_t> gpu_rows(const fleet_test::matrix& m, const std::string& family);
/// Every run of `g` made `pct` % slower on `rows` (a run has `nrows` rows).
void slow_down(fleet_test::matrix::gpu& g, const std::vector<std::size_t>& rows, std::size_t nrows, double pct);
/// Whether the GPU's GPU work was called: slow or failing.
bool called(const fleet_test::gpu_result& r);
/// "k/n (x.x %)"; "-" when n is 0.
std::string pct(std::size_t k, std::size_t n);

/// How synthetic fleets are drawn and judged.
struct synthetic_options {
  fleet_test::draw_mode draw = fleet_test::draw_mode::distinct;  ///< --draw
  /// --model-below N: a fleet of fewer than N GPUs is judged against the reference of its
  /// stratum's GPUs it did not draw, when they are more than the fleet (fleet --model-below
  /// with a model reference installed); 0: never.
  std::size_t model_below = 0;
};

/// One stratum's synthetic fleets of each size: healthy, then one, two or a quarter slowed,
/// and the healthy verdicts called in all of them, by reason.
void synthetic_section(const stratum_set& s, const std::vector<std::size_t>& sizes, std::size_t trials,
                       const fleet_test::settings& set, const synthetic_options& o, std::mt19937_64& rng);

}  // namespace membench::report::fleet_evaluate
