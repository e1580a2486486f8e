#include "views/headline.hpp"

#include "views/views.hpp"

namespace membench::report {
namespace {

double counter(const result& r, std::string_view key) {
  const double* v = r.counters.find(key);
  return v != nullptr ? *v : NAN;
}

// The row's own pct_peak when its label names `ceiling` ("" for DRAM, which labels leave unnamed).
double labelled_share(const result& r, std::string_view ceiling) {
  if (labelled_peak(r.label) != ceiling) return NAN;
  return counter(r, schema::counter("pct_peak").key);
}

}  // namespace

const schema::headline* headline_of(const result& r) noexcept {
  if (r.space().empty()) return nullptr;
  return schema::find_headline(r.family());
}

priced price_row(const result& r, const schema::headline& h, double dram_gbps) {
  if (r.error) return {};
  const std::string_view c = h.ceiling;
  double pct = NAN;
  if (c == "dram") {
    // The harness writes pct_peak only where the row reaches DRAM; a DRAM peak of this GPU
    // (gpus compares GPUs) prices it the same way.
    pct = labelled_share(r, "");
    const auto gb = r.value(schema::counter("gb_per_s").key);
    if (!std::isnan(pct) && gb && dram_gbps > 0) pct = 100 * *gb / dram_gbps;
  } else if (c == "pcie" || c == "pcie_both_directions") {
    pct = labelled_share(r, c);
  } else if (c == "label") {
    pct = counter(r, schema::counter("pct_peak").key);
    const std::string_view named = labelled_peak(r.label);
    if (!std::isnan(pct)) return {pct, named.empty() ? "dram" : std::string(named)};
  } else if (c == "link") {
    const ceiling_share s = share_of_ceiling(r, dram_gbps);
    if (s.ceiling == "link") pct = s.pct;
  } else if (c == "l1" || c == "shared") {
    pct = 100 * counter(r, schema::counter("bytes_per_clk_per_sm").key) / sm_bytes_per_clock;
  } else if (c == "fp32") {
    pct = counter(r, schema::counter("pct_fp32_peak").key);
  }
  if (std::isnan(pct)) return {};
  return {pct, std::string(c)};
}

}  // namespace membench::report
