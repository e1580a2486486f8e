// The JSON reader: nlohmann_json's SAX parser into compact rows, then one result per name.
//
// A plain path and a fast one, with the same row reader behind both. The plain path hands
// the whole file to the SAX parser. The fast path splits the benchmarks array at row
// boundaries into one part per core and scans each part's rows for their members: what the
// reader would not use is left out, but only when its bytes are valid JSON by construction
// (numbers no view asked for, checked against JSON's number grammar; a printable-ASCII
// "name" that a run_name follows; run_type "iteration"; repetition_index 0); everything
// else goes through the SAX parser. Whatever the fast path does not expect (a guessed
// boundary inside a string, a malformed row, an error in a row) sends the whole file down
// the plain path, which has the last word on every error message. The fuzz target checks
// that both paths agree.
#include "reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/naming.hpp"
#include "common/parallel.hpp"
#include "common/schema.hpp"
#include "common/stats.hpp"

namespace membench::report {
namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------
// Which member a key names.

enum class field : std::uint8_t {
  name, run_name, run_type, aggregate_name, aggregate_unit, time_unit, error_message, label,
  real_time, repetition_index, repetitions, error_occurred, samples_us,
  ignored,  // Google Benchmark's own numbers that no view reads
  counter,  // every other member: a counter when it is a number
};

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
      {"samples_us", field::samples_us},
      {"family_index", field::ignored},
      {"per_family_instance_index", field::ignored},
      {"threads", field::ignored},
      {"iterations", field::ignored},
      {"cpu_time", field::ignored},
  };
  const auto it = fields.find(key);
  return it == fields.end() ? field::counter : it->second;
}

// The counters a run's evidence is read from.
enum class evidence_slot : std::uint8_t { none, ci_low, ci_high, noise, samples, clock, converged };

evidence_slot evidence_of(std::string_view key) {
  if (key == schema::counter("ci_low_us").key) return evidence_slot::ci_low;
  if (key == schema::counter("ci_high_us").key) return evidence_slot::ci_high;
  if (key == schema::counter("noise_pct").key) return evidence_slot::noise;
  if (key == schema::counter("samples").key) return evidence_slot::samples;
  if (key == schema::counter("sm_clock_mhz").key) return evidence_slot::clock;
  if (key == schema::counter("converged").key) return evidence_slot::converged;
  return evidence_slot::none;
}

// What the reader does with a key, decided once per key and position and cached: rows
// repeat their keys in the same order.
struct key_plan {
  field kind = field::counter;
  evidence_slot slot = evidence_slot::none;
  std::string_view counter;  // interned, for counters
  bool keep_counter = false;  // a counter the view asked for
  bool needed() const { return kind != field::ignored && (kind != field::counter || keep_counter || slot != evidence_slot::none); }
};

key_plan plan_key(std::string_view key, const read_options& what) {
  key_plan k;
  k.kind = classify(key);
  if (k.kind != field::counter) return k;
  k.counter = intern(key);
  k.keep_counter = what.all_counters ||
                   std::find(what.counters.begin(), what.counters.end(), key) != what.counters.end();
  if (what.evidence) k.slot = evidence_of(key);
  return k;
}

// Equal text, compared inline: keys are short and compared twice a member.
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

