#include "views/family.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace membench::report {

decide_options at_level(const decide_options& o, double alpha) {
  decide_options out = o;
  out.confidence = 1 - alpha;
  const double tail_draws = std::ceil(20 / (alpha / 2));
  out.replicates = std::max(o.replicates, static_cast<int>(std::min(1e6, tail_draws)));
  return out;
}

family_outcome correct_family(std::vector<decision>& ds, const decide_options& o, const redecider& again) {
  family_outcome out;
  out.compared = ds.size();
  const double q = 1 - o.confidence, m = static_cast<double>(ds.size());
  auto called = [](const decision& d) { return d.v == verdict::slower || d.v == verdict::faster; };
  std::vector<std::size_t> flagged;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    if (called(ds[i])) flagged.push_back(i);
  }
  // Step up from k = the calls at q: while fewer than k hold at 1 - k q / m, no k' between
  // those that hold and k can hold either (fewer hold at a stricter level), so k becomes
  // that count; it stops where all k hold.
  std::vector<std::size_t> kept = flagged;
  while (!kept.empty() && kept.size() < ds.size()) {
    const std::vector<decision> now = again(kept, at_level(o, static_cast<double>(kept.size()) * q / m));
    std::vector<std::size_t> still;
    for (std::size_t j = 0; j < kept.size(); ++j) {
      if (now[j].v == ds[kept[j]].v) still.push_back(kept[j]);
    }
    if (still.size() == kept.size()) break;
    kept = std::move(still);
  }
  out.kept = kept.size();
  out.demoted = flagged.size() - kept.size();
  if (ds.empty()) return out;
  out.level = 1 - static_cast<double>(std::max<std::size_t>(1, kept.size())) * q / m;
  const double enough = 1 - static_cast<double>(kept.size() + 1) * q / m;
  for (std::size_t i : flagged) {
    if (std::binary_search(kept.begin(), kept.end(), i)) continue;
    decision& d = ds[i];
    const std::string bar = o.margin > 0 ? fmt::format("clear {}{:g} %", d.v == verdict::slower ? "+" : "-", 100 * o.margin)
                                         : std::string("exclude 0");
    d.why.add(reason_code::family_alone,
              fmt::format("{} alone, not as one of {} compared (Benjamini-Hochberg at {:g} % would keep it if its "
                          "{} % interval did {})",
                          to_string(d.v), ds.size(), 100 * q, level_pct(enough), bar));
    d.v = verdict::unsure;
  }
  return out;
}

std::string level_pct(double level) {
  // {:.4g} of 99.996 reads 100: give the complement two significant digits instead.
  const double miss = 100 * (1 - level);
  if (!(miss > 0) || miss >= 0.01 * (1 - 1e-9)) return fmt::format("{:.4g}", 100 * level);
  std::string out = fmt::format("{:.{}f}", 100 * level, static_cast<int>(std::ceil(-std::log10(miss))) + 1);
  while (out.back() == '0') out.pop_back();
  return out;
}

std::string family_note(const family_outcome& fam, correction c, double confidence_pct, std::string_view what) {
  if (c != correction::bh) return fmt::format("family: none (--correction none: each {} alone at its level)", what);
  if (fam.compared == 0 || !std::isfinite(fam.level))
    return fmt::format("family: Benjamini-Hochberg, but no {} was compared: nothing called", what);
  return fmt::format("family: Benjamini-Hochberg over the {} {}s compared (false calls at most {:g} % of the "
                     "calls): {} slower or faster at the {} % level{}, {} called alone but unsure as one of {}",
                     fam.compared, what, 100 - confidence_pct, fam.kept, level_pct(fam.level),
                     fam.kept == 0 ? " (what one call would need)" : "", fam.demoted, fam.compared);
}

}  // namespace membench::report
