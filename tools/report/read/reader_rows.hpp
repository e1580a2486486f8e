// The JSON reader's rows: what each member of a benchmark row means to the reader, a row's
// members while it is read, the checks on a complete row, and the folding of one name's
// rows into one result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model.hpp"

namespace membench::report {

/// The longest time an input may give, in microseconds (about 11.6 days): beyond it a
/// value is a corrupt file, and sums and ratios of such values overflow to inf.
inline constexpr double max_time_us = 1e12;

/// Whether `us` is a time a row may give: finite, not negative (above 0 unless `zero_ok`)
/// and at most max_time_us.
inline bool valid_time_us(double us, bool zero_ok) { return (zero_ok ? us >= 0 : us > 0) && us <= max_time_us; }

// Which member a key names.
enum class field : std::uint8_t {
  name, run_name, run_type, aggregate_name, aggregate_unit, time_unit, error_message, label,
  real_time, repetition_index, repetitions, error_occurred, samples_us, batch_samples_us,
  skipped, skip_message,  // Google Benchmark 1.8's SkipWithMessage: a row not run, times 0
  ignored,  // Google Benchmark's own numbers that no view reads
  counter,  // every other member: a counter when it is a number
};

// The counters a run's evidence is read from.
enum class evidence_slot : std::uint8_t {
  none, ci_low, ci_high, noise, samples, clock, converged, fastest,
  batch_us, batch_ci_low, batch_ci_high, batch_samples, batch_noise, batch_clock, batch_launches,
};

// What the reader does with a key, decided once per key and position and cached: rows
// repeat their keys in the same order.
struct key_plan {
  field kind = field::counter;
  evidence_slot slot = evidence_slot::none;
  std::string_view counter;   // interned, for counters
  bool keep_counter = false;  // a counter the view asked for
  bool number_only = false;   // membench's own counter (the schema's) or one the view names: text there is refused
};

class key_cache {
 public:
  explicit key_cache(const read_options& what) : what_(what) {}
  /// The plan of the row's `position`-th key; `fresh` when it differs from the last row's.
  const key_plan& at(std::size_t position, std::string_view key, bool& fresh);
  /// Whether the last row's `position`-th key is `key`.
  bool same(std::size_t position, std::string_view key) const;
  /// At a row's end, with its member count: a key the row gives twice, if any.
  std::optional<std::string> repeated(std::size_t members);

 private:
  const read_options& what_;
  std::vector<std::pair<std::string, key_plan>> slots_;
  bool changed_ = false;
  std::size_t checked_ = 0;  // members of the last row found without repeats
};

// One benchmark row as read, before the rows of one name are folded: a result of one run
// (its name split on the reading thread) and what places it among its name's rows.
struct raw_row {
  result named;
  std::string_view aggregate;  // aggregate_name of an aggregate row (interned)
  std::int64_t repetition = 0, repetitions = 0;
  std::uint64_t hash = 0;  // of the name
  bool failed = false;
  bool complexity = false;  // Google Benchmark's BigO or RMS row: a fit over the family's sizes, no time
};

// The members of one row object while it is being read.
struct row_fields {
  std::optional<std::string> name, run_name, run_type, aggregate_name, aggregate_unit, time_unit, error_message, label;
  std::optional<std::string> skip_message;
  bool bad_real_time = false, bad_error_occurred = false, bad_repetition_index = false, bad_skipped = false;
  bool bad_samples = false;  // samples_us or batch_samples_us that is not an array
  std::string_view bad_evidence;  // a counter read (converged, ci_low_us, a shown gb_per_s) that is no number
  std::optional<double> real_time;
  std::optional<bool> error_occurred, skipped;
  std::optional<std::int64_t> repetition_index;
  std::int64_t repetitions = 0;
  std::vector<counter_set::value_type> counters;
  run ev;
  void clear() { *this = row_fields{}; }

  // One member's value, by what its key's plan says the member is. The first of equal
  // keys wins (a row giving one twice is refused anyway).
  /// `integral`: the value is an integer that fits int64 (`integer`).
  void number(const key_plan& k, double v, bool integral, std::int64_t integer);
  void boolean(const key_plan& k, bool v);
  void text(const key_plan& k, std::string_view v);
  /// A value of a type the member cannot have (null, an object, ...).
  void wrong(const key_plan& k);

 private:
  void evidence(evidence_slot slot, double v);
};

/// Checks a complete row; returns the problem, or "" with `out` filled. `keep_run`: the
/// row's evidence becomes a run of the result.
std::string check_row(row_fields& f, raw_row& out, bool keep_run);

/// The rows of one name into one result, in first-seen order; rows come in parts (one per
/// reading thread), in file order, each freed once folded. throws input_error (a duplicate
/// row, a name with neither iteration rows nor a mean or median)
/// (`complexity`: the BigO and RMS rows left out, counted.)
std::vector<result> fold_rows(std::vector<std::vector<raw_row>>& parts, const std::string& path,
                              std::size_t& complexity);

}  // namespace membench::report
