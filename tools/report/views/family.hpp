// Many benchmarks compared at once as one family: Benjamini and Hochberg's step-up over
// the verdicts of one comparison, so that a gate over a hundred rows does not fail on the
// one that chance calls slower.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "stats/verdict.hpp"

namespace membench::report {

/// How the verdicts of many benchmarks compared at once are corrected for their number.
enum class correction {
  none,  ///< each benchmark alone at its confidence
  bh,    ///< Benjamini and Hochberg's step-up over all the benchmarks compared together
};
/// The correction --correction names ("bh", "none"). throws std::invalid_argument
constexpr correction correction_named(std::string_view name) {
  if (name == "bh") return correction::bh;
  if (name == "none") return correction::none;
  throw std::invalid_argument("no such correction");
}

struct family_outcome {
  std::size_t compared = 0;  ///< m: the benchmarks decided together
  std::size_t kept = 0;      ///< slower or faster after the correction
  std::size_t demoted = 0;   ///< slower or faster alone, unsure as one of m
  double level = NAN;        ///< the confidence the kept ones met (1 - kept (1 - confidence) / m)
};

/// Decides the benchmarks `which` (indices into the family) again under `o`, one decision each.
using redecider = std::function<std::vector<decision>(const std::vector<std::size_t>& which, const decide_options& o)>;

/// The options that decide at the two-sided level 1 - alpha: its confidence, and bootstrap
/// replicates enough to put twenty draws in each tail.
decide_options at_level(const decide_options& o, double alpha);

/// Corrects the verdicts `ds` of one comparison as a family. At 99 % each benchmark alone
/// is called slower or faster by chance in about one comparison in a hundred, and a gate
/// over a hundred rows fails when any one is: without a correction, about every other
/// comparison of two runs of one commit. With q = 1 - confidence, the benchmarks called
/// slower or faster keep their verdict only if Benjamini and Hochberg's step-up keeps them:
/// the largest k such that k of them are still slower (faster) when decided again at the
/// level 1 - k q / m (every condition of decide at that level; a benchmark's p-value is
/// the least level at which decide calls it). The expected share of false calls among the
/// calls stays at most q (the benchmarks independent or, as rows of one process, positively
/// dependent), so a comparison with no change at all calls nothing with probability 1 - q;
/// when many benchmarks changed, k is large and each needs little more than q itself.
/// The others become unsure, saying a level that would keep them.
family_outcome correct_family(std::vector<decision>& ds, const decide_options& o, const redecider& again);

/// The note on a family's correction, `what` naming one of what was compared ("benchmark").
std::string family_note(const family_outcome& fam, correction c, double confidence_pct, std::string_view what);
/// A confidence level in percent, with the digits that tell it from 100 (99.996, not 100).
std::string level_pct(double level);

}  // namespace membench::report