class key_cache {
 public:
  explicit key_cache(const read_options& what) : what_(what) {}
  const key_plan& at(std::size_t position, std::string_view key, bool& fresh) {
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

  // At a row's end, with its member count: a key the row gives twice, if any. JSON leaves
  // such a row's meaning open, so it is bad input. Rows repeat their keys in order: only a
  // row whose keys differ from the last one checked is sorted and looked at.
  std::optional<std::string> repeated(std::size_t members) {
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

 private:
  const read_options& what_;
  std::vector<std::pair<std::string, key_plan>> slots_;
  bool changed_ = false;
  std::size_t checked_ = 0;  // members of the last row found without repeats
};

// ---------------------------------------------------------------------------------------
// Rows.

// One benchmark row as read, before the rows of one name are folded: a result of one run
// (its name split on the reading thread) and what places it among its name's rows.
struct raw_row {
  result named;
  std::string_view aggregate;  // aggregate_name of an aggregate row (interned)
  std::int64_t repetition = 0, repetitions = 0;
  std::uint64_t hash = 0;  // of the name
  bool failed = false;
};

// The members of one row object while it is being read.
struct row_fields {
  std::optional<std::string> name, run_name, run_type, aggregate_name, aggregate_unit, time_unit, error_message, label;
  bool bad_real_time = false, bad_error_occurred = false, bad_repetition_index = false;
  std::optional<double> real_time;
  std::optional<bool> error_occurred;
  std::optional<std::int64_t> repetition_index;
  std::int64_t repetitions = 0;
  std::vector<counter_set::value_type> counters;
  run ev;
  void clear() { *this = row_fields{}; }
};

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
  bool work_given = false;
  while (!label.empty()) {
    const auto space = label.find(' ');
    const std::string_view token = label.substr(0, space);
    if (token.substr(0, throttle.size()) == throttle) ev.throttle = intern(token.substr(throttle.size()));
    if (token.substr(0, unconverged.size()) == unconverged) ev.converged = false;
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

// Checks a complete row; returns the problem, or "" with `out` filled.
std::string check_row(row_fields& f, raw_row& out, bool keep_run) {
  const std::optional<std::string>& name = f.run_name ? f.run_name : f.name;
  if (!name) return "\"name\" missing or not a string";
  result& r = out.named;
  r.set_name(strip_framework_suffix(*name, framework_suffix::time_type));
  out.hash = std::hash<std::string_view>{}(r.name);
  if (f.run_type && *f.run_type == "aggregate") {
    if (!f.aggregate_name) return "\"aggregate_name\" missing or not a string";
    out.aggregate = intern(*f.aggregate_name);
  }
  if (f.bad_repetition_index) return "repetition_index is not an integer";
  out.repetition = f.repetition_index.value_or(0);
  out.repetitions = f.repetitions;
  if (f.bad_error_occurred) return "error_occurred is not a boolean";
  out.failed = f.error_occurred.value_or(false);
  if (out.failed) {
    r.error = f.error_message ? *f.error_message : "error (no message)";
    r.skipped = r.error->rfind("skipped:", 0) == 0;
    return {};
  }
  if (f.label) r.label = intern(*f.label);
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
  if (!std::isfinite(r.time_us) || (!percentage && r.time_us < 0))
    return fmt::format("real_time {} is not a valid time", r.time_us);
  r.counters = counter_set(std::move(f.counters));
  if (keep_run) {
    // Intervals and samples are written in microseconds whatever the row's time unit.
    f.ev.time_us = r.time_us;
    read_label_state(r.label, f.ev);
    r.runs.push_back(std::move(f.ev));
  }
  return {};
}

// ---------------------------------------------------------------------------------------
// The SAX handler.

// Minified JSON text of a non-string context value, built from its events.
class minifier {
 public:
  void open(char c) {
    separate();
    text_ += c;
    fresh_.push_back(true);
  }
  void close(char c) {
    text_ += c;
    fresh_.pop_back();
  }
  void key(const std::string& k) {
    separate();
    text_ += json(k).dump();
    text_ += ':';
    after_key_ = true;
  }
  void scalar(std::string_view s) {
    separate();
    text_ += s;
  }
  bool done() const { return fresh_.empty(); }
  std::string take() {
    std::string t = std::move(text_);
    text_.clear();
    return t;
  }

 private:
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!fresh_.empty() && !fresh_.back()) text_ += ',';
    if (!fresh_.empty()) fresh_.back() = false;
  }
  std::string text_;
  std::vector<bool> fresh_;
  bool after_key_ = false;
};

// Reads events into rows (and, for a whole document, the context). Problems are recorded,
// not thrown: a syntax error later in the file takes precedence, as a parser that reads
// the whole document first would have it.
class row_reader {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  enum class mode { document, rows };

  row_reader(const read_options& what, mode m, std::vector<raw_row>& rows, std::vector<std::string_view>& names)
      : what_(what), mode_(m), rows_(rows), names_(names), keys_(what) {}

  std::map<std::string, std::string> context;
  std::string syntax_error;   // from the parser
  std::string context_error;  // context not an object
  std::string row_error;      // the first bad row ("benchmarks[i]: ...")
  bool saw_benchmarks = false, bad_benchmarks = false, bad_top = false;
  std::size_t row_count = 0;  // rows started, in this reader

  bool failed() const {
    return !syntax_error.empty() || !context_error.empty() || !row_error.empty() || bad_benchmarks || bad_top;
  }

