// fleet's third stage: each GPU's parts in sum, as the outputs list it, worst first.
#include <algorithm>

#include <fmt/format.h>

#include "fleet/fleet_stages.hpp"

namespace membench::report {

const char* to_string(gpu_verdict v) noexcept {
  switch (v) {
    case gpu_verdict::outlier: return "outlier";
    case gpu_verdict::failing: return "failing";
    case gpu_verdict::undecided: return "undecided";
    case gpu_verdict::within: return "within";
  }
  return "?";
}

gpu_verdict verdict_of(const fleet_test::part_result& p) {
  switch (p.v) {
    case fleet_test::verdict::slow: return gpu_verdict::outlier;
    case fleet_test::verdict::failing: return gpu_verdict::failing;
    case fleet_test::verdict::undecided: return gpu_verdict::undecided;
    case fleet_test::verdict::pass:
    case fleet_test::verdict::not_judged: return gpu_verdict::within;
  }
  return gpu_verdict::undecided;
}

std::string confirm_filter(const std::vector<std::string>& rows) {
  std::string out = "^(";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += '|';
    for (char c : rows[i]) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out + ")/";
}

std::vector<gpu_summary> summarize_gpus(const fleet_state& s) {
  using fleet_test::part;
  std::vector<gpu_summary> out;
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) {
    const fleet& f = s.fleets[fi];
    for (std::size_t g = 0; g < f.results.size(); ++g) {
      const fleet_test::gpu_result& r = f.results[g];
      gpu_summary x{fi, g, verdict_of(r.of(part::gpu)), verdict_of(r.of(part::host)), r.of(part::gpu).why.text,
                    r.of(part::host).why.text, 0};
      for (const fleet_test::finding& k : r.of(part::gpu).findings) x.worst_z = std::max(x.worst_z, k.z);
      if (!f.drift.empty()) {
        const fleet_test::gpu_result& d = f.drift[g];
        x.drift_v = verdict_of(d.of(part::gpu));
        x.host_drift_v = verdict_of(d.of(part::host));
        x.drift_reason = fmt::format("GPU work {}; host work {}", d.of(part::gpu).why.text, d.of(part::host).why.text);
      }
      out.push_back(std::move(x));
    }
  }
  // Worst first: by the GPU part's verdict, then the host part's, then the largest z.
  std::stable_sort(out.begin(), out.end(), [](const gpu_summary& a, const gpu_summary& b) {
    if (a.v != b.v) return a.v < b.v;
    if (a.host_v != b.host_v) return a.host_v < b.host_v;
    return a.worst_z > b.worst_z;
  });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i + 1);
  return out;
}

}  // namespace membench::report
