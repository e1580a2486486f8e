#include "model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <fstream>
#include <future>
#include <mutex>
#include <thread>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <simdjson.h>

#include "harness/naming.hpp"

namespace membench::report {
namespace {

// Google Benchmark's own numeric fields; every other number in a row is a counter.
const std::set<std::string, std::less<>> framework_fields{
    "family_index", "per_family_instance_index", "repetitions", "repetition_index", "threads",
    "iterations",   "real_time",                 "cpu_time"};

// Where a row is, formatted only when there is an error to report.
struct location {
  const std::string& path;
  std::size_t index;
  std::string str() const { return fmt::format("{}: benchmarks[{}]", path, index); }
};

double unit_to_us(std::string_view unit, const location& where) {
  if (unit == "ns") return 1e-3;
  if (unit == "us") return 1.0;
  if (unit == "ms") return 1e3;
  if (unit == "s") return 1e6;
  throw input_error(fmt::format("{}: unknown time_unit '{}'", where.str(), unit));
}

// Counter names repeat in every row: one copy each for the whole process, shared by
// the threads that read rows (each keeps its own lookup cache).
std::string_view intern(std::string_view name) {
  thread_local std::unordered_map<std::string_view, std::string_view> cache;
  if (const auto it = cache.find(name); it != cache.end()) return it->second;
  static std::mutex lock;
  static std::deque<std::string> store;
  static std::unordered_map<std::string_view, std::string_view> index;
  std::string_view kept;
  {
    const std::lock_guard<std::mutex> guard(lock);
    const auto it = index.find(name);
    kept = it != index.end() ? it->second : std::string_view(store.emplace_back(name));
    index.emplace(kept, kept);
  }
  cache.emplace(kept, kept);
  return kept;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
std::string strip_suffix(std::string n) {
  for (std::string_view s : {"/manual_time", "/real_time", "/process_time"}) {
    if (n.size() > s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0) n.resize(n.size() - s.size());
  }
  return n;
}

struct raw_row {
  std::string name, aggregate, label, error;
  std::string space, experiment;                            // parsed from name
  std::vector<std::pair<std::string, std::string>> params;
  bool failed = false;
  std::int64_t repetition = 0;
  double time_us = NAN;
  std::vector<counter_set::value_type> counters;
};

// One benchmark object as read, checked once complete. The views point into the
// parser's document, which outlives every row.
struct row_fields {
  std::vector<std::pair<std::string_view, std::string_view>> strings;
  std::vector<std::string_view> wrong_type;  // present, but not the type it is read as
  std::optional<double> real_time;
  std::optional<bool> error_occurred;
  std::optional<std::int64_t> repetition_index;
  std::vector<counter_set::value_type> numbers;

  void clear() {
    strings.clear();
    wrong_type.clear();
    real_time.reset();
    error_occurred.reset();
    repetition_index.reset();
    numbers.clear();
  }
  const std::string_view* string_field(std::string_view key) const {
    for (const auto& kv : strings) {
      if (kv.first == key) return &kv.second;
    }
    return nullptr;
  }
  bool wrong(std::string_view key) const {
    return std::find(wrong_type.begin(), wrong_type.end(), key) != wrong_type.end();
  }
  std::string_view required(const char* key, const location& where) const {
    const std::string_view* v = string_field(key);
    if (v == nullptr) throw input_error(fmt::format("{}: \"{}\" missing or not a string", where.str(), key));
    return *v;
  }
};

raw_row check_row(row_fields& f, const location& where) {
  raw_row r;
  const std::string_view* run_name = f.string_field("run_name");
  r.name = strip_suffix(std::string(run_name != nullptr ? *run_name : f.required("name", where)));
  if (const std::string_view* t = f.string_field("run_type"); t != nullptr && *t == "aggregate")
    r.aggregate = f.required("aggregate_name", where);
  if (f.wrong("repetition_index")) throw input_error(fmt::format("{}: repetition_index is not an integer", where.str()));
  if (f.repetition_index) r.repetition = *f.repetition_index;
  if (f.wrong("error_occurred")) throw input_error(fmt::format("{}: error_occurred is not a boolean", where.str()));
  r.failed = f.error_occurred.value_or(false);
  if (r.failed) {
    const std::string_view* m = f.string_field("error_message");
    r.error = m != nullptr ? std::string(*m) : "error (no message)";
    return r;
  }
  if (const std::string_view* l = f.string_field("label")) r.label = *l;
  if (!f.real_time || f.wrong("real_time"))
    throw input_error(fmt::format("{}: real_time missing or not a number", where.str()));
  // Aggregates in percent (cv) carry no time unit worth converting.
  const std::string_view* unit = f.string_field("aggregate_unit");
  const bool percentage = unit != nullptr && *unit == "percentage";
  r.time_us = *f.real_time * (percentage ? 1.0 : unit_to_us(f.required("time_unit", where), where));
  if (!std::isfinite(r.time_us) || (!percentage && r.time_us < 0))
    throw input_error(fmt::format("{}: real_time {} is not a valid time", where.str(), r.time_us));
  r.counters = std::move(f.numbers);
  return r;
}

// A row's fields into row_fields: strings, numbers, the one boolean; anything else
// (objects, arrays, null) is remembered as the wrong type for its key.
void read_fields(simdjson::dom::object row, row_fields& f) {
  for (auto [key, value] : row) {
    switch (value.type()) {
      case simdjson::dom::element_type::STRING:
        f.strings.emplace_back(key, std::string_view(value));
        if (key == "real_time" || key == "error_occurred" || key == "repetition_index") f.wrong_type.push_back(key);
        break;
      case simdjson::dom::element_type::INT64:
      case simdjson::dom::element_type::UINT64:
      case simdjson::dom::element_type::DOUBLE: {
        double v = 0;
        if (value.get_double().get(v)) {
          f.wrong_type.push_back(key);
          break;
        }
        if (key == "real_time") {
          f.real_time = v;
        } else if (key == "repetition_index") {
          std::int64_t index = 0;
          if (value.get_int64().get(index)) {  // a fraction, or beyond int64
            f.wrong_type.push_back(key);
          } else {
            f.repetition_index = index;
          }
        } else if (key == "error_occurred") {
          f.wrong_type.push_back(key);
        } else if (framework_fields.count(key) == 0) {
          f.numbers.emplace_back(intern(key), v);
        }
        break;
      }
      case simdjson::dom::element_type::BOOL:
        if (key == "error_occurred") {
          f.error_occurred = bool(value);
        } else {
          f.wrong_type.push_back(key);
        }
        break;
      default:
        f.wrong_type.push_back(key);
    }
  }
}

void parse_name_into(raw_row& row) {
  try {
    bench_name n = parse_name(row.name);
    row.space = std::move(n.space);
    row.experiment = std::move(n.experiment);
    row.params.reserve(n.params.size());
    for (auto& p : n.params) row.params.emplace_back(std::move(p.key), std::move(p.value));
  } catch (const std::exception&) {
    // Not a membench name (another Google Benchmark program): the whole name is the experiment.
    row.experiment = row.name;
  }
}

}  // namespace

counter_set::counter_set(std::vector<value_type> v) : v_(std::move(v)) {
  auto by_name = [](const value_type& a, const value_type& b) { return a.first < b.first; };
  // Google Benchmark writes counters in name order: usually nothing to sort.
  if (!std::is_sorted(v_.begin(), v_.end(), by_name)) std::stable_sort(v_.begin(), v_.end(), by_name);
  v_.erase(std::unique(v_.begin(), v_.end(), [](const value_type& a, const value_type& b) { return a.first == b.first; }),
           v_.end());
}

const double* counter_set::find(std::string_view name) const noexcept {
  const auto it = std::lower_bound(v_.begin(), v_.end(), name,
                                   [](const value_type& a, std::string_view n) { return a.first < n; });
  return it != v_.end() && it->first == name ? &it->second : nullptr;
}

double counter_set::at(std::string_view name) const {
  const double* v = find(name);
  if (v == nullptr) throw std::out_of_range(std::string(name));
  return *v;
}

std::optional<double> result::value(std::string_view what) const {
  if (error) return std::nullopt;
  if (what == "time") return time_us;
  const double* v = counters.find(what);
  if (v == nullptr) return std::nullopt;
  return *v;
}

std::string result::param(std::string_view key) const {
  for (const auto& [k, v] : params) {
    if (k == key) return v;
  }
  return {};
}

std::string result_file::build() const {
  const auto it = context.find("membench_cache_mode");
  return it == context.end() ? "unknown" : it->second;
}

std::string result_file::gpu() const {
  const auto it = context.find("gpu_name");
  return it == context.end() ? "unknown" : it->second;
}

double result_file::peak_gbps() const {
  const auto it = context.find("gpu_peak_dram_gbps");
  if (it == context.end()) return 0;
  double v = 0;
  const auto [p, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return ec == std::errc() ? v : 0;
}

std::string result_file::context_value(const std::string& key) const {
  const auto it = context.find(key);
  return it == context.end() ? "?" : it->second;
}

const result* result_file::find(std::string_view name) const {
  if (index.size() == results.size()) {
    const auto it = index.find(std::string(name));
    return it == index.end() ? nullptr : &results[it->second];
  }
  for (const auto& r : results) {  // built by hand, without an index
    if (r.name == name) return &r;
  }
  return nullptr;
}

namespace {

result_file parse_padded(const simdjson::padded_string& padded, const std::string& path) {
  // simdjson: nlohmann_json's parser alone took ~2 s for 100 000 membench rows (100 MB).
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (const auto err = parser.parse(padded).get(doc); err)
    throw input_error(fmt::format("{}: not valid JSON (truncated or malformed?): {}", path, simdjson::error_message(err)));
  simdjson::dom::object top;
  if (doc.get_object().get(top)) throw input_error(fmt::format("{}: not a Google Benchmark JSON object", path));

  result_file f;
  f.path = path;
  simdjson::dom::element context;
  if (!top["context"].get(context)) {
    simdjson::dom::object ctx;
    if (context.get_object().get(ctx)) throw input_error(fmt::format("{}: \"context\" is not an object", path));
    for (auto [key, value] : ctx) {
      std::string_view sv;
      f.context[std::string(key)] = value.get_string().get(sv) ? simdjson::minify(value) : std::string(sv);
    }
  }
  simdjson::dom::array benchmarks;
  if (top["benchmarks"].get_array().get(benchmarks)) throw input_error(fmt::format("{}: no \"benchmarks\" array", path));
  std::vector<simdjson::dom::element> elements;
  elements.reserve(benchmarks.size());
  for (simdjson::dom::element e : benchmarks) elements.push_back(e);
  // Rows are independent: read them on several threads (the document is read-only now).
  std::vector<raw_row> all(elements.size());
  auto read_range = [&](std::size_t begin, std::size_t end) {
    row_fields fields;
    for (std::size_t i = begin; i < end; ++i) {
      const location where{path, i};
      simdjson::dom::object row;
      if (elements[i].get_object().get(row)) throw input_error(fmt::format("{}: not an object", where.str()));
      fields.clear();
      fields.numbers.reserve(64);  // moved out with each row
      read_fields(row, fields);
      all[i] = check_row(fields, where);
      parse_name_into(all[i]);
    }
  };
  constexpr std::size_t rows_per_thread = 4096;
  const std::size_t threads =
      std::clamp<std::size_t>(elements.size() / rows_per_thread, 1, std::max(1u, std::thread::hardware_concurrency()));
  if (threads == 1) {
    read_range(0, elements.size());
  } else {
    std::vector<std::future<void>> parts;
    const std::size_t chunk = (elements.size() + threads - 1) / threads;
    for (std::size_t b = 0; b < elements.size(); b += chunk)
      parts.push_back(std::async(std::launch::async, read_range, b, std::min(elements.size(), b + chunk)));
    for (auto& p : parts) p.get();  // the first failing part, in file order, reports
  }

  // Group rows by name, keeping first-seen order; reject exact duplicates.
  std::vector<std::vector<raw_row*>> groups;
  std::unordered_map<std::string_view, std::size_t> group_of;
  for (raw_row& r : all) {
    const auto [it, fresh] = group_of.emplace(r.name, groups.size());
    if (fresh) groups.emplace_back();
    auto& g = groups[it->second];
    for (const raw_row* o : g) {
      if (o->aggregate == r.aggregate && (!r.aggregate.empty() || o->repetition == r.repetition))
        throw input_error(fmt::format("{}: duplicate benchmark '{}'{}", path, r.name,
                                      r.aggregate.empty() ? "" : fmt::format(" ({})", r.aggregate)));
    }
    g.push_back(&r);
  }
  f.results.reserve(groups.size());
  f.index.reserve(groups.size());

  for (auto& group : groups) {
    raw_row& first = *group.front();
    const std::string& name = first.name;
    result res;
    res.name = name;
    res.space = std::move(first.space);
    res.experiment = std::move(first.experiment);
    res.params = std::move(first.params);
    std::vector<raw_row*> iterations;
    const raw_row* agg_median = nullptr;
    const raw_row* agg_mean = nullptr;
    const raw_row* agg_cv = nullptr;
    for (raw_row* r : group) {
      if (r->failed) {
        res.error = r->error;
        res.skipped = r->error.rfind("skipped:", 0) == 0;
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
    if (!res.error) {
      if (!iterations.empty()) {
        for (const raw_row* r : iterations) res.rep_times_us.push_back(r->time_us);
        res.time_us = median(res.rep_times_us);
        res.label = iterations.front()->label;
        if (iterations.size() == 1) {
          res.counters = counter_set(std::move(iterations.front()->counters));
        } else {
          std::map<std::string_view, std::vector<double>> per_counter;
          for (const raw_row* r : iterations) {
            for (const auto& [k, v] : r->counters) per_counter[k].push_back(v);
          }
          std::vector<counter_set::value_type> medians;
          for (auto& [k, v] : per_counter) medians.emplace_back(k, median(std::move(v)));
          res.counters = counter_set(std::move(medians));
        }
        if (res.rep_times_us.size() >= 2) {
          double mean = 0, sq = 0;
          for (double t : res.rep_times_us) mean += t;
          mean /= static_cast<double>(res.rep_times_us.size());
          for (double t : res.rep_times_us) sq += (t - mean) * (t - mean);
          res.rep_cv = mean > 0 ? std::sqrt(sq / static_cast<double>(res.rep_times_us.size() - 1)) / mean : -1;
        }
      } else if (agg_median != nullptr || agg_mean != nullptr) {
        const raw_row* a = agg_median != nullptr ? agg_median : agg_mean;  // aggregates-only file
        res.time_us = a->time_us;
        res.counters = counter_set(a->counters);
        res.label = a->label;
        if (agg_cv != nullptr) res.rep_cv = agg_cv->time_us;  // Google Benchmark writes cv as a fraction
      } else {
        throw input_error(fmt::format("{}: benchmark '{}' has neither iteration rows nor a mean/median", path, name));
      }
    }
    f.index.emplace(res.name, f.results.size());
    f.results.push_back(std::move(res));
  }
  return f;
}

}  // namespace

result_file parse_results(std::string_view text, const std::string& path) {
  return parse_padded(simdjson::padded_string(text), path);
}

result_file load_results(const std::string& path) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text)) throw input_error(fmt::format("{}: cannot open", path));
  return parse_padded(text, path);
}

std::optional<double> numeric_value(std::string_view v) {
  if (v.empty()) return std::nullopt;
  if (v.back() == 'K' || v.back() == 'M' || v.back() == 'G' || v.back() == 'T') {
    try {
      return static_cast<double>(parse_size(v));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  double d = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(d)) return std::nullopt;  // "nan" sorts nowhere
  return d;
}

bool value_less(std::string_view a, std::string_view b) {
  const auto na = numeric_value(a), nb = numeric_value(b);
  if (na && nb && *na != *nb) return *na < *nb;
  if (na.has_value() != nb.has_value()) return na.has_value();  // numbers first
  return a < b;
}

bool result_less(const result& a, const result& b) {
  if (a.space != b.space) return a.space < b.space;
  if (a.experiment != b.experiment) return a.experiment < b.experiment;
  const std::size_t n = std::min(a.params.size(), b.params.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a.params[i].first != b.params[i].first) return a.params[i].first < b.params[i].first;
    if (a.params[i].second != b.params[i].second) return value_less(a.params[i].second, b.params[i].second);
  }
  if (a.params.size() != b.params.size()) return a.params.size() < b.params.size();
  return a.name < b.name;
}

}  // namespace membench::report