  // --- SAX interface
  bool null() {
    return scalar([] { return std::string("null"); }, [&] { wrong(); });
  }
  bool boolean(bool v) {
    return scalar([v] { return std::string(v ? "true" : "false"); }, [&] {
      if (plan_->kind == field::error_occurred) {
        f_.error_occurred = v;
      } else {
        wrong();
      }
    });
  }
  bool number_integer(number_integer_t v) {
    return scalar([v] { return std::to_string(v); }, [&] { number(static_cast<double>(v), true, v); },
                  static_cast<double>(v));
  }
  bool number_unsigned(number_unsigned_t v) {
    const bool fits = v <= static_cast<number_unsigned_t>(std::numeric_limits<std::int64_t>::max());
    return scalar([v] { return std::to_string(v); },
                  [&] { number(static_cast<double>(v), fits, fits ? static_cast<std::int64_t>(v) : 0); },
                  static_cast<double>(v));
  }
  bool number_float(number_float_t v, const string_t& text) {
    return scalar([&text] { return text; }, [&] { number(v, false, 0); }, v);
  }
  bool string(string_t& v) {
    if (!frames_.empty() && frames_.back() == frame::context) {
      context[context_key_] = v;
      return true;
    }
    return scalar([&v] { return json(v).dump(); }, [&] { text(v); });
  }
  bool binary(binary_t&) {
    return scalar([] { return std::string("null"); }, [&] { wrong(); });
  }
  bool start_object(std::size_t) { return open('{'); }
  bool start_array(std::size_t) { return open('['); }
  bool end_object() { return close('}'); }
  bool end_array() { return close(']'); }
  bool key(string_t& k) {
    switch (frames_.empty() ? frame::skip : frames_.back()) {
      case frame::top: top_key_ = k; break;
      case frame::context: context_key_ = k; break;
      case frame::context_value: min_.key(k); break;
      case frame::row: {
        bool fresh = false;
        plan_ = &keys_.at(member_++, k, fresh);
        if (fresh && plan_->kind == field::counter) remember(plan_->counter);
        break;
      }
      default: break;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const json::exception& e) {
    syntax_error = e.what();
    return false;
  }

 private:
  enum class frame : std::uint8_t { top, context, context_value, benchmarks, row, samples, skip };

  // A number, string, boolean or null wherever it is: `as_text` gives it as minified JSON
  // (context values), `on_row` reads it as a row's member; `number` is its value, if any.
  template <class AsText, class OnRow>
  bool scalar(AsText&& as_text, OnRow&& on_row, std::optional<double> number = std::nullopt) {
    if (frames_.empty()) {
      bad_top = true;  // a document that is a bare number or string
      return true;
    }
    switch (frames_.back()) {
      case frame::top:
        if (top_key_ == "context") context_error = "\"context\" is not an object";
        if (top_key_ == "benchmarks") bad_benchmarks = true;
        break;
      case frame::context: context[context_key_] = as_text(); break;
      case frame::context_value: min_.scalar(as_text()); break;
      case frame::benchmarks: row_problem(row_count++, "not an object"); break;
      case frame::row: on_row(); break;
      case frame::samples:
        if (!number) {
          samples_bad_ = true;
        } else if (what_.evidence) {
          f_.ev.samples_us.push_back(*number);
        }
        break;
      case frame::skip: break;
    }
    return true;
  }

  bool open(char c) {
    if (frames_.empty()) {
      if (mode_ == mode::rows) {
        frames_.push_back(frame::benchmarks);  // a block of rows
      } else if (c == '{') {
        frames_.push_back(frame::top);
      } else {
        bad_top = true;
        frames_.push_back(frame::skip);
      }
      return true;
    }
    switch (frames_.back()) {
      case frame::top:
        if (top_key_ == "context") {
          if (c == '{') {
            frames_.push_back(frame::context);
            return true;
          }
          context_error = "\"context\" is not an object";
        } else if (top_key_ == "benchmarks") {
          if (c == '[') {
            saw_benchmarks = true;
            frames_.push_back(frame::benchmarks);
            return true;
          }
          bad_benchmarks = true;
        }
        break;
      case frame::context:
      case frame::context_value:
        min_.open(c);
        frames_.push_back(frame::context_value);
        return true;
      case frame::benchmarks:
        if (c == '{') {
          f_.clear();
          member_ = 0;
          samples_bad_ = false;
          ++row_count;
          frames_.push_back(frame::row);
          return true;
        }
        row_problem(row_count++, "not an object");
        break;
      case frame::row:
        if (c == '[' && plan_->kind == field::samples_us) {
          frames_.push_back(frame::samples);
          return true;
        }
        wrong();
        break;
      case frame::samples: samples_bad_ = true; break;
      default: break;
    }
    frames_.push_back(frame::skip);
    return true;
  }

  bool close(char c) {
    const frame done = frames_.back();
    frames_.pop_back();
    if (done == frame::context_value) {
      min_.close(c);
      if (min_.done()) context[context_key_] = min_.take();
    } else if (done == frame::samples && samples_bad_) {
      f_.ev.samples_us.clear();
    } else if (done == frame::row) {
      raw_row r;
      std::string problem;
      if (const auto twice = keys_.repeated(member_)) {
        problem = fmt::format("member \"{}\" given twice", *twice);
      } else {
        problem = check_row(f_, r, what_.evidence);
      }
      if (!problem.empty()) {
        row_problem(row_count - 1, problem);
      } else {
        rows_.push_back(std::move(r));
      }
    }
    return true;
  }

  void row_problem(std::size_t index, std::string_view problem) {
    if (row_error.empty()) row_error = fmt::format("benchmarks[{}]: {}", index, problem);
  }

  void wrong() {
    switch (plan_->kind) {
      case field::real_time: f_.bad_real_time = true; break;
      case field::repetition_index: f_.bad_repetition_index = true; break;
      case field::error_occurred: f_.bad_error_occurred = true; break;
      default: break;
    }
  }

  // `integral`: the value is an integer that fits int64 (`integer`).
  void number(double v, bool integral, std::int64_t integer) {
    switch (plan_->kind) {
      case field::real_time: f_.real_time = v; break;
      case field::repetition_index:
        if (integral) {
          f_.repetition_index = integer;
        } else {
          f_.bad_repetition_index = true;  // a fraction, or beyond int64
        }
        break;
      case field::repetitions: f_.repetitions = integral ? integer : 0; break;
      case field::error_occurred: f_.bad_error_occurred = true; break;
      case field::counter:
        if (plan_->keep_counter) f_.counters.emplace_back(plan_->counter, v);
        evidence(v);
        break;
      default: break;  // a string member given as a number: as good as absent
    }
  }

  void evidence(double v) {
    switch (plan_->slot) {
      case evidence_slot::ci_low: f_.ev.ci_low_us = v; break;
      case evidence_slot::ci_high: f_.ev.ci_high_us = v; break;
      case evidence_slot::noise: f_.ev.noise_pct = v; break;
      case evidence_slot::samples: f_.ev.sample_count = v; break;
      case evidence_slot::clock: f_.ev.sm_clock_mhz = v; break;
      case evidence_slot::converged: f_.ev.converged = f_.ev.converged && v != 0; break;
      case evidence_slot::none: break;
    }
  }

  void text(string_t& v) {
    std::optional<std::string>* slot = nullptr;
    switch (plan_->kind) {
      case field::name: slot = &f_.name; break;
      case field::run_name: slot = &f_.run_name; break;
      case field::run_type: slot = &f_.run_type; break;
      case field::aggregate_name: slot = &f_.aggregate_name; break;
      case field::aggregate_unit: slot = &f_.aggregate_unit; break;
      case field::time_unit: slot = &f_.time_unit; break;
      case field::error_message: slot = &f_.error_message; break;
      case field::label: slot = &f_.label; break;
      default: wrong(); return;
    }
    if (!*slot) *slot = std::move(v);  // the first of equal keys wins
  }

  void remember(std::string_view counter) { names_.push_back(counter); }

  const read_options& what_;
  mode mode_;
  std::vector<raw_row>& rows_;
  std::vector<std::string_view>& names_;
  key_cache keys_;
  std::vector<frame> frames_;
  std::string top_key_, context_key_;
  minifier min_;
  row_fields f_;
  const key_plan* plan_ = nullptr;
  std::size_t member_ = 0;
  bool samples_bad_ = false;
};

// ---------------------------------------------------------------------------------------
// The fast path's scanner: extents of JSON values, never their meaning.

struct fall_back {};  // thrown inside the fast path: read the file the plain way

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class scanner {
 public:
  scanner(const char* p, const char* end) : p_(p), end_(end) {}
  const char* pos() const { return p_; }
  void seek(const char* p) { p_ = p; }
  void skip_space() {
    while (p_ < end_ && is_space(*p_)) ++p_;
  }
  char peek() const {
    if (p_ >= end_) throw fall_back{};
    return *p_;
  }
  void expect(char c) {
    if (peek() != c) throw fall_back{};
    ++p_;
  }
  // At the opening quote: the string's content; `plain` when it is printable ASCII
  // without escapes (a key the reader can compare as it is).
  std::string_view string(bool& plain) {
    expect('"');
    const char* begin = p_;
    plain = true;
    while (true) {
      const char c = peek();
      if (c == '"') break;
      if (c == '\\') {
        plain = false;
        ++p_;
        (void)peek();
      } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
        plain = false;
      }
      ++p_;
    }
    const std::string_view s(begin, static_cast<std::size_t>(p_ - begin));
    ++p_;
    return s;
  }
  // A member's key and the colon after it, up to its value.
  std::string_view key(bool& plain) {
    const std::string_view k = string(plain);
    skip_space();
    expect(':');
    skip_space();
    return k;
  }
  // At the opening quote: past the closing one (a value's extent, long names included).
  void skip_string() {
    expect('"');
    while (true) {
      const auto* q = static_cast<const char*>(std::memchr(p_, '"', static_cast<std::size_t>(end_ - p_)));
      if (q == nullptr) throw fall_back{};
      // The quote is escaped when an odd number of backslashes precede it.
      const char* b = q;
      while (b > p_ && b[-1] == '\\') --b;
      p_ = q + 1;
      if ((q - b) % 2 == 0) return;
    }
  }
  // A number by JSON's grammar whose value is finite whatever its digits: at most two
  // exponent digits, at most 64 characters. False (and the position unchanged) otherwise.
  bool plain_number() {
    const char* q = p_;
    auto digits = [&] {
      const char* d = q;
      while (q < end_ && is_digit(*q)) ++q;
      return static_cast<std::size_t>(q - d);
    };
    if (q < end_ && *q == '-') ++q;
    if (q >= end_) return false;
    if (*q == '0') {
      ++q;
    } else if (digits() == 0) {
      return false;
    }
    if (q < end_ && *q == '.') {
      ++q;
      if (digits() == 0) return false;
    }
    if (q < end_ && (*q == 'e' || *q == 'E')) {
      ++q;
      if (q < end_ && (*q == '+' || *q == '-')) ++q;
      const std::size_t n = digits();
      if (n == 0 || n > 2) return false;
    }
    if (q - p_ > 64 || (q < end_ && !is_space(*q) && *q != ',' && *q != '}' && *q != ']')) return false;
    p_ = q;
    return true;
  }
  // `[` plain numbers `]`; false (position unchanged) for anything else.
  bool plain_number_array() {
    const char* start = p_;
    expect('[');
    skip_space();
    if (peek() == ']') {
      ++p_;
      return true;
    }
    while (true) {
      if (!plain_number()) {
        p_ = start;
        return false;
      }
      skip_space();
      const char c = peek();
      ++p_;
      if (c == ']') return true;
      if (c != ',') {
        p_ = start;
        return false;
      }
      skip_space();
    }
  }
  // Any value's extent. Nesting is only counted: the parser checks what is kept.
  void value() {
    const char c = peek();
    if (c == '"') {
      skip_string();
    } else if (c == '{' || c == '[') {
      nested();
    } else if (c == '-' || is_digit(c)) {
      if (!plain_number()) throw fall_back{};
    } else {
      for (std::string_view word : {"true", "false", "null"}) {
        if (static_cast<std::size_t>(end_ - p_) >= word.size() && std::string_view(p_, word.size()) == word) {
          p_ += word.size();
          return;
        }
      }
      throw fall_back{};
    }
  }

