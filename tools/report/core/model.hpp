// Google Benchmark JSON as membench-report reads it: files, their context, and one
// result per benchmark name with its runs (repetitions). Every malformed input becomes an
// input_error naming the file.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace membench::report {

/// Unusable input: the message names the file and what is wrong (exit code 2).
class input_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a view reads of each row. The reader keeps only that, and does not parse the
/// numbers no view asked for: 100 000 rows then fit in less memory than their file.
struct read_options {
  bool all_counters = true;           ///< every counter; otherwise only `counters`
  std::vector<std::string> counters;  ///< the counters a view shows, when !all_counters
  bool evidence = true;               ///< each run's interval, noise, clock, state and samples_us
};

/// A result's counters, sorted by name: cheap to build for 100 000 rows, binary-searched.
/// The names are kept once per list of names (rows repeat theirs), the values per result.
class counter_set {
 public:
  using value_type = std::pair<std::string_view, double>;  ///< names interned for the process
  counter_set() = default;
  explicit counter_set(std::vector<value_type> v);  ///< sorts; the first of equal names wins
  const double* find(std::string_view name) const noexcept;
  double at(std::string_view name) const;  ///< throws std::out_of_range
  bool empty() const noexcept { return values_.empty(); }
  std::size_t size() const noexcept { return values_.size(); }

  /// Yields each counter as a value_type (a value, not a reference).
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = counter_set::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    iterator(const counter_set* s, std::size_t i) : s_(s), i_(i) {}
    value_type operator*() const { return {(*s_->names_)[i_], s_->values_[i_]}; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const counter_set* s_;
    std::size_t i_;
  };
  iterator begin() const noexcept { return {this, 0}; }
  iterator end() const noexcept { return {this, values_.size()}; }

 private:
  const std::vector<std::string_view>* names_ = nullptr;  ///< shared, for the process; null when empty
  std::vector<double> values_;
};

/// One run of a benchmark (a repetition row of one file) with what the regression test
/// weighs; NAN where the row does not say (plain Google Benchmark rows say none of it).
struct run {
  double time_us = 0;                        ///< the row's real_time: membench's median sample
  double ci_low_us = NAN, ci_high_us = NAN;  ///< membench's confidence interval of that median
  double noise_pct = NAN, sample_count = NAN;  ///< older rows without an interval: spread and count
  double sm_clock_mhz = NAN;                 ///< median SM clock of the kept samples
  double fastest_us = NAN;                   ///< the fastest kept sample (t_min_us)
  bool converged = true;                     ///< false: `converged` 0 or an `unconverged:` label
  std::string_view throttle;                 ///< the label's `throttle:` reasons (interned), "" when none
  /// What a sample times (the label's `work:` token; older rows: from timing:/fallback:).
  enum class work_kind : unsigned char { kernel, copy, host } work = work_kind::kernel;
  std::vector<double> samples_us;            ///< `--keep-samples`: every k-th sample, in time order
  bool at_timer_floor = false;               ///< the label's `floor:timer`: the samples do not resolve the work
  /// Launches each sample times: 1, or for a batch figure its launches per batch (the
  /// timer's step per launch is the step over these).
  double launches = 1;
  /// Short rows' batch figure (back-to-back launches): the per-launch median, its interval
  /// (the file's level), batches, noise, clock, launches per batch and kept batches; NAN
  /// (empty) where the row does not say.
  struct batch_figure {
    double us = NAN, ci_low_us = NAN, ci_high_us = NAN, samples = NAN, noise_pct = NAN, sm_clock_mhz = NAN,
           launches = NAN;
    std::vector<double> samples_us;
  } batch;
};

/// One benchmark of one file, its repetitions folded.
struct result {
  std::string name;                  ///< the run name without Google Benchmark's /manual_time
  std::optional<std::string> error;  ///< error row: its message
  bool skipped = false;              ///< error message starts with "skipped:"
  double time_us = 0;                ///< median over the runs (or the aggregate)
  counter_set counters;              ///< per counter, median over the runs
  std::string_view label;            ///< the first run's label (interned)
  std::vector<run> runs;             ///< one per repetition (empty: aggregates only, or read without evidence)
  double rep_cv = -1;                ///< aggregates only: Google Benchmark's cv of the repetitions, -1 unknown
  std::int64_t rep_count = 0;        ///< aggregates only: how many repetitions they fold

  /// Sets `name` and splits it into space, experiment and parameters (any Google
  /// Benchmark name: see membench::parse_any_name).
  void set_name(std::string n);
  std::string_view space() const noexcept { return part(space_); }            ///< "global"; "" for other programs
  std::string_view experiment() const noexcept { return part(experiment_); }  ///< "read_offset", "BM_copy"
  std::size_t param_count() const noexcept { return params_.size(); }
  std::string_view param_key(std::size_t i) const noexcept;
  std::string_view param_value(std::size_t i) const noexcept { return part(params_[i].value); }
  std::string_view param(std::string_view key) const noexcept;  ///< "" when absent
  std::string family() const;      ///< "global/read_offset"; the experiment alone without a space
  std::string param_text() const;  ///< "type:f32 offset:4", or the name when it has no parameters
  std::optional<double> value(std::string_view what) const;    ///< "time" or a counter

