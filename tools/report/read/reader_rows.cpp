// A benchmark row's members as the reader plans them, and the checks on a complete row.
#include "read/reader_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

#include "common/naming.hpp"
#include "common/schema.hpp"

namespace membench::report {
namespace {

field classify(std::string_view key) {
  static const std::unordered_map<std::string_view, field> fields{
      {"name", field::name},
      {"run_name", field::run_name},
      {"run_type", field::run_type},
      {"aggregate_name", field::aggregate_name},
      {"aggregate_unit", field::aggregate_unit},
      {"time_unit", field::time_unit},
      {"error_message", field::error_message},
      {"label", field::label},
      {"real_time", field::real_time},
      {"repetition_index", field::repetition_index},
      {"repetitions", field::repetitions},
      {"error_occurred", field::error_occurred},
      {"skipped", field::skipped},
      {"skip_message", field::skip_message},
      {"samples_us", field::samples_us},
      {"batch_samples_us", field::batch_samples_us},
      {"family_index", field::ignored},
      {"per_family_instance_index", field::ignored},
      {"threads", field::ignored},
      {"iterations", field::ignored},
      {"cpu_time", field::ignored},
  };
  const auto it = fields.find(key);
  return it == fields.end() ? field::counter : it->second;
}

evidence_slot evidence_of(std::string_view key) {
  if (key == schema::counter("ci_low_us").key) return evidence_slot::ci_low;
  if (key == schema::counter("ci_high_us").key) return evidence_slot::ci_high;
  if (key == schema::counter("noise_pct").key) return evidence_slot::noise;
  if (key == schema::counter("samples").key) return evidence_slot::samples;
  if (key == schema::counter("sm_clock_mhz").key) return evidence_slot::clock;
  if (key == schema::counter("converged").key) return evidence_slot::converged;
  if (key == schema::counter("t_min_us").key) return evidence_slot::fastest;
  if (key == schema::counter("batch_us").key) return evidence_slot::batch_us;
  if (key == schema::counter("batch_ci_low_us").key) return evidence_slot::batch_ci_low;
  if (key == schema::counter("batch_ci_high_us").key) return evidence_slot::batch_ci_high;
  if (key == schema::counter("batch_samples").key) return evidence_slot::batch_samples;
  if (key == schema::counter("batch_noise_pct").key) return evidence_slot::batch_noise;
  if (key == schema::counter("batch_sm_clock_mhz").key) return evidence_slot::batch_clock;
  if (key == schema::counter("batch_launches").key) return evidence_slot::batch_launches;
  return evidence_slot::none;
}

key_plan plan_key(std::string_view key, const read_options& what) {
  key_plan k;
  k.kind = classify(key);
  if (k.kind != field::counter) return k;
  k.counter = intern(key);
  k.keep_counter = what.all_counters ||
                   std::find(what.counters.begin(), what.counters.end(), key) != what.counters.end();
  // Any other member may hold what it likes (an "extra" array); these are numbers or absent.
  k.number_only = schema::find_counter(key) != nullptr || (!what.all_counters && k.keep_counter);
  if (what.evidence) k.slot = evidence_of(key);
  return k;
}

// Equal text, compared inline: keys are short and compared once a member.
bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  std::size_t i = 0;
  for (; i + 8 <= a.size(); i += 8) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return false;
  }
  for (; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

double unit_to_us(std::string_view unit) {
  if (unit == "ns") return 1e-3;
  if (unit == "us") return 1.0;
  if (unit == "ms") return 1e3;
  if (unit == "s") return 1e6;
  return NAN;
}

// The label's tokens that weigh on a verdict.
void read_label_state(std::string_view label, run& ev) {
  static const std::string throttle = fmt::format("{}:", schema::label("throttle").key);
  static const std::string unconverged = fmt::format("{}:", schema::label("unconverged").key);
  static const std::string work = fmt::format("{}:", schema::label("work").key);
  static const std::string floor = fmt::format("{}:timer", schema::label("floor").key);
  bool work_given = false;
  while (!label.empty()) {
    const auto space = label.find(' ');
    const std::string_view token = label.substr(0, space);
    if (token.substr(0, throttle.size()) == throttle) ev.throttle = intern(token.substr(throttle.size()));
    if (token.substr(0, unconverged.size()) == unconverged) ev.converged = false;
    if (token == floor) ev.at_timer_floor = true;
    if (token.substr(0, work.size()) == work) {
      const std::string_view w = token.substr(work.size());
      ev.work = w == "host" ? run::work_kind::host : w == "copy" ? run::work_kind::copy : run::work_kind::kernel;
      work_given = true;
    }
    // Rows from before the work token: host-clock and host-blocking rows are host work.
    if (!work_given && (token == "timing:host_clock" || token == "fallback:launch_blocks_host"))
      ev.work = run::work_kind::host;
    if (!work_given && token == "fallback:copy_engine" && ev.work == run::work_kind::kernel) ev.work = run::work_kind::copy;
    if (space == std::string_view::npos) break;
    label.remove_prefix(space + 1);
  }
}

// A successful row's time and counters; returns the problem, or "".
std::string check_time(row_fields& f, result& r) {
  if (!f.real_time || f.bad_real_time) return "real_time missing or not a number";
  // Aggregates in percent (cv) carry no time unit worth converting.
  const bool percentage = f.aggregate_unit && *f.aggregate_unit == "percentage";
  double scale = 1;
  if (!percentage) {
    if (!f.time_unit) return "\"time_unit\" missing or not a string";
    scale = unit_to_us(*f.time_unit);
    if (std::isnan(scale)) return fmt::format("unknown time_unit '{}'", *f.time_unit);
  }
  r.time_us = *f.real_time * scale;
  if (!std::isfinite(r.time_us) || (!percentage && !valid_time_us(r.time_us, true)))
    return fmt::format("real_time {} is not a valid time", r.time_us);
  return {};
}

}  // namespace

bool key_cache::same(std::size_t position, std::string_view key) const {
  return position < slots_.size() && same_text(slots_[position].first, key);
}

const key_plan& key_cache::at(std::size_t position, std::string_view key, bool& fresh) {
  if (position >= slots_.size()) slots_.resize(position + 1);
  auto& [text, plan] = slots_[position];
  fresh = !same_text(text, key);
  if (fresh) {
    text.assign(key);
    plan = plan_key(key, what_);
    changed_ = true;
  }
  return plan;
}

// JSON leaves the meaning of a row that gives a key twice open, so it is bad input. Rows
// repeat their keys in order: only a row whose keys differ from the last one checked is
// sorted and looked at.
std::optional<std::string> key_cache::repeated(std::size_t members) {
  if (!changed_ && members == checked_) return std::nullopt;
  changed_ = false;
  checked_ = 0;
  std::vector<std::string_view> sorted;
  sorted.reserve(members);
  for (std::size_t i = 0; i < members; ++i) sorted.emplace_back(slots_[i].first);
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end()) return std::string(*twice);
  checked_ = members;
  return std::nullopt;
}

