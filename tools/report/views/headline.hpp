// Each family's headline number and the one ceiling it may be priced against, from the
// schema's headline table (common/schema_tables.hpp): profile and gpus price through here,
// so that no row is shown as a share of a ceiling it does not reach.
#pragma once

#include <cmath>
#include <string>

#include "common/schema.hpp"
#include "core/model.hpp"

namespace membench::report {

/// The schema's headline of `r`'s family; null for a family it does not list (other programs).
const schema::headline* headline_of(const result& r) noexcept;

/// A row's share of its ceiling: `pct` NAN where it is not priced.
struct priced {
  double pct = NAN;
  std::string ceiling;  ///< the ceiling's key (`dram`, `pcie`, `link`, `l1`, ...); "" when not priced
};

/// The share of its family's ceiling `r` reaches, and only that one: a row whose label names
/// another ceiling (`peak:pcie` in a DRAM family), a row the harness did not price (no
/// `pct_peak`: a working set in the L2), and every row of a family whose ceiling is `none`
/// stay unpriced. `dram_gbps` is the GPU's theoretical DRAM peak (0: unknown).
priced price_row(const result& r, const schema::headline& h, double dram_gbps);

/// Bytes per clock per SM that the L1 and shared memory each serve at most on every
/// architecture membench builds for (32 banks x 4 bytes; one 128-byte L1 wavefront).
inline constexpr double sm_bytes_per_clock = 128;

}  // namespace membench::report
