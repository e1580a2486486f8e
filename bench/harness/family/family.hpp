// Registration without touching the GPU. A family file says only what differs: its name
// (once, in its registrar), its cases with their name keys and the suite tier each is in,
// and how to run one. main registers the families sorted by name, cases in family order.
// The peer families (space `peer`) make their cases for the pairs of GPUs `--peers` chose.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include "common/naming.hpp"
#include "harness/options/options.hpp"
#include "harness/options/peers.hpp"
#include "harness/session/context.hpp"

namespace membench {

class session;

/// Whether a case's time is its host's as much as its GPU's: its data crosses the host link
/// (the host space; a kernel timed with its copies), or it calls into the driver's allocator,
/// which every GPU of a host goes through. Under `--devices` a host-bound case beside another
/// GPU's measures its neighbour too, so `--host-link=alone` runs them one GPU at a time
/// (options.hpp, host_link_mode).
enum class host_bound : bool { no, yes };

struct bench_case {
  std::string name;
  suite_tier smallest = suite_tier::full;
  std::function<void(bench_context&)> body;
  host_bound bound = host_bound::no;
};

/// The space of the families that measure between GPUs: they alone use the peer pairs.
inline constexpr std::string_view peer_space = "peer";

/// The space of the families whose data crosses the host link: all their cases are host-bound.
inline constexpr std::string_view host_link_space = "host";

/// What decides which cases exist: the tier, the opt-in families, and the ordered pairs of
/// GPUs the peer families make cases for; `peers_only` leaves every other family out;
/// `host_link` skip leaves the host-bound cases out, only every other case.
struct case_selection {
  suite_tier tier = suite_tier::standard;
  bool include_opt_in = false;
  std::vector<peer_pair> peers;
  bool peers_only = false;
  host_link_mode host_link = host_link_mode::together;
};

/// What a family's maker fills: cases named `<family>/<key>:<value>/...`.
class family_builder {
 public:
  explicit family_builder(std::string_view family, std::vector<peer_pair> peers = {});  ///< "global/read_offset"
  /// Adds a case in `smallest` and every larger tier: quick rows are in every tier but the
  /// check, standard rows in the default and full tiers, full rows only in the full tier; a
  /// level row (common/levels.hpp) is in the check tier and so in every tier. Host-bound when
  /// the family is in the host space. throws std::invalid_argument (a bad name)
  void add(std::vector<name_param> params, suite_tier smallest, std::function<void(bench_context&)> body);
  /// add, host-bound as `bound` says whatever the space.
  void add(std::vector<name_param> params, suite_tier smallest, std::function<void(bench_context&)> body,
           host_bound bound);
  /// The name a case with `params` gets (for references to another row of the family).
  std::string name(std::vector<name_param> params) const;
  const std::string& family() const noexcept { return family_; }
  /// The ordered pairs of GPUs a peer family makes cases for (sorted; empty: none).
  const std::vector<peer_pair>& peers() const noexcept { return peers_; }
  std::vector<bench_case>& cases() noexcept { return cases_; }

 private:
  std::string family_, space_, experiment_;
  std::vector<peer_pair> peers_;
  std::vector<bench_case> cases_;
};

using family_maker = void (*)(family_builder&);

/// What a family needs of the machine beyond a CUDA GPU (membench --list-families says
/// whether each can run here).
enum class family_needs : unsigned char {
  gpu,       ///< any GPU membench runs on
  sm80,      ///< compute capability 8.0 or newer (L2 persistence)
  sm90,      ///< compute capability 9.0 or newer (thread-block clusters, bulk copies)
  two_gpus,  ///< two GPUs with peer access (the peer families)
  managed,   ///< concurrent managed access (pages that migrate on a kernel's fault)
};
const char* to_string(family_needs n) noexcept;  ///< "sm_90", "two GPUs", ...

/// The one list of families: each registrar's key, what it measures and what it needs.
/// `opt_in` families (the fault demonstration) are registered only when asked for, so
/// the default list and every filter over it stay the same.
struct family_registrar {
  family_registrar(const char* family, family_maker make, const char* description, family_needs needs,
                   bool opt_in = false);
};

struct family_info {
  std::string key;          ///< "global/read_offset"
  std::string description;  ///< what it measures, a line
  family_needs needs = family_needs::gpu;
  bool opt_in = false;
};
/// Every registered family, by key.
std::vector<family_info> family_list();

/// What this machine offers the families: none of it without a GPU.
struct machine_offers {
  bool gpu = false;
  int compute_major = 0, compute_minor = 0;  ///< of device 0
  bool peer = false;                         ///< devices 0 and 1 can access each other
  bool managed = false;                      ///< concurrent managed access on device 0
};
/// What the visible GPUs offer: nothing, never an error, without one.
machine_offers query_machine_offers();
/// Whether a family with `needs` runs on `m`; why not in `why`.
bool can_run(family_needs needs, const machine_offers& m, std::string& why);
/// `membench --list-families`: a line per family, its key, whether it runs here, what it needs
/// and what it measures. Plain host logic.
std::string format_family_list(const std::vector<family_info>& families, const machine_offers& m);

/// Every case `selection` selects, in registration order (no GPU, no registration).
std::vector<bench_case> all_cases(const case_selection& selection);

/// The names of those cases.
std::vector<std::string> case_names(const case_selection& selection);

/// Registers the cases `selection` selects and `only` names with Google Benchmark, each
/// running in `s`'s error boundary; returns their names in order.
std::vector<std::string> register_all(session& s, const case_selection& selection,
                                      const std::vector<std::string>& only);

}  // namespace membench