void row_fields::wrong(const key_plan& k) {
  switch (k.kind) {
    case field::real_time: bad_real_time = true; break;
    case field::repetition_index: bad_repetition_index = true; break;
    case field::error_occurred: bad_error_occurred = true; break;
    case field::skipped: bad_skipped = true; break;
    case field::samples_us:
    case field::batch_samples_us: bad_samples = true; break;
    // A counter the verdicts read, membench's own or one the view shows, given as text or a
    // boolean ("converged": "yes", "gb_per_s": "3463.5"), would be read as absent: the row
    // judged on evidence it does not have, or shown blank as though it had no value.
    case field::counter:
      if ((k.slot != evidence_slot::none || k.number_only) && bad_evidence.empty()) bad_evidence = k.counter;
      break;
    default: break;
  }
}

void row_fields::boolean(const key_plan& k, bool v) {
  if (k.kind == field::error_occurred) {
    error_occurred = v;
  } else if (k.kind == field::skipped) {
    skipped = v;
  } else {
    wrong(k);
  }
}

void row_fields::number(const key_plan& k, double v, bool integral, std::int64_t integer) {
  switch (k.kind) {
    case field::real_time: real_time = v; break;
    case field::repetition_index:
      if (integral) {
        repetition_index = integer;
      } else {
        bad_repetition_index = true;  // a fraction, or beyond int64
      }
      break;
    case field::repetitions: repetitions = integral ? integer : 0; break;
    case field::error_occurred: bad_error_occurred = true; break;
    case field::skipped: bad_skipped = true; break;
    case field::counter:
      if (k.keep_counter) counters.emplace_back(k.counter, v);
      evidence(k.slot, v);
      break;
    default: break;  // a string member given as a number: as good as absent
  }
}

