#include "views/sm_clock.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/naming.hpp"
#include "common/schema.hpp"

namespace membench::report {
namespace {

// The event clock's interval: the two spins' medians each carry their interval; the slope's
// half-width is sqrt(2) x a half-width x 2 x MHz / cycles (the long spin has twice the
// short one's cycles), in percent of the clock. An inverted or unbounded interval gives no
// half-width: a negative one would read as a number that cannot be.
double event_half_pct(const result& r, double mhz) {
  const auto low = r.value("ci_low_us"), high = r.value("ci_high_us");
  const double cycles = static_cast<double>(membench::parse_size(r.param("cycles")));
  if (!low || !high || !(cycles > 0) || !(*low > 0) || !(*high >= *low) || !std::isfinite(*high)) return NAN;
  return 100 * std::sqrt(2.0) * (*high - *low) / 2 * 2 * mhz / cycles;
}

double or_nan(const std::optional<double>& x) { return x ? *x : NAN; }

// The GPU's maximum SM clock: what membench's own check of the slope reads (the device's
// maximum), else NVML's.
double max_mhz_of(const result_file& f) {
  for (const char* key : {"gpu_sm_clock_mhz", "nvml_max_sm_clock_mhz"}) {
    const auto v = numeric_value(f.context_value(key));
    if (v && *v > 0 && std::isfinite(*v)) return *v;
  }
  return NAN;
}

// Why the row's reading is no finding, as the profile names any row's: unconverged,
// throttled, or a slope above 1.02 x the GPU's maximum (bench/compute/sm_clock.cu makes that
// an error row: clock64 and the events disagree). "" when it is one.
std::string problem_of(const result& r, const result_file& f, double event_mhz) {
  std::string why;
  const auto add = [&why](const std::string& w) { why += (why.empty() ? "" : ", ") + w; };
  const double* converged = r.counters.find(schema::counter("converged").key);
  const bool unconverged = std::any_of(r.runs.begin(), r.runs.end(), [](const run& x) { return !x.converged; });
  if (unconverged || (converged != nullptr && *converged == 0)) add("unconverged");
  for (const run& x : r.runs) {
    if (!x.throttle.empty()) {
      add(fmt::format("throttled ({})", x.throttle));
      break;
    }
  }
  const double max_mhz = max_mhz_of(f);
  if (event_mhz > 1.02 * max_mhz) add(fmt::format("above 1.02 x the GPU's maximum {:.0f} MHz: not a clock", max_mhz));
  return why;
}

}  // namespace

sm_clock_readings read_sm_clock(const std::vector<const result_file*>& files) {
  sm_clock_readings flagged;
  for (const char* name : {"compute/sm_clock/cycles:32M", "compute/sm_clock/cycles:16M"}) {
    for (const result_file* f : files) {
      const result* r = f->find(name);
      const auto event = r && !r->error ? r->value("event_sm_clock_mhz") : std::nullopt;
      if (!event || !(*event > 0) || !std::isfinite(*event)) continue;
      sm_clock_readings c{name, f->path, *event, event_half_pct(*r, *event), or_nan(r->value("sm_clock_mhz")),
                          or_nan(r->value("nvml_sm_clock_mhz")), problem_of(*r, *f, *event)};
      if (c.problem.empty()) return c;
      if (flagged.row.empty()) flagged = std::move(c);
    }
  }
  return flagged;
}

std::string clock_agreement(double mhz, double half_pct, double other_mhz, double other_half_pct) {
  if (!(mhz > 0) || !(other_mhz > 0) || !std::isfinite(mhz) || !std::isfinite(other_mhz)) return "-";
  const double change = 100 * (other_mhz / mhz - 1);
  const double resolution = (std::isfinite(half_pct) ? half_pct : 0) + (std::isfinite(other_half_pct) ? other_half_pct : 0);
  return std::fabs(change) <= resolution ? "agree" : fmt::format("differ by {:+.2f} %", change);
}

std::string sm_clock_line(const sm_clock_readings& c) {
  if (c.row.empty()) return "not measured (compute/sm_clock)";
  const auto mhz = [](double x) { return std::isfinite(x) ? fmt::format("{:.0f}", x) : std::string("-"); };
  const std::string ci = std::isfinite(c.event_half_pct) ? fmt::format(" (+-{:.3f} %)", c.event_half_pct) : " (no interval)";
  return fmt::format("events {:.1f}{}, probe {} (its step about {} %), NVML {}{}", c.event_mhz, ci, mhz(c.probe_mhz),
                     probe_step_pct, mhz(c.nvml_mhz), c.problem.empty() ? "" : "; no finding: " + c.problem);
}

}  // namespace membench::report
