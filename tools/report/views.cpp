#include "views.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

namespace membench::report {
namespace {

std::regex make_filter(const std::string& f) {
  try {
    return std::regex(f.empty() ? std::string(".") : f, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error& e) {
    throw input_error(fmt::format("--filter '{}': not a valid regular expression ({})", f, e.what()));
  }
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Every key a result can be pivoted on: its name keys plus where it came from. Views
// into the result and into `origin` (the file's build, gpu and base name).
using key_list = std::vector<std::pair<std::string_view, std::string_view>>;
struct file_origin {
  std::string build, gpu, file;
};
key_list keys_of(const result& r, const file_origin& origin) {
  key_list k{{"space", r.space}, {"experiment", r.experiment}, {"build", origin.build}, {"gpu", origin.gpu},
             {"file", origin.file}};
  for (const auto& [key, v] : r.params) k.emplace_back(key, v);
  return k;
}
const std::string_view* find_key(const key_list& keys, std::string_view k) {
  for (const auto& kv : keys) {
    if (kv.first == k) return &kv.second;
  }
  return nullptr;
}

cell value_cell(const result& r, const std::string& what) {
  if (r.error) return {r.skipped ? "skipped" : "error", NAN, r.skipped ? tone::muted : tone::bad};
  const auto v = r.value(what);
  if (!v) return {"-", NAN, tone::muted};
  return {format_value(*v), *v, tone::plain};
}

// The params of a result without its experiment, as a row label: "type:f32 offset:4".
std::string param_label(const result& r) {
  std::string s;
  for (const auto& [k, v] : r.params) s += fmt::format("{}{}:{}", s.empty() ? "" : " ", k, v);
  return s.empty() ? r.name : s;
}

std::string experiment_of(const result& r) { return r.space.empty() ? r.experiment : r.space + "/" + r.experiment; }

// A chart when the rows of a table differ in one numeric key only.
void add_chart(table& t, const std::string& x_key, const std::vector<double>& xs, const std::vector<std::string>& series,
               const std::vector<std::vector<double>>& ys, const std::string& y_label) {
  if (xs.size() < 3) return;
  chart c;
  c.x_label = x_key;
  c.y_label = y_label;
  c.xs = xs;
  c.series = series;
  c.ys = ys;
  const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
  c.log_x = *lo > 0 && *hi / *lo >= 16;
  t.charts.push_back(std::move(c));
}

cell ratio_cell(double num, double den, bool lower_better) {
  if (!(den > 0) || std::isnan(num)) return {"-", NAN, tone::muted};
  const double r = num / den;
  tone mood = tone::plain;
  if (std::abs(r - 1) > 0.05) mood = ((r > 1) != lower_better) ? tone::good : tone::bad;
  return {fmt::format("{:.3f}", r), r, mood};
}

}  // namespace

std::string format_value(double v) {
  const double a = std::abs(v);
  if (a >= 1000) return fmt::format("{:.0f}", v);
  if (a >= 100) return fmt::format("{:.1f}", v);
  if (a >= 1 || a == 0) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3g}", v);
}

std::string unit_of(const std::string& value) {
  static const std::map<std::string, std::string> units{
      {"time", "us (median sample)"},
      {"gb_per_s", "GB/s (decimal, median sample)"},
      {"pct_peak", "% of theoretical DRAM peak"},
      {"bytes_per_second", "bytes/s"},
      {"bytes", "bytes per launch"},
      {"noise_pct", "% (stddev/mean of samples)"},
      {"t_min_us", "us"},
      {"t_median_us", "us"},
      {"t_mean_us", "us"},
      {"t_max_us", "us"},
      {"samples", "samples"},
      {"load_efficiency_pct", "% (requested/moved bytes)"},
      {"sm_clock_mhz", "MHz"},
      {"power_w", "W"},
      {"temp_c", "degrees C"},
  };
  const auto it = units.find(value);
  return it == units.end() ? value : it->second;
}

bool lower_is_better(const std::string& value) {
  return value == "time" || (value.size() > 3 && value.compare(value.size() - 3, 3, "_us") == 0) ||
         value == "noise_pct";
}

document view_table(const std::vector<result_file>& files, const table_options& opt) {
  const std::regex filter = make_filter(opt.filter);
  struct record {
    key_list keys;
    const result* r;
  };
  std::vector<file_origin> origins;
  for (const auto& f : files) origins.push_back({f.build(), f.gpu(), base_name(f.path)});
  std::vector<record> records;
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (const auto& r : files[i].results) {
      if (std::regex_search(r.name, filter)) records.push_back({keys_of(r, origins[i]), &r});
    }
  }
  if (records.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  auto key_or_empty = [](const record& rec, std::string_view k) {
    const std::string_view* v = find_key(rec.keys, k);
    return v == nullptr ? std::string_view() : *v;
  };
  for (const auto& k : {opt.rows, opt.cols}) {
    const bool known =
        std::any_of(records.begin(), records.end(), [&](const record& rec) { return find_key(rec.keys, k) != nullptr; });
    if (!known) throw input_error(fmt::format("no matching benchmark has the key '{}'", k));
  }
  // Keys that vary (other than rows and cols) split the records into tables.
  std::set<std::string_view> all_keys;
  for (const auto& rec : records)
    for (const auto& kv : rec.keys) all_keys.insert(kv.first);
  std::vector<std::string_view> group_keys;
  std::vector<std::string> common;
  for (const std::string_view k : all_keys) {
    if (k == opt.rows || k == opt.cols) continue;
    std::set<std::string_view> values;
    for (const auto& rec : records) values.insert(key_or_empty(rec, k));
    if (values.size() == 1) {
      common.push_back(fmt::format("{}:{}", k, *values.begin()));
      continue;
    }
    // A key fixed by the column (or row) value, like the file behind a build, would only
    // split the columns apart: it does not make tables of its own.
    auto determined_by = [&](std::string_view by) {
      std::unordered_map<std::string_view, std::string_view> seen;
      for (const auto& rec : records) {
        const auto [it, fresh] = seen.emplace(key_or_empty(rec, by), key_or_empty(rec, k));
        if (!fresh && it->second != key_or_empty(rec, k)) return false;
      }
      return true;
    };
    if (determined_by(opt.cols) || determined_by(opt.rows)) continue;
    group_keys.push_back(k);
  }
  // Experiment first in titles, then the rest alphabetically.
  std::stable_sort(group_keys.begin(), group_keys.end(), [](std::string_view a, std::string_view b) {
    auto rank = [](std::string_view k) { return k == "space" ? 0 : k == "experiment" ? 1 : 2; };
    return rank(a) < rank(b);
  });
  auto group_less = [&](const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return value_less(a[i], b[i]);
    }
    return false;
  };
  std::map<std::vector<std::string_view>, std::vector<const record*>, decltype(group_less)> groups(group_less);
  for (const auto& rec : records) {
    std::vector<std::string_view> g;
    g.reserve(group_keys.size());
    for (const auto k : group_keys) g.push_back(key_or_empty(rec, k));
    groups[g].push_back(&rec);
  }