 private:
  void nested() {
    int depth = 0;
    do {
      const char c = peek();
      if (c == '"') {
        skip_string();
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      ++p_;
    } while (depth > 0);
  }

  const char* p_;
  const char* end_;
};

// The benchmarks array as one part of the fast path reads it.
struct array_span {
  const char* first_row;  // the first row's '{'
  const char* end;        // the closing ']'
};

// The start of the first row at or after `from`: a '{' after "}," (spaces aside) and before
// a key. A guess: a string may hold the same bytes; the part before checks it lands here.
const char* guess_row_start(const array_span& a, const char* from) {
  for (const char* q = from; q < a.end; ++q) {
    q = static_cast<const char*>(std::memchr(q, '{', static_cast<std::size_t>(a.end - q)));
    if (q == nullptr) break;
    const char* r = q - 1;
    while (r > a.first_row && is_space(*r)) --r;
    if (r <= a.first_row || *r != ',') continue;
    --r;
    while (r > a.first_row && is_space(*r)) --r;
    if (*r != '}') continue;
    const char* t = q + 1;
    while (t < a.end && is_space(*t)) ++t;
    if (t < a.end && (*t == '"' || *t == '}')) return q;
  }
  return a.end;
}

// Pages of a mapped file already read go back to the page cache as a part moves on: the
// reader's memory stays its compact rows, not the file.
struct page_release {
  bool enabled = false;
  void operator()(const char*& released, const char* upto) const {
    if (!enabled) return;
    static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto to = reinterpret_cast<std::uintptr_t>(upto) & ~(page - 1);
    const auto from = (reinterpret_cast<std::uintptr_t>(released) + page - 1) & ~(page - 1);
    if (to > from) {
      (void)madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
      released = reinterpret_cast<const char*>(to);
    }
  }
};

// The rows from `start` up to `limit` (the next part's first row, or the array's end),
// scanned and handed to the SAX parser in blocks of about 256 KiB (they stay in the cache).
void read_part(const array_span& a, const char* start, const char* limit, const read_options& what,
               const page_release& release, std::vector<raw_row>& rows, std::vector<std::string_view>& names) {
  if (start >= limit) return;
  const bool last = limit == a.end;
  scanner s(start, a.end + 1);
  key_cache keys(what);
  row_reader reader(what, row_reader::mode::rows, rows, names);
  std::string block;
  const std::string_view samples_key = "samples_us";
  const char* released = start;
  bool more = true;
  while (more) {
    block.assign("[");
    while (more && block.size() < (std::size_t{1} << 18)) {
      if (block.size() > 1) block += ',';
      // One row: its members, less the numbers no view asked for.
      s.expect('{');
      block += '{';
      s.skip_space();
      bool first = true;
      // "name" repeats "run_name" (less an aggregate's suffix): it is kept only without one.
      const char* name_begin = nullptr;
      const char* name_end = nullptr;
      bool run_name = false;
      bool iteration = false;  // run_type "iteration": its repetition count and index 0 say nothing
      if (s.peek() == '}') {
        s.expect('}');
      } else {
        for (std::size_t position = 0;; ++position) {
          const char* member = s.pos();
          bool plain = false;
          const std::string_view key = s.key(plain);
          // Every key is looked up, so that a row giving one twice is caught; an escaped
          // key is compared decoded by the plain path only.
          if (std::memchr(key.data(), '\\', key.size()) != nullptr) throw fall_back{};
          bool fresh = false;
          const key_plan& plan = keys.at(position, key, fresh);
          const char c = s.peek();
          const char* value_begin = s.pos();
          bool drop = false;
          // "name" is dropped unread when a run_name follows, if it is printable ASCII
          // without escapes: valid JSON whatever the parser would have made of it.
          bool plain_name = false;
          if (plain && key == "name" && c == '"') {
            (void)s.string(plain_name);
            if (!plain_name) s.seek(value_begin);
          }
          if (plain_name) {
            if (name_begin != nullptr) throw fall_back{};
            name_begin = member;
            name_end = s.pos();
            drop = true;
          } else if (plain && (c == '-' || is_digit(c)) && s.plain_number()) {
            if (fresh && plan.kind == field::counter) names.push_back(plan.counter);
            const std::string_view number(value_begin, static_cast<std::size_t>(s.pos() - value_begin));
            drop = !plan.needed() || (plan.kind == field::repetition_index && number == "0") ||
                   (plan.kind == field::repetitions && iteration);
          } else if (plain && c == '[' && key == samples_key && !what.evidence && s.plain_number_array()) {
            drop = true;
          } else {
            run_name = run_name || (plain && key == "run_name" && c == '"');
            s.value();
            // An iteration row is what a row without a run_type is taken for.
            drop = plain && key == "run_type" &&
                   std::string_view(value_begin, static_cast<std::size_t>(s.pos() - value_begin)) == R"("iteration")";
            iteration = iteration || drop;
          }
          if (!drop) {
            if (!first) block += ',';
            block.append(member, s.pos());
            first = false;
          }
          s.skip_space();
          const char next = s.peek();
          s.expect(next);
          if (next == '}') {
            if (keys.repeated(position + 1)) throw fall_back{};  // the plain path says which
            break;
          }
          if (next != ',') throw fall_back{};
          s.skip_space();
        }
      }
      if (name_begin != nullptr && !run_name) {
        if (!first) block += ',';
        block.append(name_begin, name_end);
      }
      block += '}';
      // Then either the next row or the end of the array.
      s.skip_space();
      if (s.peek() == ']') {
        if (s.pos() != a.end || !last) throw fall_back{};
        more = false;
      } else {
        s.expect(',');
        s.skip_space();
        if (s.pos() >= limit) {
          if (s.pos() != limit) throw fall_back{};  // the guessed boundary was inside a string
          more = false;
        }
      }
    }
    block += ']';
    if (!json::sax_parse(block.data(), block.data() + block.size(), &reader) || reader.failed()) throw fall_back{};
    release(released, s.pos());
  }
}

// ---------------------------------------------------------------------------------------
// Folding rows into results.

// The rows of one name into one result. Rows come in parts (one per reading thread), in
// file order.
std::vector<result> fold(std::vector<std::vector<raw_row>>& parts, const std::string& path) {
  // Group rows by name, keeping first-seen order (sorted by the names' hashes: most names
  // have one row); reject exact duplicates.
  std::vector<raw_row*> rows;
  for (auto& part : parts) {
    for (raw_row& r : part) rows.push_back(&r);
  }
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_hash(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) by_hash[i] = {rows[i]->hash, static_cast<std::uint32_t>(i)};
  std::sort(by_hash.begin(), by_hash.end());
  std::vector<std::uint32_t> first_of(rows.size());  // the first row of each row's name
  for (std::size_t i = 0; i < by_hash.size(); ++i) {
    const std::uint32_t r = by_hash[i].second;
    first_of[r] = r;
    for (std::size_t j = i; j-- > 0 && by_hash[j].first == by_hash[i].first;) {
      if (rows[by_hash[j].second]->named.name == rows[r]->named.name) {
        first_of[r] = first_of[by_hash[j].second];  // sorted by position within a hash: the earlier row
        break;
      }
    }
  }
  by_hash = {};
  // Each name's rows as a chain in file order, from its first row.
  constexpr std::uint32_t end_of_chain = 0xffffffff;
  std::vector<std::uint32_t> next(rows.size(), end_of_chain), last(rows.size());
  std::size_t names = 0;
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    const std::uint32_t head = first_of[i];
    if (head == i) {
      last[i] = i;
      ++names;
      continue;
    }
    const raw_row& r = *rows[i];
    for (std::uint32_t o = head; o != end_of_chain; o = next[o]) {
      if (rows[o]->aggregate == r.aggregate && (!r.aggregate.empty() || rows[o]->repetition == r.repetition))
        throw input_error(fmt::format("{}: duplicate benchmark '{}'{}", path, r.named.name,
                                      r.aggregate.empty() ? "" : fmt::format(" ({})", r.aggregate)));
    }
    next[last[head]] = i;
    last[head] = i;
  }
  std::vector<result> results;
  results.reserve(names);
  std::vector<raw_row*> group;
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    if (first_of[i] != i) continue;
    if (next[i] == end_of_chain && rows[i]->aggregate.empty()) {  // one run, or an error: as read
      results.push_back(std::move(rows[i]->named));
      continue;
    }
    group.clear();
    for (std::uint32_t o = i; o != end_of_chain; o = next[o]) group.push_back(rows[o]);
    std::vector<raw_row*> iterations;
    const raw_row* failed = nullptr;
    const raw_row* agg_median = nullptr;
    const raw_row* agg_mean = nullptr;
    const raw_row* agg_cv = nullptr;
    for (raw_row* r : group) {
      if (r->failed) {
        failed = r;
      } else if (r->aggregate.empty()) {
        iterations.push_back(r);
      } else if (r->aggregate == "median") {
        agg_median = r;
      } else if (r->aggregate == "mean") {
        agg_mean = r;
      } else if (r->aggregate == "cv") {
        agg_cv = r;
      }
    }
    const raw_row* aggregate = agg_median != nullptr ? agg_median : agg_mean;  // aggregates-only file
    const raw_row* first = failed != nullptr ? failed : !iterations.empty() ? iterations.front() : aggregate;
    if (first == nullptr)
      throw input_error(
          fmt::format("{}: benchmark '{}' has neither iteration rows nor a mean/median", path, group.front()->named.name));
    result res = std::move(const_cast<raw_row*>(first)->named);
    if (failed == nullptr && iterations.size() > 1) {
      std::vector<double> times;
      std::map<std::string_view, std::vector<double>> per_counter;
      for (const raw_row* r : iterations) {
        times.push_back(r->named.time_us);
        for (const auto& [k, v] : r->named.counters) per_counter[k].push_back(v);
      }
      for (std::size_t k = 1; k < iterations.size(); ++k) {
        for (run& x : iterations[k]->named.runs) res.runs.push_back(std::move(x));
      }
      res.time_us = median_of(std::move(times));
      std::vector<counter_set::value_type> medians;
      for (auto& [k, v] : per_counter) medians.emplace_back(k, median_of(std::move(v)));
      res.counters = counter_set(std::move(medians));
    } else if (failed == nullptr && iterations.empty()) {
      res.rep_count = aggregate->repetitions;
      if (agg_cv != nullptr) res.rep_cv = agg_cv->named.time_us;  // Google Benchmark writes cv as a fraction
    }
    results.push_back(std::move(res));
  }
  return results;
}

