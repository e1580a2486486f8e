#include "views/sm_clock.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/naming.hpp"

namespace membench::report {
namespace {

// The event clock's interval: the two spins' medians each carry their interval; the slope's
// half-width is sqrt(2) x a half-width x 2 x MHz / cycles (the long spin has twice the
// short one's cycles), in percent of the clock.
double event_half_pct(const result& r, double mhz) {
  const auto low = r.value("ci_low_us"), high = r.value("ci_high_us");
  const double cycles = static_cast<double>(membench::parse_size(r.param("cycles")));
  if (!low || !high || !(cycles > 0)) return NAN;
  return 100 * std::sqrt(2.0) * (*high - *low) / 2 * 2 * mhz / cycles;
}

double or_nan(const std::optional<double>& x) { return x ? *x : NAN; }

}  // namespace

sm_clock_readings read_sm_clock(const std::vector<const result_file*>& files) {
  for (const char* name : {"compute/sm_clock/cycles:32M", "compute/sm_clock/cycles:16M"}) {
    for (const result_file* f : files) {
      const result* r = f->find(name);
      const auto event = r && !r->error ? r->value("event_sm_clock_mhz") : std::nullopt;
      if (!event || !(*event > 0) || !std::isfinite(*event)) continue;
      return {name, f->path, *event, event_half_pct(*r, *event), or_nan(r->value("sm_clock_mhz")),
              or_nan(r->value("nvml_sm_clock_mhz"))};
    }
  }
  return {};
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
  return fmt::format("events {:.1f}{}, probe {} (its step about {} %), NVML {}", c.event_mhz, ci, mhz(c.probe_mhz),
                     probe_step_pct, mhz(c.nvml_mhz));
}

}  // namespace membench::report
