// Everything a run is configured with, as plain values: parsed once in main (cli.hpp),
// handed to the session, read from there. A leaf header: it includes nothing of membench's.
// The defaults here are the ones `--help` and the README show (schema_tables.hpp); a unit
// test keeps the two equal.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace membench {

/// How a row's samples are timed; every row names its method in its label.
enum class timing_method {
  blocking,  ///< stream held by a blocking kernel while the launch is queued; event-pair cost subtracted
  events,    ///< events around a plain launch: includes host launch latency
  single,    ///< one warm-up, one launch, no stopping rule: for ncu and nsys
};
const char* to_string(timing_method m) noexcept;
std::optional<timing_method> parse_timing_method(std::string_view s) noexcept;

/// Suite tiers select rows of one grid; a row's name is the same in every tier it is in.
enum class suite_tier {
  check,     ///< the node check: every level's rows (common/levels.hpp), in every tier
  quick,     ///< every family's headline rows: what CI gates on
  standard,  ///< "default": the rows that show each effect
  full,      ///< the whole grid
};
const char* to_string(suite_tier t) noexcept;  ///< "check", "quick", "default", "full"
std::optional<suite_tier> parse_suite_tier(std::string_view s) noexcept;

/// When a row has enough samples. The statistic is the half-width of the confidence
/// interval of the median relative to the median: robust to outliers, and it shrinks as
/// samples accumulate (stddev/mean does not).
struct stopping_rule {
  int min_samples = 10;
  double max_ci_pct = 0.5;       ///< kernel rows
  double max_ci_host_pct = 1.0;  ///< rows whose samples include host work
  double ci_level_pct = 95;
  double max_time_s = 0.5;       ///< wall-clock budget of a kernel row's sampling
  double max_time_host_s = 2.0;  ///< the same for host rows
  double min_time_s = 0;         ///< least total sampled time
  double row_limit_s = 60;       ///< a row short of min_samples samples on until this
};
/// Null when usable, else what is wrong (naming the option).
std::optional<std::string> validate(const stopping_rule& rule);

/// Samples are kept only at the clock the run started with.
struct clock_policy {
  double threshold_pct = 95;  ///< of the reference clock measured at start-up
  double max_wait_s = 1.0;    ///< most a row waits, in total, for clocks to recover
};

enum class progress_mode { automatic, always, never };

/// Where the host-bound rows run (family.hpp, host_bound: the host space's copies, streams,
/// zero-copy, managed and symbol copies, the kernels timed with their copies, the driver's
/// allocations). Under `--devices` the GPUs of a host share its memory, root ports and
/// driver, and such a row beside another GPU's measures its neighbour too: `alone` runs them
/// after the other rows, one GPU at a time, into each GPU's file; `together` with the rest;
/// `skip` leaves them out and `only` runs nothing else (what the launcher asks of its
/// processes).
enum class host_link_mode { alone, together, skip, only };
const char* to_string(host_link_mode m) noexcept;
std::optional<host_link_mode> parse_host_link_mode(std::string_view s) noexcept;
std::optional<progress_mode> parse_progress_mode(std::string_view s) noexcept;

struct run_options {
  int device = 0;
  std::string devices;  ///< --devices: empty, `all` or a list (the launcher parses it)
  std::string peers = "all";  ///< --peers: the pairs of GPUs the peer rows measure (peers.hpp parses it)
  bool peers_only = false;    ///< --peers-only: the peer rows and nothing else
  host_link_mode host_link = host_link_mode::alone;  ///< --host-link
  bool list_devices = false;
  bool list_families = false;  ///< --list-families: the one list of families, and whether each runs here
  suite_tier suite = suite_tier::standard;
  timing_method method = timing_method::blocking;
  stopping_rule rule;
  clock_policy clocks;
  double batch_below_us = 100;     ///< 0: no batch measurement
  int keep_samples = 0;            ///< samples per row written into the JSON
  progress_mode progress = progress_mode::automatic;
  bool fault_demo = false;
  std::vector<std::string> metrics;  ///< CUPTI metrics profiled after each kernel row; empty: none
  double blocking_timeout_s = 0.5;
  bool version = false;  ///< --version: print the versions and exit, before any CUDA call
};

}  // namespace membench
