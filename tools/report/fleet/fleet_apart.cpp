// What sets a fleet's outliers apart: the identity fields (board part, VBIOS, driver, host,
// links, settings) on which no outlier shares a value with a GPU within the fleet, or with
// any GPU of the baseline it is judged against. A slow GPU is a question; a slow board
// revision, driver or host is an answer an operator can act on.
#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/schema.hpp"
#include "fleet/fleet_stages.hpp"

namespace membench::report {
namespace {

using schema::context_key;

// The context keys that say what a GPU is and what it ran on, beyond its fleet's key. Not its
// UUID, serial or bus id (every GPU its own), nor what one run measured.
constexpr std::string_view identity_keys[] = {
    context_key("gpu_board_part").key,       context_key("gpu_vbios").key,
    context_key("nvml_driver_version").key,  context_key("cuda_driver_version").key,
    context_key("cuda_runtime_version").key, context_key("gpu_ecc").key,
    context_key("gpu_persistence_mode").key, context_key("gpu_mig_mode").key,
    context_key("gpu_mem_clock_mhz").key,    context_key("nvml_max_mem_clock_mhz").key,
    context_key("nvml_power_limit_w").key,   context_key("pcie_link").key,
    context_key("host_name").key,            context_key("host_boot_id").key,
    context_key("host_cpu_model").key,       context_key("membench_concurrent_devices").key,
    context_key("membench_host_link").key,   context_key("membench_git_commit").key};

// A context value as an identity: pcie_link's maximum without the link's state at the time
// ("gen5 x16 (nvml maximum; now gen1 x16)": an idle link trains down), nothing for a value
// the file does not know.
std::optional<std::string> identity_value(std::string v) {
  if (const auto paren = v.find(" ("); paren != std::string::npos) v.erase(paren);
  if (v.empty() || v == "?" || v == "-" || v == "unknown") return std::nullopt;
  return v;
}

// The values of `key` over the GPUs' files (a GPU's files may disagree: a host renamed), or
// nothing when a GPU's files have none: a field some GPU lacks proves no split.
std::optional<std::set<std::string>> values_of(const fleet& f, const std::vector<std::size_t>& gpus,
                                               std::string_view key) {
  std::set<std::string> all;
  for (std::size_t g : gpus) {
    std::size_t known = 0;
    for (const result_file* file : f.gpus[g].files) {
      if (auto v = identity_value(file->context_value(std::string(key)))) {
        all.insert(std::move(*v));
        ++known;
      }
    }
    if (known == 0) return std::nullopt;
  }
  return all;
}

// The fields that name one host: a newcomer judged against a baseline is always on another.
bool names_a_host(std::string_view key) {
  return key == context_key("host_name").key || key == context_key("host_boot_id").key;
}

// The identity field `key` as apart, when no outlier shares a value with `within`'s.
std::optional<apart_field> apart_on(std::string_view key, const std::set<std::string>& outlier_values,
                                    const std::set<std::string>& within_values) {
  const bool shared = std::any_of(outlier_values.begin(), outlier_values.end(),
                                  [&](const std::string& v) { return within_values.count(v) > 0; });
  if (shared) return std::nullopt;
  return apart_field{std::string(key), {outlier_values.begin(), outlier_values.end()},
                     {within_values.begin(), within_values.end()}};
}

// The values of `key` the outliers are compared with: the GPUs' within the fleet and, against
// a baseline, its GPUs' too; nothing where they prove no split (a GPU within lacks the field,
// or the baseline does).
std::optional<std::set<std::string>> others_values(const fleet& f, const std::vector<std::size_t>& within,
                                                   std::string_view key, bool against_baseline) {
  if (!against_baseline) return within.empty() ? std::nullopt : values_of(f, within, key);
  const auto kept = std::find_if(f.baseline_identity.begin(), f.baseline_identity.end(),
                                 [&](const auto& field) { return field.first == key; });
  if (kept == f.baseline_identity.end()) return std::nullopt;
  std::set<std::string> all(kept->second.begin(), kept->second.end());
  for (std::size_t g : within) {
    if (const auto v = values_of(f, {g}, key)) all.insert(v->begin(), v->end());
  }
  return all;
}

// The GPUs of fleet `fi` with verdict `v`.
std::vector<std::size_t> gpus_with(const std::vector<gpu_summary>& gpus, std::size_t fi, gpu_verdict v) {
  std::vector<std::size_t> out;
  for (const gpu_summary& g : gpus) {
    if (g.fleet == fi && g.v == v) out.push_back(g.gpu);
  }
  return out;
}

}  // namespace

fleet_identity_values fleet_identity(const fleet& f) {
  std::vector<std::size_t> all(f.gpus.size());
  for (std::size_t g = 0; g < all.size(); ++g) all[g] = g;
  fleet_identity_values out;
  for (std::string_view key : identity_keys) {
    if (!baseline_identity_key(key)) continue;
    if (const auto values = values_of(f, all, key); values && !values->empty())
      out.emplace_back(std::string(key), std::vector<std::string>(values->begin(), values->end()));
  }
  return out;
}

bool baseline_identity_key(std::string_view key) {
  return !names_a_host(key) && std::find(std::begin(identity_keys), std::end(identity_keys), key) != std::end(identity_keys);
}

std::vector<apart_field> outliers_apart(const fleet_state& s, const std::vector<gpu_summary>& gpus, std::size_t fi) {
  const fleet& f = s.fleets[fi];
  const std::vector<std::size_t> outliers = gpus_with(gpus, fi, gpu_verdict::outlier);
  const std::vector<std::size_t> within = gpus_with(gpus, fi, gpu_verdict::within);
  std::vector<apart_field> out;
  if (outliers.empty()) return out;
  for (std::string_view key : identity_keys) {
    const auto outlier_values = values_of(f, outliers, key);
    const auto others = others_values(f, within, key, !s.baseline_path.empty());
    if (!outlier_values || !others) continue;
    if (auto a = apart_on(key, *outlier_values, *others)) out.push_back(std::move(*a));
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