void finish(result_file& f, std::vector<std::vector<raw_row>>& parts, std::vector<std::string_view>& names) {
  f.results = fold(parts, f.path);
  parts.clear();
  f.build_index();
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  f.counter_names = std::move(names);
}

// The plain path: the whole document through the SAX parser. Every error message comes
// from here.
result_file read_plain(std::string_view text, const std::string& path, const read_options& what) {
  result_file f;
  f.path = path;
  std::vector<std::vector<raw_row>> parts(1);
  std::vector<std::string_view> names;
  row_reader reader(what, row_reader::mode::document, parts.front(), names);
  (void)json::sax_parse(text.data(), text.data() + text.size(), &reader);
  if (!reader.syntax_error.empty())
    throw input_error(fmt::format("{}: not valid JSON (truncated or malformed?): {}", path, reader.syntax_error));
  if (reader.bad_top) throw input_error(fmt::format("{}: not a Google Benchmark JSON object", path));
  if (!reader.context_error.empty()) throw input_error(fmt::format("{}: {}", path, reader.context_error));
  if (!reader.saw_benchmarks || reader.bad_benchmarks) throw input_error(fmt::format("{}: no \"benchmarks\" array", path));
  if (!reader.row_error.empty()) throw input_error(fmt::format("{}: {}", path, reader.row_error));
  f.context = std::move(reader.context);
  finish(f, parts, names);
  return f;
}

