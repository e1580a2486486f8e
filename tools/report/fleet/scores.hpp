// fleet's per-GPU test, its inner parts shared by the reference (reference.cpp) and the
// verdicts (gpu_test.cpp): one GPU's score on one scope, and what it is judged with.
#pragma once

#include <cmath>
#include <vector>

#include "fleet/gpu_test.hpp"

namespace membench::report::fleet_test::detail {

/// One GPU's score on one scope: the mean over its runs of the run's mean deviation.
struct score {
  double mean = NAN;    ///< log
  double within = NAN;  ///< its runs' sample variance (NaN below two runs)
  int runs = 0;
};

/// The runs' scores in one: their mean, their median from three runs, their 20 % trimmed mean
/// from five (a run of a process that went wrong does not move it), and their sample variance.
score score_of(const matrix::gpu& g, const scope_ref& sc, const std::vector<double>& centre, std::size_t rows);
/// How much more a score of n runs varies than their plain mean (sigma^2 / n), for normal runs.
double estimator_factor(double n);
/// A scope's threshold as a log.
double log_threshold(const settings& s, const scope_ref& sc);
/// Whether a GPU fails more than the settings' share of a part's rows; host rows only where
/// the host is judged (a row of host work unconverged in both of two runs is common).
bool failing(const matrix::gpu& g, const std::vector<row_meta>& rows, part p, const settings& s);

}  // namespace membench::report::fleet_test::detail
