#include "views.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "common/schema.hpp"

namespace membench::report {

name_filter::name_filter(const std::string& expression) {
  // Most filters are a plain part of a name: no regular expression needed to find those.
  if (expression.find_first_of(".^$|()[]{}*+?\\") == std::string::npos) {
    literal_ = expression;
    return;
  }
  try {
    regex_ = std::make_shared<const std::regex>(expression, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error& e) {
    throw input_error(fmt::format("--filter '{}': not a valid regular expression ({})", expression, e.what()));
  }
}

bool name_filter::operator()(const std::string& name) const {
  return regex_ ? std::regex_search(name, *regex_) : name.find(literal_) != std::string::npos;
}

read_options reads_for(const common_options& opt, bool evidence) {
  read_options r;
  r.all_counters = false;
  r.evidence = evidence;
  // Without --value a view shows gb_per_s where rows have it; pct_peak captions read labels.
  r.counters = {opt.value.empty() ? std::string(schema::counter("gb_per_s").key) : opt.value};
  return r;
}

std::string resolve_value(const std::vector<const result_file*>& files, const common_options& opt) {
  auto has = [&](std::string_view counter) {
    return std::any_of(files.begin(), files.end(), [&](const result_file* f) {
      return std::binary_search(f->counter_names.begin(), f->counter_names.end(), counter);
    });
  };
  const std::string_view gb = schema::counter("gb_per_s").key;
  if (opt.value.empty()) return has(gb) ? std::string(gb) : "time";
  if (opt.value == "time" || has(opt.value)) return opt.value;
  std::set<std::string_view> names;
  for (const result_file* f : files) names.insert(f->counter_names.begin(), f->counter_names.end());
  std::string list = "time";
  for (const auto n : names) list += fmt::format(", {}", n);
  throw input_error(fmt::format("no benchmark has the value '{}' (--value: {})", opt.value, list));
}

namespace {

// A file's context value under a schema key ("?" when absent).
std::string context_of(const result_file& f, const schema::field& key) { return f.context_value(std::string(key.key)); }

std::vector<const result_file*> pointers(const std::vector<result_file>& files) {
  std::vector<const result_file*> v;
  for (const auto& f : files) v.push_back(&f);
  return v;
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
  key_list k{{"space", r.space()}, {"experiment", r.experiment()}, {"build", origin.build}, {"gpu", origin.gpu},
             {"file", origin.file}};
  for (std::size_t i = 0; i < r.param_count(); ++i) k.emplace_back(r.param_key(i), r.param_value(i));
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
  // Captions that say more than the schema's unit, as the tables have always shown them.
  static const std::map<std::string_view, std::string_view> captions{
      {"time", "us (median sample)"},
      {schema::counter("gb_per_s").key, "GB/s (decimal, median sample)"},
      {schema::counter("pct_peak").key, "% of theoretical DRAM peak"},
      {schema::counter("bytes").key, "bytes per launch"},
      {schema::counter("noise_pct").key, "% (stddev/mean of samples)"},
      {schema::counter("load_efficiency_pct").key, "% (requested/moved bytes)"},
      {schema::counter("temp_c").key, "degrees C"},
  };
  if (const auto it = captions.find(value); it != captions.end()) return std::string(it->second);
  if (const schema::field* f = schema::find_counter(value)) return std::string(f->unit);
  return value;  // a counter outside the schema (--metric-list): its name says what it is
}

bool lower_is_better(const std::string& value) {
  return value == "time" || (value.size() > 3 && value.compare(value.size() - 3, 3, "_us") == 0) ||
         value == "noise_pct";
}

namespace {

// The pivot of the rows of `files` the filter keeps (and, when `experiment` is not empty,
// of that experiment only); `opt.value` is resolved.
document pivot(const std::vector<result_file>& files, const name_filter& filter, const std::string& experiment,
               table_options opt) {
  struct record {
    key_list keys;
    const result* r;
  };
  std::vector<file_origin> origins;
  for (const auto& f : files) origins.push_back({f.build(), f.gpu(), base_name(f.path)});
  std::vector<record> records;
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (const auto& r : files[i].results) {
      if (filter(r.name) && (experiment.empty() || r.family() == experiment))
        records.push_back({keys_of(r, origins[i]), &r});
    }
  }
  if (records.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  auto key_or_empty = [](const record& rec, std::string_view k) {
    const std::string_view* v = find_key(rec.keys, k);
    return v == nullptr ? std::string_view() : *v;
  };
  auto has_key = [&](std::string_view k) {
    return std::any_of(records.begin(), records.end(), [&](const record& rec) { return find_key(rec.keys, k) != nullptr; });
  };
  // Name keys in the order the names have them, then where a row came from.
  std::vector<std::string_view> key_order;
  for (const auto& rec : records) {
    for (std::size_t i = 5; i < rec.keys.size(); ++i) {
      if (std::find(key_order.begin(), key_order.end(), rec.keys[i].first) == key_order.end())
        key_order.push_back(rec.keys[i].first);
    }
  }
  for (std::string_view k : {"experiment", "space", "file", "build", "gpu"}) key_order.push_back(k);
  auto varies = [&](std::string_view k) {
    std::set<std::string_view> values;
    for (const auto& rec : records) values.insert(key_or_empty(rec, k));
    return values.size() > 1;
  };
  // Without --rows: bytes, else the first key that varies. Without --cols: the build for
  // membench files, else the files, else the next key that varies.
  const std::string_view bytes = schema::name_key("bytes").key;
  if (opt.rows.empty()) {
    const auto it = std::find_if(key_order.begin(), key_order.end(), varies);
    opt.rows = has_key(bytes) ? bytes : it != key_order.end() ? *it : "file";
  }
  if (opt.cols.empty()) {
    const bool membench = std::any_of(origins.begin(), origins.end(), [](const file_origin& o) { return o.build != "unknown"; });
    const auto it = std::find_if(key_order.begin(), key_order.end(),
                                 [&](std::string_view k) { return k != opt.rows && k != "file" && varies(k); });
    opt.cols = membench ? "build" : files.size() > 1 ? "file" : it != key_order.end() ? std::string(*it) : "file";
  }
  for (const auto& k : {opt.rows, opt.cols}) {
    if (!has_key(k)) {
      std::set<std::string_view> known(key_order.begin(), key_order.end());
      std::string list;
      for (const auto x : known) list += fmt::format("{}{}", list.empty() ? "" : ", ", x);
      throw input_error(fmt::format("no matching benchmark has the key '{}' (keys: {})", k, list));
    }
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
    const std::string token = fmt::format("{}:", schema::label("peak").key);
    for (const auto& rec : records) {
      const std::string_view label = rec.r->label;
      const auto at = label.find(token);
      peaks.insert(at == std::string_view::npos
                       ? std::string("DRAM")
                       : std::string(label.substr(at + token.size(), label.find(' ', at) - at - token.size())));
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
    if (t.title.empty()) t.title = recs.front()->r->family();
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

}  // namespace

document view_table(const std::vector<result_file>& files, const table_options& options) {
  const name_filter filter(options.filter);
  table_options opt = options;
  opt.value = resolve_value(pointers(files), options);
  // Without --rows or --cols, each experiment is laid out on its own keys (another
  // program's benchmarks share few).
  std::vector<std::string> experiments;
  if (opt.rows.empty() || opt.cols.empty()) {
    for (const auto& f : files) {
      for (const auto& r : f.results) {
        if (filter(r.name) && std::find(experiments.begin(), experiments.end(), r.family()) == experiments.end())
          experiments.push_back(r.family());
      }
    }
  }
  // An experiment without a key asked for has no table of its own.
  auto has = [&](const std::string& experiment, const std::string& key) {
    if (key.empty() || key == "space" || key == "experiment" || key == "build" || key == "gpu" || key == "file")
      return true;
    for (const auto& f : files) {
      for (const auto& r : f.results) {
        if (!filter(r.name) || r.family() != experiment) continue;
        for (std::size_t i = 0; i < r.param_count(); ++i) {
          if (r.param_key(i) == key) return true;
        }
      }
    }
    return false;
  };
  std::erase_if(experiments, [&](const std::string& e) { return !has(e, opt.rows) || !has(e, opt.cols); });
  if (experiments.size() <= 1) return pivot(files, filter, experiments.size() == 1 ? experiments[0] : "", opt);
  document d;
  d.title = fmt::format("{} per experiment", opt.value);
  d.notes.push_back(fmt::format("value: {} in {}", opt.value, unit_of(opt.value)));
  for (const auto& f : files) d.notes.push_back(fmt::format("input: {} ({}, {} build)", f.path, f.gpu(), f.build()));
  for (const auto& e : experiments) {
    document one = pivot(files, filter, e, opt);
    for (auto& t : one.tables) {
      if (t.title.rfind(e, 0) != 0) t.title = t.title == "" ? e : fmt::format("{} {}", e, t.title);
      d.tables.push_back(std::move(t));
    }
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
std::vector<const result*> union_results(const std::vector<column_file>& cols, const name_filter& filter) {
  std::vector<const result*> out;
  std::unordered_set<std::string_view> seen;
  for (const auto& c : cols) {
    for (const auto& r : c.file->results) {
      if (seen.insert(r.name).second && filter(r.name)) out.push_back(&r);
    }
  }
  return out;
}

// The table of `r`'s experiment: a new one whenever the experiment changes (results come
// in registration order, one experiment after another).
table& experiment_table(document& d, const result& r, const std::string& value, const std::vector<std::string>& columns) {
  if (d.tables.empty() || d.tables.back().title != r.family()) {
    table t;
    t.title = r.family();
    t.unit = unit_of(value);
    t.header.push_back("benchmark");
    t.header.insert(t.header.end(), columns.begin(), columns.end());
    d.tables.push_back(std::move(t));
  }
  return d.tables.back();
}

}  // namespace

document view_builds(const std::vector<result_file>& files, const common_options& options) {
  const name_filter filter(options.filter);
  common_options opt = options;
  opt.value = resolve_value(pointers(files), options);
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
                                  context_of(*c.file, schema::context_key("membench_git_commit"))));
  std::vector<std::string> columns;
  for (const auto& c : cols) columns.push_back(c.heading);
  for (std::size_t i = 1; i < cols.size(); ++i) columns.push_back(fmt::format("{}/{}", cols[i].heading, cols[0].heading));
  for (const result* r : union_results(cols, filter)) {
    table* t = &experiment_table(d, *r, opt.value, columns);
    std::vector<cell> line{{r->param_text(), NAN, tone::plain}};
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

document view_gpus(const std::vector<result_file>& files, const gpus_options& options) {
  const name_filter filter(options.filter);
  gpus_options opt = options;
  opt.value = resolve_value(pointers(files), options);
  std::vector<column_file> cols;
  for (const auto& f : files) {
    if (f.build() != opt.build) continue;
    // Two GPUs of one model (the GPUs of one host) are told apart by their PCI bus id.
    const std::string bus = context_of(f, schema::context_key("gpu_pci_bus_id"));
    bool same_model = false;
    for (const auto& c : cols) {
      if (c.file->gpu() != f.gpu()) continue;
      same_model = true;
      if (context_of(*c.file, schema::context_key("gpu_pci_bus_id")) == bus)
        throw input_error(fmt::format("{} and {}: two {} files of one GPU ({})", c.file->path, f.path, opt.build, f.gpu()));
    }
    if (same_model) {
      for (auto& c : cols) {
        if (c.file->gpu() == f.gpu() && c.heading.find(" [") == std::string::npos)
          c.heading = fmt::format("{} [{}] ({:.0f} GB/s peak)", c.file->gpu(), context_of(*c.file, schema::context_key("gpu_pci_bus_id")),
                                  c.file->peak_gbps());
      }
      cols.push_back({fmt::format("{} [{}] ({:.0f} GB/s peak)", f.gpu(), bus, f.peak_gbps()), &f});
    } else {
      cols.push_back({fmt::format("{} ({:.0f} GB/s peak)", f.gpu(), f.peak_gbps()), &f});
    }
  }
  if (cols.empty()) throw input_error(fmt::format("no file of the {} build among the inputs", opt.build));
  const bool bandwidth = opt.value == schema::counter("gb_per_s").key;
  document d;
  d.title = fmt::format("{} per GPU, {} build", opt.value, opt.build);
  d.notes.push_back(fmt::format("value: {} in {}{}", opt.value, unit_of(opt.value),
                                bandwidth ? "; % is of each GPU's own theoretical DRAM peak" : ""));
  for (const auto& c : cols)
    d.notes.push_back(fmt::format("{}: {} (driver {}, commit {})", c.heading, c.file->path,
                                  context_of(*c.file, schema::context_key("cuda_driver_version")),
                                  context_of(*c.file, schema::context_key("membench_git_commit"))));
  std::vector<std::string> columns;
  for (const auto& c : cols) {
    columns.push_back(c.heading);
    if (bandwidth) columns.push_back("% peak");
  }
  for (const result* r : union_results(cols, filter)) {
    table* t = &experiment_table(d, *r, opt.value, columns);
    std::vector<cell> line{{r->param_text(), NAN, tone::plain}};
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

}  // namespace membench::report
