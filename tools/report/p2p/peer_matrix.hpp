// The peer family's rows as matrices: each row's case (its name without src and dst) and
// its place (source and destination GPU), gathered from one host's files. p2p draws them
// (view_p2p.cpp); here is only what a row is and where it goes, tested without a GPU.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model.hpp"
#include "views/views.hpp"

namespace membench::report {

/// Where a peer row sits: its case and its devices.
struct peer_place {
  std::string case_key;  ///< the name without src and dst: "peer/copy/access:on/dir:push/bytes:64M"
  int src = -1;          ///< -1: the name has no src (all_to_one)
  int dst = -1;          ///< -1: the name has no dst (one_to_all)
};

/// The largest device index a name may give (a host of more GPUs is not built).
inline constexpr int max_peer_device = 1023;

/// The place of the row named `name` (without /manual_time); nullopt for a row of another
/// space or a peer row with neither src nor dst (the older pair rows). throws input_error
/// for a src or dst that is no device index, or one given twice
std::optional<peer_place> peer_place_of(std::string_view name);

/// How a case's rows are laid out.
enum class peer_layout {
  matrix,    ///< src x dst
  into_dst,  ///< one value per destination (all_to_one)
  from_src,  ///< one value per source (one_to_all)
};

/// One case: its rows by (src, dst); an aggregate's missing half is -1.
struct peer_case {
  std::string key;
  peer_layout layout = peer_layout::matrix;
  std::map<std::pair<int, int>, const result*> rows;

  /// The row at (src, dst), null when there is none.
  const result* at(int src, int dst) const;
  /// The row of a table's cell: line `src` (-1: an aggregate's one line) under GPU `gpu`.
  const result* at_cell(int src, int gpu) const;
};

struct peer_device {
  int index = 0;
  std::string uuid;  ///< "" when the context names none
};

/// Every peer row of one host's files.
struct peer_set {
  std::vector<peer_device> devices;  ///< every index a row or a context names, ascending
  std::vector<peer_case> cases;      ///< in the order the files first have them
  std::vector<std::string> notes;    ///< rows left out, and why
  std::vector<const result_file*> files;  ///< the files that hold peer rows

  /// The confidence level of the files' intervals (one for all: collect_peer_rows checks).
  double ci_level() const { return files.front()->ci_level(); }
};

/// A context's peer_gpu_uuids ("0=GPU-aaaa,1=GPU-bbbb") by index; "" names none. throws
/// input_error naming `path` for an entry that is not INDEX=UUID, or an index twice
std::map<int, std::string> parse_peer_uuids(std::string_view text, const std::string& path);

/// The UUID as axes show it: its first group of hex digits ("GPU-1a2b3c4d-..." -> "1a2b3c4d").
std::string short_uuid(std::string_view uuid);

/// The peer rows of the files that `filter` (--filter) keeps, in cases. A name in several files
/// counts once: its measured row over an error or skipped one. throws input_error when no
/// peer row is left, for two measured rows of one name, for a case whose rows disagree
/// on their layout, for files that name one index's GPU differently, and for files whose
/// intervals are at different confidence levels
peer_set collect_peer_rows(const file_refs& files, const std::string& filter);

/// The value a case shows: `asked` (--value), else gb_per_s where a row of the case has it,
/// else ns_per_load (latency), else time; "" when no row of the case has `asked`.
std::string case_value(const peer_case& c, const std::string& asked);

/// The half-width of the interval of a row's median time at `ci_level` in % of the median,
/// the same share of any rate made from it: the row's own interval, else the normal
/// approximation from its noise and samples; NAN for neither, or several repetitions.
double interval_pct(const result& r, double ci_level);

/// What a pair of a case holds.
enum class peer_state {
  measured,  ///< a row with the value
  no_value,  ///< a row without it
  error,     ///< an error row
  skipped,   ///< a row skipped (its message says why)
  missing,   ///< no row for the pair
  diagonal,  ///< src == dst without a row
};
/// The state of the pair whose row is `r` (null: none) for `value`.
peer_state state_of(const result* r, bool diagonal, const std::string& value);
const char* to_string(peer_state s);

}  // namespace membench::report
