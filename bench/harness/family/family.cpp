#include "family.hpp"

#include <map>
#include <set>
#include <stdexcept>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "common/levels.hpp"
#include "harness/session/session.hpp"

namespace membench {
namespace {

struct family_entry {
  family_maker make;
  bool opt_in;
  const char* description;
  family_needs needs;
};

// Filled by static registrars before main; read-only afterwards.
std::map<std::string, family_entry>& families() {
  static std::map<std::string, family_entry> f;
  return f;
}

bool in_tier(suite_tier smallest, suite_tier tier) { return static_cast<int>(smallest) <= static_cast<int>(tier); }

std::string_view space_of(std::string_view family) { return family.substr(0, family.find('/')); }

bool selected_family(std::string_view family, bool opt_in, const case_selection& selection) {
  if (opt_in && !selection.include_opt_in) return false;
  return !selection.peers_only || space_of(family) == peer_space;
}

bool selected_case(const bench_case& c, const case_selection& selection) {
  if (!in_tier(c.smallest, selection.tier)) return false;
  const bool host = c.bound == host_bound::yes;
  if (selection.host_link == host_link_mode::skip) return !host;
  if (selection.host_link == host_link_mode::only) return host;
  return true;
}

}  // namespace

family_builder::family_builder(std::string_view family, std::vector<peer_pair> peers)
    : family_(family), peers_(std::move(peers)) {
  const auto slash = family_.find('/');
  if (slash == std::string::npos) throw std::invalid_argument("family name needs <space>/<experiment>: " + family_);
  space_ = family_.substr(0, slash);
  experiment_ = family_.substr(slash + 1);
}

std::string family_builder::name(std::vector<name_param> params) const {
  return bench_name{space_, experiment_, std::move(params)}.str();
}

void family_builder::add(std::vector<name_param> params, suite_tier smallest, std::function<void(bench_context&)> body) {
  add(std::move(params), smallest, std::move(body), space_ == host_link_space ? host_bound::yes : host_bound::no);
}

void family_builder::add(std::vector<name_param> params, suite_tier smallest, std::function<void(bench_context&)> body,
                         host_bound bound) {
  std::string n = name(std::move(params));
  // The level rows are the check tier, whatever tier the family gives them: one list decides.
  if (levels::row_of(n) != nullptr) smallest = suite_tier::check;
  cases_.push_back({std::move(n), smallest, std::move(body), bound});
}

family_registrar::family_registrar(const char* family, family_maker make, const char* description, family_needs needs,
                                   bool opt_in) {
  if (description == nullptr || *description == '\0')
    throw std::logic_error(std::string("family without a description: ") + family);
  if (!families().emplace(family, family_entry{make, opt_in, description, needs}).second)
    throw std::logic_error(std::string("family registered twice: ") + family);
}

const char* to_string(family_needs n) noexcept {
  switch (n) {
    case family_needs::gpu: return "a GPU";
    case family_needs::sm80: return "sm_80";
    case family_needs::sm90: return "sm_90";
    case family_needs::two_gpus: return "two GPUs";
    case family_needs::managed: return "managed";
  }
  return "?";
}

std::vector<family_info> family_list() {
  std::vector<family_info> out;
  for (const auto& [key, f] : families()) out.push_back({key, f.description, f.needs, f.opt_in});
  return out;
}

machine_offers query_machine_offers() {
  machine_offers m;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // the runtime's sticky "no device" is no concern of the next call
    return m;
  }
  m.gpu = true;
  int managed = 0;
  cudaDeviceGetAttribute(&m.compute_major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&m.compute_minor, cudaDevAttrComputeCapabilityMinor, 0);
  cudaDeviceGetAttribute(&managed, cudaDevAttrConcurrentManagedAccess, 0);
  m.managed = managed != 0;
  int peer = 0;
  m.peer = count >= 2 && cudaDeviceCanAccessPeer(&peer, 0, 1) == cudaSuccess && peer != 0;
  return m;
}

bool can_run(family_needs needs, const machine_offers& m, std::string& why) {
  const int cc = 10 * m.compute_major + m.compute_minor;
  why = !m.gpu                                              ? "no GPU"
        : needs == family_needs::sm80 && cc < 80            ? "compute capability below 8.0"
        : needs == family_needs::sm90 && cc < 90            ? "compute capability below 9.0"
        : needs == family_needs::two_gpus && !m.peer        ? "no two GPUs with peer access"
        : needs == family_needs::managed && !m.managed      ? "no concurrent managed access"
                                                            : "";
  return why.empty();
}

std::string format_family_list(const std::vector<family_info>& families, const machine_offers& m) {
  std::string out = "family                   here  needs     what it measures\n";
  for (const family_info& f : families) {
    std::string why;
    const bool here = can_run(f.needs, m, why);
    out += fmt::format("{:<24} {:<5} {:<9} {}{}\n", f.key, here ? "yes" : "no", to_string(f.needs), f.description,
                       here ? "" : fmt::format(" [not here: {}]", why));
  }
  return out;
}

std::vector<bench_case> all_cases(const case_selection& selection) {
  std::vector<bench_case> out;
  for (const auto& [name, f] : families()) {
    if (!selected_family(name, f.opt_in, selection)) continue;
    const bool peer = space_of(name) == peer_space;
    family_builder b(name, peer ? selection.peers : std::vector<peer_pair>{});
    f.make(b);
    for (auto& c : b.cases()) {
      if (selected_case(c, selection)) out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<std::string> case_names(const case_selection& selection) {
  std::vector<std::string> names;
  for (auto& c : all_cases(selection)) names.push_back(std::move(c.name));
  return names;
}

std::vector<std::string> register_all(session& s, const case_selection& selection,
                                      const std::vector<std::string>& only) {
  const std::set<std::string> kept(only.begin(), only.end());
  std::vector<std::string> names;
  for (auto& c : all_cases(selection)) {
    if (kept.count(c.name) == 0) continue;
    auto run = [&s, name = c.name, body = std::move(c.body)](benchmark::State& state) { s.run(state, name, body); };
    benchmark::RegisterBenchmark(c.name.c_str(), run)->UseManualTime()->Unit(benchmark::kMicrosecond);
    names.push_back(std::move(c.name));
  }
  return names;
}

}  // namespace membench
