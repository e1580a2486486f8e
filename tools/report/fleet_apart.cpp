// What sets a fleet's outliers apart: the identity fields (board part, VBIOS, driver, host,
// links, settings) on which no outlier shares a value with a GPU within the fleet. A slow
// GPU is a question; a slow board revision, driver or host is an answer an operator can act on.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fleet_stages.hpp"

namespace membench::report {
namespace {

// The context keys that say what a GPU is and what it ran on, beyond its fleet's key. Not its
// UUID, serial or bus id (every GPU its own), nor what one run measured.
constexpr std::string_view identity_keys[] = {
    "gpu_board_part",       "gpu_vbios",          "nvml_driver_version",        "cuda_driver_version",
    "cuda_runtime_version", "gpu_ecc",            "gpu_persistence_mode",       "gpu_mig_mode",
    "gpu_mem_clock_mhz",    "nvml_max_mem_clock_mhz", "nvml_power_limit_w",     "pcie_link",
    "host_name",            "membench_concurrent_devices", "membench_git_commit"};

bool known(const std::string& v) { return !v.empty() && v != "?" && v != "-"; }

// A GPU's values of `key` over its files (a GPU's files may disagree, a host being renamed).
std::set<std::string> values_of(const fleet_gpu& g, std::string_view key) {
  std::set<std::string> out;
  for (const result_file* f : g.files) {
    const std::string v = f->context_value(std::string(key));
    if (known(v)) out.insert(v);
  }
  return out;
}

}  // namespace

std::vector<apart_field> outliers_apart(const fleet_state& s, const std::vector<gpu_summary>& gpus, std::size_t fi) {
  const fleet& f = s.fleets[fi];
  std::vector<std::size_t> outliers, within;
  for (const gpu_summary& g : gpus) {
    if (g.fleet != fi) continue;
    if (g.v == gpu_verdict::outlier) outliers.push_back(g.gpu);
    if (g.v == gpu_verdict::within) within.push_back(g.gpu);
  }
  std::vector<apart_field> out;
  if (outliers.empty() || within.empty()) return out;
  for (std::string_view key : identity_keys) {
    apart_field a{std::string(key), {}, {}};
    bool every = true;  // a GPU without the key leaves the split unproven
    auto gather = [&](const std::vector<std::size_t>& which, std::set<std::string>& into) {
      for (std::size_t g : which) {
        const std::set<std::string> v = values_of(f.gpus[g], key);
        every = every && !v.empty();
        into.insert(v.begin(), v.end());
      }
    };
    std::set<std::string> mine, theirs;
    gather(outliers, mine);
    gather(within, theirs);
    const bool disjoint = std::none_of(mine.begin(), mine.end(), [&](const std::string& v) { return theirs.count(v) > 0; });
    if (!every || !disjoint) continue;
    a.outliers.assign(mine.begin(), mine.end());
    a.within.assign(theirs.begin(), theirs.end());
    out.push_back(std::move(a));
  }
  return out;
}

std::string apart_text(const std::vector<apart_field>& fields) {
  std::string out;
  for (const apart_field& a : fields) {
    out += fmt::format("{}{} ({} against {})", out.empty() ? "" : "; ", a.key, fmt::join(a.outliers, ", "),
                       fmt::join(a.within, ", "));
  }
  return out;
}

}  // namespace membench::report