 private:
  struct span {
    std::uint32_t offset = 0, length = 0;
  };
  struct short_span {
    std::uint16_t offset = 0, length = 0;
  };
  struct param_span {
    short_span key;  ///< offset 0xffff: positional, `arg<length>`
    short_span value;
  };
  std::string_view part(span s) const noexcept { return std::string_view(name).substr(s.offset, s.length); }
  std::string_view part(short_span s) const noexcept { return std::string_view(name).substr(s.offset, s.length); }
  span space_, experiment_;
  std::vector<param_span> params_;  ///< offsets into `name`: a result copies and moves safely, 8 bytes a key
};

struct result_file {
  std::string path;
  std::map<std::string, std::string> context;  ///< strings as written; other values as minified JSON
  std::vector<result> results;                 ///< in file order
  std::vector<std::string_view> counter_names;  ///< every counter any row has, read or not (sorted, interned)
  std::size_t complexity_rows = 0;  ///< Google Benchmark's BigO and RMS rows, left out (no time of one benchmark)

  std::string build() const;  ///< membench_cache_mode, or "unknown"
  std::string gpu() const;    ///< gpu_name, or "unknown"
  double peak_gbps() const;   ///< gpu_peak_dram_gbps, 0 if unknown
  double ci_level() const;    ///< membench_ci_level_pct as a fraction; 0.95 when not written
  double reference_clock_mhz() const;  ///< membench_reference_sm_clock_mhz, NAN when not written
  double timer_resolution_us() const;  ///< membench_timer_resolution_us, NAN when not written
  std::string context_value(const std::string& key) const;  ///< "?" when absent
  /// What tells one run from another: its rows' times (never its path, nor with eight timed
  /// rows or more its GPU, host or date, which a copy can have edited; below that its host's
  /// boot and its date too). Two files alike in it are one run given twice.
  std::string run_identity() const;
  const result* find(std::string_view name) const;
  void build_index();  ///< after `results` changed; find() is linear without it

 private:
  std::vector<std::pair<std::uint32_t, std::uint32_t>> index_;  ///< (hash's high bits, position + 1; 0 empty) by hash
  std::size_t indexed_ = 0;                                      ///< the results index_ was built for
};

/// The files a view reads, by address: those of a vector, of a braced list (for the call
/// it is an argument of) or of a session (read once for all the steps of `views`).
class file_refs {
 public:
  file_refs(const std::vector<result_file>& files);     // NOLINT: implicit, as the vector it stands for
  file_refs(std::initializer_list<result_file> files);  // NOLINT: implicit, as the vector it stands for
  explicit file_refs(std::vector<const result_file*> files) : p_(std::move(files)) {}

  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = result_file;
    using difference_type = std::ptrdiff_t;
    using pointer = const result_file*;
    using reference = const result_file&;
    explicit iterator(std::vector<const result_file*>::const_iterator at) : at_(at) {}
    reference operator*() const { return **at_; }
    pointer operator->() const { return *at_; }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) { return iterator(at_++); }
    bool operator==(const iterator& o) const { return at_ == o.at_; }
    bool operator!=(const iterator& o) const { return at_ != o.at_; }

   private:
    std::vector<const result_file*>::const_iterator at_;
  };
  iterator begin() const { return iterator(p_.begin()); }
  iterator end() const { return iterator(p_.end()); }
  std::size_t size() const noexcept { return p_.size(); }
  bool empty() const noexcept { return p_.empty(); }
  const result_file& operator[](std::size_t i) const { return *p_[i]; }
  const std::vector<const result_file*>& pointers() const noexcept { return p_; }

 private:
  std::vector<const result_file*> p_;
};

/// Parses Google Benchmark JSON text; `path` names it in errors. throws input_error
result_file parse_results(std::string_view text, const std::string& path, const read_options& what = {});
/// Reads and parses a file. throws input_error
result_file load_results(const std::string& path, const read_options& what = {});

/// Throws input_error naming `path` when `context` holds a `membench_format_version` that is
/// not MAJOR.MINOR or whose major version is newer than this reader's (common/version.hpp).
/// Absent: a file written before the key existed, read as always.
void check_format_version(const std::map<std::string, std::string>& context, const std::string& path);
/// The context numbers a verdict is read at: the intervals' level (50 to 100 %) and the timer's
/// step (above 0, at most a second), when given, must be such numbers; one that is not would be
/// replaced by a default unsaid. throws input_error naming the file and the key
void check_context_numbers(const std::map<std::string, std::string>& context, const std::string& path);
/// check_format_version, then check_context_numbers: what a file's context must pass to be read.
void check_context(const std::map<std::string, std::string>& context, const std::string& path);

/// Strict weak order for names and parameter values: numbers and sizes (16K < 4M < 1G)
/// by value, then text.
bool value_less(std::string_view a, std::string_view b);
/// The numeric value of a parameter ("16K" -> 16384, "8" -> 8), or nullopt.
std::optional<double> numeric_value(std::string_view v);
/// Orders results by space, experiment, then parameters in their order, numerically.
bool result_less(const result& a, const result& b);

/// One copy of `name` for the whole process (counter and key names repeat in every row).
std::string_view intern(std::string_view name);

}  // namespace membench::report