  // pct_peak is of the ceiling a row's label names (peak:pcie, ...), DRAM where it names none.
  std::string unit = unit_of(opt.value);
  if (opt.value == "pct_peak") {
    std::set<std::string> peaks;
    for (const auto& rec : records) {
      const auto at = rec.r->label.find("peak:");
      peaks.insert(at == std::string::npos ? "DRAM" : rec.r->label.substr(at + 5, rec.r->label.find(' ', at) - at - 5));
    }
    if (peaks.size() > 1 || *peaks.begin() != "DRAM") {
      std::string names;
      for (const auto& p : peaks) names += (names.empty() ? "" : ", ") + p;
      unit = fmt::format("% of the theoretical {} peak", names);
    }
  }
  document d;
  d.title = fmt::format("{} by {} and {}", opt.value, opt.rows, opt.cols);
  d.notes.push_back(fmt::format("value: {} in {}", opt.value, unit));
  for (const auto& f : files) d.notes.push_back(fmt::format("input: {} ({}, {} build)", f.path, f.gpu(), f.build()));
  if (!common.empty()) {
    std::string c;
    for (const auto& s : common) c += (c.empty() ? "" : " ") + s;
    d.notes.push_back("common to every row: " + c);
  }
  for (const auto& [g, recs] : groups) {
    table t;
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (group_keys[i] == "space") continue;
      if (!t.title.empty()) t.title += ' ';
      if (group_keys[i] != "experiment") fmt::format_to(std::back_inserter(t.title), "{}:", group_keys[i]);
      t.title += g[i];
    }
    if (t.title.empty()) t.title = experiment_of(*recs.front()->r);
    t.unit = unit;
    std::vector<std::string_view> row_values, col_values;
    for (const record* rec : recs) {
      row_values.push_back(key_or_empty(*rec, opt.rows));
      col_values.push_back(key_or_empty(*rec, opt.cols));
    }
    auto sort_unique = [](std::vector<std::string_view>& v) {
      // Builds read best in the lessons' order: default, ca, cg. Numbers by value; words in
      // the order membench registered them (a progression's steps: naive, coalesced, ...).
      auto rank = [](std::string_view x) { return x == "default" ? 0 : x == "ca" ? 1 : x == "cg" ? 2 : 3; };
      std::unordered_map<std::string_view, std::size_t> first_seen;
      for (std::size_t i = 0; i < v.size(); ++i) first_seen.emplace(v[i], i);
      std::sort(v.begin(), v.end(), [&](std::string_view a, std::string_view b) {
        if (rank(a) != rank(b)) return rank(a) < rank(b);
        if (numeric_value(a) || numeric_value(b)) return value_less(a, b);
        return first_seen.at(a) < first_seen.at(b);
      });
      v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    sort_unique(row_values);
    sort_unique(col_values);
    std::map<std::pair<std::string_view, std::string_view>, const result*> cells;
    for (const record* rec : recs) {
      auto [it, fresh] = cells.emplace(std::pair{key_or_empty(*rec, opt.rows), key_or_empty(*rec, opt.cols)}, rec->r);
      if (!fresh)
        throw input_error(fmt::format("'{}' and '{}' fall in the same cell of table '{}': add a key with --rows/--cols "
                                      "or narrow --filter",
                                      it->second->name, rec->r->name, t.title));
    }
    t.header.push_back(opt.rows);
    for (const auto& c : col_values) t.header.push_back(fmt::format("{}:{}", opt.cols, c));
    std::vector<double> xs;
    std::vector<std::vector<double>> ys(col_values.size());
    bool numeric_rows = true;
    for (const auto& rv : row_values) {
      std::vector<cell> line{{std::string(rv), NAN, tone::plain}};
      const auto x = numeric_value(rv);
      numeric_rows = numeric_rows && x.has_value();
      xs.push_back(x.value_or(NAN));
      for (std::size_t c = 0; c < col_values.size(); ++c) {
        const auto it = cells.find({rv, col_values[c]});
        cell v = it == cells.end() ? cell{"", NAN, tone::muted} : value_cell(*it->second, opt.value);
        ys[c].push_back(v.value);
        line.push_back(std::move(v));
      }
      t.rows.push_back(std::move(line));
    }
    if (numeric_rows) add_chart(t, opt.rows, xs, std::vector<std::string>(t.header.begin() + 1, t.header.end()), ys, t.unit);
    d.tables.push_back(std::move(t));
  }
  return d;
}

namespace {

// Shared by builds and gpus: one table per experiment, a column per file.
struct column_file {
  std::string heading;
  const result_file* file;
};

// Every benchmark of the columns' files, in the order membench registered them (the
// first file's order, then whatever only later files have).
std::vector<const result*> union_results(const std::vector<column_file>& cols, const std::regex& filter) {
  std::vector<const result*> out;
  std::unordered_set<std::string_view> seen;
  for (const auto& c : cols) {
    for (const auto& r : c.file->results) {
      if (seen.insert(r.name).second && std::regex_search(r.name, filter)) out.push_back(&r);
    }
  }
  return out;
}

// The table of `r`'s experiment: a new one whenever the experiment changes (results come
// in registration order, one experiment after another).
table& experiment_table(document& d, const result& r, const std::string& value, const std::vector<std::string>& columns) {
  if (d.tables.empty() || d.tables.back().title != experiment_of(r)) {
    table t;
    t.title = experiment_of(r);
    t.unit = unit_of(value);
    t.header.push_back("benchmark");
    t.header.insert(t.header.end(), columns.begin(), columns.end());
    d.tables.push_back(std::move(t));
  }
  return d.tables.back();
}

}  // namespace

document view_builds(const std::vector<result_file>& files, const common_options& opt) {
  const std::regex filter = make_filter(opt.filter);
  std::vector<column_file> cols;
  for (const std::string build : {"default", "ca", "cg"}) {
    for (const auto& f : files) {
      if (f.build() != build) continue;
      if (std::any_of(cols.begin(), cols.end(), [&](const column_file& c) { return c.heading == build; }))
        throw input_error(fmt::format("two files of the {} build ({} and another): builds compares one file per build",
                                      build, f.path));
      cols.push_back({build, &f});
    }
  }
  for (const auto& f : files) {
    if (f.build() != "default" && f.build() != "ca" && f.build() != "cg")
      throw input_error(fmt::format("{}: the context names no membench build (membench_cache_mode)", f.path));
  }
  if (cols.size() < 2) throw input_error("builds needs files of at least two builds (default, ca, cg)");
  const bool lower_better = lower_is_better(opt.value);
  document d;
  d.title = fmt::format("{} per build", opt.value);
  d.notes.push_back(fmt::format("value: {} in {}; ratios are build / {}, {} is better; |ratio - 1| > 5 % marked",
                                opt.value, unit_of(opt.value), cols.front().heading, lower_better ? "lower" : "higher"));
  for (const auto& c : cols)
    d.notes.push_back(fmt::format("{}: {} ({}, commit {})", c.heading, c.file->path, c.file->gpu(),
                                  c.file->context_value("membench_git_commit")));
  std::vector<std::string> columns;
  for (const auto& c : cols) columns.push_back(c.heading);
  for (std::size_t i = 1; i < cols.size(); ++i) columns.push_back(fmt::format("{}/{}", cols[i].heading, cols[0].heading));
  for (const result* r : union_results(cols, filter)) {
    table* t = &experiment_table(d, *r, opt.value, columns);
    std::vector<cell> line{{param_label(*r), NAN, tone::plain}};
    std::vector<double> values;
    for (const auto& c : cols) {
      const result* x = c.file->find(r->name);
      cell v = x == nullptr ? cell{"missing", NAN, tone::bad} : value_cell(*x, opt.value);
      values.push_back(v.value);
      line.push_back(std::move(v));
    }
    for (std::size_t i = 1; i < cols.size(); ++i) line.push_back(ratio_cell(values[i], values[0], lower_better));
    t->rows.push_back(std::move(line));
  }
  if (d.tables.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  return d;
}

document view_gpus(const std::vector<result_file>& files, const gpus_options& opt) {
  const std::regex filter = make_filter(opt.filter);
  std::vector<column_file> cols;
  for (const auto& f : files) {
    if (f.build() != opt.build) continue;
    // Two GPUs of one model (the GPUs of one host) are told apart by their PCI bus id.
    const std::string bus = f.context_value("gpu_pci_bus_id");
    bool same_model = false;
    for (const auto& c : cols) {
      if (c.file->gpu() != f.gpu()) continue;
      same_model = true;
      if (c.file->context_value("gpu_pci_bus_id") == bus)
        throw input_error(fmt::format("{} and {}: two {} files of one GPU ({})", c.file->path, f.path, opt.build, f.gpu()));
    }
    if (same_model) {
      for (auto& c : cols) {
        if (c.file->gpu() == f.gpu() && c.heading.find(" [") == std::string::npos)
          c.heading = fmt::format("{} [{}] ({:.0f} GB/s peak)", c.file->gpu(), c.file->context_value("gpu_pci_bus_id"),
                                  c.file->peak_gbps());
      }
      cols.push_back({fmt::format("{} [{}] ({:.0f} GB/s peak)", f.gpu(), bus, f.peak_gbps()), &f});
    } else {
      cols.push_back({fmt::format("{} ({:.0f} GB/s peak)", f.gpu(), f.peak_gbps()), &f});
    }
  }
  if (cols.empty()) throw input_error(fmt::format("no file of the {} build among the inputs", opt.build));
  const bool bandwidth = opt.value == "gb_per_s";
  document d;
  d.title = fmt::format("{} per GPU, {} build", opt.value, opt.build);
  d.notes.push_back(fmt::format("value: {} in {}{}", opt.value, unit_of(opt.value),
                                bandwidth ? "; % is of each GPU's own theoretical DRAM peak" : ""));
  for (const auto& c : cols)
    d.notes.push_back(fmt::format("{}: {} (driver {}, commit {})", c.heading, c.file->path,
                                  c.file->context_value("cuda_driver_version"),
                                  c.file->context_value("membench_git_commit")));
  std::vector<std::string> columns;
  for (const auto& c : cols) {
    columns.push_back(c.heading);
    if (bandwidth) columns.push_back("% peak");
  }
  for (const result* r : union_results(cols, filter)) {
    table* t = &experiment_table(d, *r, opt.value, columns);
    std::vector<cell> line{{param_label(*r), NAN, tone::plain}};
    for (const auto& c : cols) {
      const result* x = c.file->find(r->name);
      cell v = x == nullptr ? cell{"missing", NAN, tone::muted} : value_cell(*x, opt.value);
      const double peak = c.file->peak_gbps();
      if (bandwidth) {
        const bool has = v.numeric() && peak > 0;
        line.push_back(std::move(v));
        line.push_back(has ? cell{fmt::format("{:.1f}", 100 * line.back().value / peak), 100 * line.back().value / peak}
                           : cell{"-", NAN, tone::muted});
      } else {
        line.push_back(std::move(v));
      }
    }
    t->rows.push_back(std::move(line));
  }
  if (d.tables.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  return d;
}

const char* to_string(verdict v) noexcept {
  switch (v) {
    case verdict::same: return "same";
    case verdict::faster: return "faster";
    case verdict::slower: return "slower";
    case verdict::unsure: return "unsure";
  }
  return "?";
}

verdict judge(double change, double delta_us, double uncertainty, double threshold, double resolution_us) {
  if (std::abs(change) <= threshold) return verdict::same;
  if (std::abs(delta_us) < resolution_us) return verdict::unsure;  // below what the timing resolves
  if (std::abs(change) < 3 * uncertainty) return verdict::unsure;  // beyond the threshold but within the noise
  return change > 0 ? verdict::slower : verdict::faster;
}

namespace {

// Relative uncertainty of one result's time: the spread of its repetitions when there
// are several, otherwise the standard error of its samples (noise / sqrt(samples)).
double relative_uncertainty(const result& r) {
  if (r.rep_cv >= 0) return r.rep_cv;
  const double* noise = r.counters.find("noise_pct");
  const double* samples = r.counters.find("samples");
  if (noise == nullptr) return 0;
  const double n = samples == nullptr ? 1 : std::max(1.0, *samples);
  return *noise / 100 / std::sqrt(n);
}

}  // namespace

compare_outcome view_compare(const result_file& base, const result_file& next, const compare_options& opt) {
  const std::regex filter = make_filter(opt.filter);
  const double threshold = opt.threshold_pct / 100;
  compare_outcome out;
  document& d = out.doc;
  d.title = "membench compare";
  table t;
  t.title = opt.show_all ? "per benchmark" : "benchmarks that changed (--all lists every one)";
  t.unit = "time in us (median sample); GB/s decimal; change = new / base - 1";
  t.header = {"benchmark", "base us", "new us", "time change", "base GB/s", "new GB/s", "GB/s change", "noise", "verdict"};
  std::vector<const result*> names;
  for (const auto& r : base.results) {
    if (std::regex_search(r.name, filter)) names.push_back(&r);
  }
  std::vector<std::string> problems;
  double log_sum = 0;
  int compared = 0;
  for (const result* b : names) {
    const result* n = next.find(b->name);
    std::vector<cell> line{{b->name, NAN, tone::plain}};
    auto unusable = [&](const std::string& why) {
      ++out.unusable;
      problems.push_back(fmt::format("{}: {}", b->name, why));
      line.push_back({why, NAN, tone::bad});
      for (int i = 0; i < 7; ++i) line.push_back({"", NAN, tone::muted});
      t.rows.push_back(std::move(line));
    };
    if (n == nullptr) {
      unusable(fmt::format("missing in {}", next.path));
      continue;
    }
    if (b->skipped && n->skipped) {
      // Skipped for the same reason on both sides (a size this GPU cannot hold): nothing to compare.
      d.notes.push_back(fmt::format("skipped in both: {}", b->name));
      continue;
    }
    if (b->error || n->error) {
      unusable(fmt::format("error row in {}: {}", b->error ? base.path : next.path, b->error ? *b->error : *n->error));
      continue;
    }
    if (!(b->time_us > 0) || !(n->time_us > 0)) {
      unusable("zero time");
      continue;
    }
    const double change = n->time_us / b->time_us - 1;
    const double u = std::hypot(relative_uncertainty(*b), relative_uncertainty(*n));
    const verdict v = judge(change, n->time_us - b->time_us, u, threshold, opt.resolution_us);
    log_sum += std::log(n->time_us / b->time_us);
    ++compared;
    switch (v) {
      case verdict::same: ++out.same; break;
      case verdict::faster: ++out.faster; break;
      case verdict::slower: ++out.slower; break;
      case verdict::unsure: ++out.unsure; break;
    }
    const tone mood = v == verdict::slower ? tone::bad : v == verdict::faster ? tone::good : v == verdict::unsure ? tone::muted : tone::plain;
    line.push_back({format_value(b->time_us), b->time_us});
    line.push_back({format_value(n->time_us), n->time_us});
    line.push_back({fmt::format("{:+.2f} %", 100 * change), 100 * change, mood});
    const auto gb = b->value("gb_per_s"), gn = n->value("gb_per_s");
    if (gb && gn && *gb > 0) {
      line.push_back({format_value(*gb), *gb});
      line.push_back({format_value(*gn), *gn});
      line.push_back({fmt::format("{:+.2f} %", 100 * (*gn / *gb - 1)), 100 * (*gn / *gb - 1), mood});
    } else {
      for (int i = 0; i < 3; ++i) line.push_back({"-", NAN, tone::muted});
    }
    line.push_back({fmt::format("{:.2f} %", 100 * u), 100 * u});
    line.push_back({to_string(v), NAN, mood});
    if (v != verdict::same || opt.show_all) t.rows.push_back(std::move(line));
  }
  for (const auto& r : next.results) {
    if (std::regex_search(r.name, filter) && base.find(r.name) == nullptr)
      d.notes.push_back(fmt::format("only in {}: {}", next.path, r.name));
  }
  const bool shared = std::any_of(names.begin(), names.end(), [&](const result* b) { return next.find(b->name) != nullptr; });
  if (!shared)
    throw input_error(fmt::format("{} and {} share no benchmark matching --filter '{}'", base.path, next.path, opt.filter));
  out.geomean_ratio = compared > 0 ? std::exp(log_sum / compared) : 1;
  d.notes.insert(d.notes.begin(),
                 {fmt::format("base: {} ({}, {} build, commit {})", base.path, base.gpu(), base.build(),
                              base.context_value("membench_git_commit")),
                  fmt::format("new:  {} ({}, {} build, commit {})", next.path, next.gpu(), next.build(),
                              next.context_value("membench_git_commit")),
                  fmt::format("{} compared: {} slower, {} faster, {} same, {} unsure; {} unusable", compared, out.slower,
                              out.faster, out.same, out.unsure, out.unusable),
                  fmt::format("geometric mean of new/base time: {:.4f} ({:+.2f} %)", out.geomean_ratio,
                              100 * (out.geomean_ratio - 1)),
                  fmt::format("verdict: |change| <= {} % is same; beyond it, slower/faster only when the change is at "
                              "least {} us and 3x the combined uncertainty (spread of repetitions, else standard error of "
                              "the samples), otherwise unsure",
                              opt.threshold_pct, opt.resolution_us)});
  if (base.gpu() != next.gpu() || base.build() != next.build())
    d.notes.push_back(fmt::format("note: comparing {} {} build against {} {} build", base.gpu(), base.build(), next.gpu(),
                                  next.build()));
  for (const auto& p : problems) d.notes.push_back("unusable: " + p);
  d.tables.push_back(std::move(t));
  return out;
}

}  // namespace membench::report