void row_fields::evidence(evidence_slot slot, double v) {
  switch (slot) {
    case evidence_slot::ci_low: ev.ci_low_us = v; break;
    case evidence_slot::ci_high: ev.ci_high_us = v; break;
    case evidence_slot::noise: ev.noise_pct = v; break;
    case evidence_slot::samples: ev.sample_count = v; break;
    case evidence_slot::clock: ev.sm_clock_mhz = v; break;
    case evidence_slot::converged: ev.converged = ev.converged && v != 0; break;
    case evidence_slot::fastest: ev.fastest_us = v; break;
    case evidence_slot::batch_us: ev.batch.us = v; break;
    case evidence_slot::batch_ci_low: ev.batch.ci_low_us = v; break;
    case evidence_slot::batch_ci_high: ev.batch.ci_high_us = v; break;
    case evidence_slot::batch_samples: ev.batch.samples = v; break;
    case evidence_slot::batch_noise: ev.batch.noise_pct = v; break;
    case evidence_slot::batch_clock: ev.batch.sm_clock_mhz = v; break;
    case evidence_slot::batch_launches: ev.batch.launches = v; break;
    case evidence_slot::none: break;
  }
}

void row_fields::text(const key_plan& k, std::string_view v) {
  std::optional<std::string>* slot = nullptr;
  switch (k.kind) {
    case field::name: slot = &name; break;
    case field::run_name: slot = &run_name; break;
    case field::run_type: slot = &run_type; break;
    case field::aggregate_name: slot = &aggregate_name; break;
    case field::aggregate_unit: slot = &aggregate_unit; break;
    case field::time_unit: slot = &time_unit; break;
    case field::error_message: slot = &error_message; break;
    case field::skip_message: slot = &skip_message; break;
    case field::label: slot = &label; break;
    default: wrong(k); return;
  }
  if (!*slot) slot->emplace(v);  // a copy: the text is the parser's until the next event
}

std::string check_row(row_fields& f, raw_row& out, bool keep_run) {
  const std::optional<std::string>& name = f.run_name ? f.run_name : f.name;
  if (!name) return "\"name\" missing or not a string";
  result& r = out.named;
  r.set_name(strip_framework_suffix(*name, framework_suffix::time_type));
  out.hash = std::hash<std::string_view>{}(r.name);
  if (f.run_type && *f.run_type == "aggregate") {
    if (!f.aggregate_name) return "\"aggregate_name\" missing or not a string";
    out.aggregate = intern(*f.aggregate_name);
    // Complexity (ComputeBigO): a coefficient and its error over the family's sizes, not a
    // time of one benchmark; left out, and counted, rather than refusing the file.
    out.complexity = out.aggregate == "BigO" || out.aggregate == "RMS";
    if (out.complexity) return {};
  }
  if (f.bad_repetition_index) return "repetition_index is not an integer";
  out.repetition = f.repetition_index.value_or(0);
  out.repetitions = f.repetitions;
  if (f.bad_error_occurred) return "error_occurred is not a boolean";
  if (f.bad_skipped) return "skipped is not a boolean";
  out.failed = f.error_occurred.value_or(false);
  if (out.failed) {
    r.error = f.error_message ? *f.error_message : "error (no message)";
    r.skipped = r.error->rfind("skipped:", 0) == 0;
    return {};
  }
  // Google Benchmark 1.8 writes a row skipped with a message with times of 0: not run, never
  // a time (membench, on 1.7 too, writes it as an error row whose message starts "skipped:").
  if (f.skipped.value_or(false)) {
    out.failed = true;
    r.error = fmt::format("skipped: {}", f.skip_message ? *f.skip_message : "(no message)");
    r.skipped = true;
    return {};
  }
  if (f.label) r.label = intern(*f.label);
  if (std::string problem = check_time(f, r); !problem.empty()) return problem;
  r.counters = counter_set(std::move(f.counters));
  if (keep_run && f.bad_samples) return "samples_us or batch_samples_us is not an array of numbers";
  if (!f.bad_evidence.empty()) return fmt::format("{} is not a number", f.bad_evidence);
  if (keep_run) {
    // A row's time is one of its samples' statistics: one outside them contradicts them, and
    // a test on the samples would judge other data than the time shown (a slowdown hidden).
    if (const auto& s = f.ev.samples_us; !s.empty()) {
      const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
      if (r.time_us < *lo * (1 - 1e-9) || r.time_us > *hi * (1 + 1e-9))
        return fmt::format("real_time {} us lies outside its samples_us [{}, {}]", r.time_us, *lo, *hi);
    }
    // Intervals and samples are written in microseconds whatever the row's time unit.
    f.ev.time_us = r.time_us;
    read_label_state(r.label, f.ev);
    r.runs.push_back(std::move(f.ev));
  }
  return {};
}

}  // namespace membench::report
