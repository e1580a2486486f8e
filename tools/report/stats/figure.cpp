// Which figure of a row a verdict rests on, and the smallest change that figure resolves.
// A short row's single launches sit a few timer steps above zero: its back-to-back batches
// (batch_us) time many launches per step and resolve the same work far more finely.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/stats.hpp"
#include "stats/verdict.hpp"

namespace membench::report {
namespace {

bool has_batch_interval(const run& r) {
  const run::batch_figure& b = r.batch;
  return b.us > 0 && b.ci_low_us > 0 && b.ci_high_us >= b.ci_low_us;
}

double timer_step_us(const side& s) {
  return std::isfinite(s.timer_resolution_us) ? s.timer_resolution_us : default_timer_step_us;
}

// How finely one run's figure resolves its work, relative to it: the larger of its
// interval's half-width and the timer's step per launch; infinite where it has no interval.
double relative_resolution(double us, double low, double high, double launches, double step) {
  if (!(us > 0) || !(low > 0) || !(high >= low)) return INFINITY;
  return std::max((high - low) / 2, step / launches) / us;
}

// The median of that over a side's runs, for one figure.
double side_resolution(const side& s, figure f) {
  std::vector<double> v;
  for (const run* r : s.runs) {
    const run::batch_figure& b = r->batch;
    const double launches = std::isfinite(b.launches) && b.launches >= 1 ? b.launches : 1;
    v.push_back(f == figure::batch ? relative_resolution(b.us, b.ci_low_us, b.ci_high_us, launches, timer_step_us(s))
                                   : relative_resolution(r->time_us, r->ci_low_us, r->ci_high_us, 1, timer_step_us(s)));
  }
  return v.empty() ? INFINITY : median_of(std::move(v));
}

// The half-width of a side's centre from its runs' own intervals: their median half-width
// over the root of their number (0 where no run has one).
double centre_half_width_us(const side& s) {
  std::vector<double> h;
  for (const run* r : s.runs) {
    if (r->ci_low_us > 0 && r->ci_high_us >= r->ci_low_us) h.push_back((r->ci_high_us - r->ci_low_us) / 2);
  }
  if (h.empty()) return 0;
  return median_of(std::move(h)) / std::sqrt(static_cast<double>(s.runs.size()));
}

// The fewest launches a sample of the side's runs times (1 for aggregates).
double fewest_launches(const side& s) {
  double n = INFINITY;
  for (const run* r : s.runs) n = std::min(n, r->launches);
  return std::isfinite(n) && n >= 1 ? n : 1;
}

}  // namespace

const char* to_string(figure f) noexcept {
  switch (f) {
    case figure::single: return "single";
    case figure::batch: return "batch";
    case figure::fastest: return "fastest";
  }
  return "?";
}

figure better_figure(const std::vector<const side*>& sides) {
  double batch = 0, single = 0;
  for (const side* s : sides) {
    if (s->runs.empty()) return figure::single;
    for (const run* r : s->runs) {
      if (!has_batch_interval(*r)) return figure::single;
    }
    batch += side_resolution(*s, figure::batch);
    single += side_resolution(*s, figure::single);
  }
  return !sides.empty() && batch < single ? figure::batch : figure::single;
}

figure better_figure(const side& base, const side& next) { return better_figure({&base, &next}); }

namespace {

// A side of the same files whose runs are `as(run)`, owned by the side.
template <class As>
side derived_side(const side& s, As as) {
  side out;
  out.ci_level = s.ci_level;
  out.reference_clock_mhz = s.reference_clock_mhz;
  out.timer_resolution_us = s.timer_resolution_us;
  auto runs = std::make_shared<std::vector<run>>();
  runs->reserve(s.runs.size());
  for (const run* r : s.runs) runs->push_back(as(*r));
  for (const run& x : *runs) out.runs.push_back(&x);
  out.owned = std::move(runs);
  return out;
}

}  // namespace

side batch_side(const side& s) {
  return derived_side(s, [](const run& r) {
    const run::batch_figure& b = r.batch;
    run x;
    x.time_us = b.us;
    x.ci_low_us = b.ci_low_us;
    x.ci_high_us = b.ci_high_us;
    x.noise_pct = b.noise_pct;
    x.sample_count = b.samples;
    x.sm_clock_mhz = std::isfinite(b.sm_clock_mhz) ? b.sm_clock_mhz : r.sm_clock_mhz;
    x.converged = r.converged;
    x.throttle = r.throttle;
    x.work = r.work;
    x.at_timer_floor = r.at_timer_floor;
    x.launches = std::isfinite(b.launches) && b.launches >= 1 ? b.launches : 1;
    x.samples_us = b.samples_us;
    return x;
  });
}

bool copies_with_fastest(const std::vector<const side*>& sides) {
  bool any = false;
  for (const side* s : sides) {
    if (s->runs.empty()) return false;
    for (const run* r : s->runs) {
      if (r->work != run::work_kind::copy || !(r->fastest_us > 0)) return false;
      any = true;
    }
  }
  return any;
}

side fastest_side(const side& s) {
  return derived_side(s, [](const run& r) {
    run x = r;
    x.time_us = r.fastest_us;
    // The fastest sample has no interval of its own: its spread is the runs'.
    x.ci_low_us = x.ci_high_us = x.noise_pct = NAN;
    x.samples_us.clear();
    x.batch = {};
    return x;
  });
}

double timer_floor_us(const side& base, const side& next, const decide_options& o) {
  if (std::isfinite(o.resolution_us)) return o.resolution_us;
  // Sides of runs say what their samples time; a side that is an aggregate (repetitions
  // folded, fleet's centre) only where neither has runs.
  double step = 0;
  for (const side* s : {&base, &next}) {
    if (!s->runs.empty()) step = std::max(step, timer_step_us(*s) / fewest_launches(*s));
  }
  if (base.runs.empty() && next.runs.empty()) step = std::max(timer_step_us(base), timer_step_us(next));
  return step;
}

double resolved_us(const side& base, const side& next, const decide_options& o) {
  const double step = timer_floor_us(base, next, o);
  if (std::isfinite(o.resolution_us)) return step;
  return std::max(step, std::hypot(centre_half_width_us(base), centre_half_width_us(next)));
}

std::string resolution_text(double resolution_us) {
  if (std::isfinite(resolution_us)) return fmt::format("{:g} us", resolution_us);
  return "what the timing resolves (the timer's step per launch, the sides' own intervals)";
}

}  // namespace membench::report