// The fast path; throws fall_back for anything it does not expect.
result_file read_fast(std::string_view text, const std::string& path, const read_options& what,
                      const page_release& release) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  // The top-level object: every member but the benchmarks array, read the plain way.
  scanner top(begin, end);
  top.skip_space();
  top.expect('{');
  std::string head = "{";
  const char* array = nullptr;
  top.skip_space();
  while (array == nullptr) {
    const char* member = top.pos();
    bool plain = false;
    const std::string_view key = top.key(plain);
    if (plain && key == "benchmarks" && top.peek() == '[') {
      array = top.pos();
      break;
    }
    top.value();
    if (head.size() > 1) head += ',';
    head.append(member, top.pos());
    top.skip_space();
    top.expect(',');
    top.skip_space();
  }
  head += '}';
  // Google Benchmark writes the benchmarks last: the array ends where the document does.
  const char* close = end;
  while (close > array && is_space(close[-1])) --close;
  if (close <= array + 1 || close[-1] != '}') throw fall_back{};
  --close;
  while (close > array && is_space(close[-1])) --close;
  if (close[-1] != ']') throw fall_back{};
  const array_span a{nullptr, close - 1};
  scanner first(array + 1, a.end + 1);
  first.skip_space();
  const array_span rows_span{first.pos(), a.end};

  result_file f;
  f.path = path;
  std::vector<raw_row> none;
  std::vector<std::string_view> head_names;
  row_reader head_reader(what, row_reader::mode::document, none, head_names);
  if (!json::sax_parse(head.data(), head.data() + head.size(), &head_reader) || head_reader.failed())
    throw fall_back{};
  f.context = std::move(head_reader.context);

  // One part per core, split at row boundaries.
  std::vector<std::vector<raw_row>> parts(64);
  std::vector<std::vector<std::string_view>> part_names(64);
  std::vector<char> failed(64, 0);
  const auto n = static_cast<std::size_t>(rows_span.end - rows_span.first_row);
  const std::size_t used = parallel_parts(
      n,
      [&](std::size_t b, std::size_t e, std::size_t p) {
        try {
          const char* start = b == 0 ? rows_span.first_row : guess_row_start(rows_span, rows_span.first_row + b);
          const char* limit = e == n ? rows_span.end : guess_row_start(rows_span, rows_span.first_row + e);
          read_part(rows_span, start, limit, what, release, parts[p], part_names[p]);
        } catch (...) {  // fall_back, or no memory: the plain path decides
          failed[p] = 1;
        }
      },
      std::size_t{1} << 20);
  if (std::any_of(failed.begin(), failed.end(), [](char c) { return c != 0; })) throw fall_back{};
  parts.resize(used);
  std::vector<std::string_view> names = std::move(head_names);
  for (const auto& pn : part_names) names.insert(names.end(), pn.begin(), pn.end());
  finish(f, parts, names);
  return f;
}

// A file's bytes: mapped read-only (pages can go back once read), else read.
class file_text {
 public:
  explicit file_text(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw input_error(fmt::format("{}: cannot open", path));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      size_ = static_cast<std::size_t>(st.st_size);
      void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (m != MAP_FAILED) {
        map_ = static_cast<const char*>(m);
        ::close(fd);
        return;
      }
    }
    std::array<char, 1 << 16> chunk{};
    for (ssize_t got; (got = ::read(fd, chunk.data(), chunk.size())) != 0;) {
      if (got < 0) {
        ::close(fd);
        throw input_error(fmt::format("{}: cannot read", path));
      }
      copy_.append(chunk.data(), static_cast<std::size_t>(got));
    }
    ::close(fd);
  }
  ~file_text() {
    if (map_ != nullptr) ::munmap(const_cast<char*>(map_), size_);
  }
  file_text(const file_text&) = delete;
  file_text& operator=(const file_text&) = delete;
  std::string_view text() const { return map_ != nullptr ? std::string_view(map_, size_) : std::string_view(copy_); }
  bool mapped() const { return map_ != nullptr; }

 private:
  const char* map_ = nullptr;
  std::size_t size_ = 0;
  std::string copy_;
};

}  // namespace

result_file read_results(std::string_view text, const std::string& path, const read_options& what, reader_path how,
                         bool release_pages) {
  if (how != reader_path::plain) {
    try {
      return read_fast(text, path, what, page_release{release_pages});
    } catch (const fall_back&) {
      if (how == reader_path::fast_only) throw input_error(fmt::format("{}: the fast path gave up", path));
    }
  }
  return read_plain(text, path, what);
}

result_file parse_results(std::string_view text, const std::string& path, const read_options& what) {
  return read_results(text, path, what, reader_path::automatic, false);
}

result_file load_results(const std::string& path, const read_options& what) {
  const file_text file(path);
  return read_results(file.text(), path, what, reader_path::automatic, file.mapped());
}

}  // namespace membench::report
