// table: any files pivoted on two keys of the benchmark names, one table per combination
// of the other keys that vary. Without --rows or --cols each experiment (family) is laid
// out on its own keys; the rows are split by family in one pass, so the work grows with
// the rows, not with rows times families.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "views/view_cells.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Where a result came from: the keys it can be pivoted on besides its name's.
struct file_origin {
  std::string build, gpu, file;
};

// A result of the rows a pivot lays out, with the file it came from.
struct located {
  const result* r;
  const file_origin* origin;
};

// Every key a result can be pivoted on: its name keys plus where it came from. Views
// into the result and into its origin.
using key_list = std::vector<std::pair<std::string_view, std::string_view>>;
constexpr std::size_t origin_keys = 5;  // space, experiment, build, gpu, file come first

key_list keys_of(const located& x) {
  const result& r = *x.r;
  key_list k{{"space", r.space()}, {"experiment", r.experiment()}, {"build", x.origin->build},
             {"gpu", x.origin->gpu}, {"file", x.origin->file}};
  for (std::size_t i = 0; i < r.param_count(); ++i) k.emplace_back(r.param_key(i), r.param_value(i));
  return k;
}

struct record {
  key_list keys;
  const result* r;
};

std::string_view key_or_empty(const record& rec, std::string_view k) {
  for (const auto& kv : rec.keys) {
    if (kv.first == k) return kv.second;
  }
  return {};
}

bool has_key(const std::vector<record>& records, std::string_view k) {
  return std::any_of(records.begin(), records.end(), [&](const record& rec) {
    return std::any_of(rec.keys.begin(), rec.keys.end(), [&](const auto& kv) { return kv.first == k; });
  });
}

bool varies(const std::vector<record>& records, std::string_view k) {
  if (records.empty()) return false;
  const std::string_view first = key_or_empty(records.front(), k);
  return std::any_of(records.begin() + 1, records.end(), [&](const record& rec) { return key_or_empty(rec, k) != first; });
}

// Name keys in the order the names have them, then where a row came from.
std::vector<std::string_view> key_order(const std::vector<record>& records) {
  std::vector<std::string_view> order;
  for (const auto& rec : records) {
    for (std::size_t i = origin_keys; i < rec.keys.size(); ++i) {
      if (std::find(order.begin(), order.end(), rec.keys[i].first) == order.end()) order.push_back(rec.keys[i].first);
    }
  }
  for (std::string_view k : {"experiment", "space", "file", "build", "gpu"}) order.push_back(k);
  return order;
}

// Without --rows: bytes, else the first key that varies. Without --cols: the build for
// membench files, else the files, else the next key that varies. throws input_error for a
// key no row has
void choose_axes(const std::vector<record>& records, bool membench, std::size_t files, table_options& opt) {
  const std::vector<std::string_view> order = key_order(records);
  const std::string_view bytes = schema::name_key("bytes").key;
  if (opt.rows.empty()) {
    const auto it = std::find_if(order.begin(), order.end(), [&](std::string_view k) { return varies(records, k); });
    opt.rows = has_key(records, bytes) ? bytes : it != order.end() ? *it : "file";
  }
  if (opt.cols.empty()) {
    const auto it = std::find_if(order.begin(), order.end(), [&](std::string_view k) {
      return k != opt.rows && k != "file" && varies(records, k);
    });
    opt.cols = membench ? "build" : files > 1 ? "file" : it != order.end() ? std::string(*it) : "file";
  }
  for (const auto& k : {opt.rows, opt.cols}) {
    if (has_key(records, k)) continue;
    const std::set<std::string_view> known(order.begin(), order.end());
    std::string list;
    for (const auto x : known) list += fmt::format("{}{}", list.empty() ? "" : ", ", x);
    throw input_error(fmt::format("no matching benchmark has the key '{}' (keys: {})", k, list));
  }
}

// Whether every record with the same value of `by` has the same value of `k`.
bool determined_by(const std::vector<record>& records, std::string_view k, std::string_view by) {
  std::unordered_map<std::string_view, std::string_view> seen;
  for (const auto& rec : records) {
    const auto [it, fresh] = seen.emplace(key_or_empty(rec, by), key_or_empty(rec, k));
    if (!fresh && it->second != key_or_empty(rec, k)) return false;
  }
  return true;
}

struct table_split {
  std::vector<std::string_view> group_keys;  ///< keys whose values make tables of their own
  std::vector<std::pair<std::string_view, std::string_view>> common;  ///< the keys every row shares, with their value
};

// Keys that vary (other than rows and cols) split the records into tables.
table_split split_keys(const std::vector<record>& records, const table_options& opt) {
  std::vector<std::string_view> all_keys;  // a few, each in every record: kept distinct as they come
  for (const auto& rec : records) {
    for (const auto& kv : rec.keys) {
      if (std::find(all_keys.begin(), all_keys.end(), kv.first) == all_keys.end()) all_keys.push_back(kv.first);
    }
  }
  std::sort(all_keys.begin(), all_keys.end());
  table_split out;
  for (const std::string_view k : all_keys) {
    if (k == opt.rows || k == opt.cols) continue;
    if (!varies(records, k)) {
      out.common.emplace_back(k, key_or_empty(records.front(), k));
      continue;
    }
    // A key fixed by the column (or row) value, like the file behind a build, would only
    // split the columns apart: it does not make tables of its own.
    if (determined_by(records, k, opt.cols) || determined_by(records, k, opt.rows)) continue;
    out.group_keys.push_back(k);
  }
  // Experiment first in titles, then the rest alphabetically.
  std::stable_sort(out.group_keys.begin(), out.group_keys.end(), [](std::string_view a, std::string_view b) {
    auto rank = [](std::string_view k) { return k == "space" ? 0 : k == "experiment" ? 1 : 2; };
    return rank(a) < rank(b);
  });
  return out;
}

struct group_less {
  bool operator()(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) const {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return value_less(a[i], b[i]);
    }
    return false;
  }
};
using groups = std::map<std::vector<std::string_view>, std::vector<const record*>, group_less>;

groups group_records(const std::vector<record>& records, const std::vector<std::string_view>& group_keys) {
  groups out;
  for (const auto& rec : records) {
    std::vector<std::string_view> g;
    g.reserve(group_keys.size());
    for (const auto k : group_keys) g.push_back(key_or_empty(rec, k));
    out[g].push_back(&rec);
  }
  return out;
}

std::string group_title(const std::vector<std::string_view>& g, const std::vector<std::string_view>& group_keys,
                        const record& first) {
  std::string title;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (group_keys[i] == "space") continue;
    if (!title.empty()) title += ' ';
    if (group_keys[i] != "experiment") fmt::format_to(std::back_inserter(title), "{}:", group_keys[i]);
    title += g[i];
  }
  return title.empty() ? first.r->family() : title;
}

// A chart when the rows of a table differ in one numeric key only.
void add_chart(table& t, const std::string& x_key, const std::vector<double>& xs, std::vector<std::vector<double>> ys) {
  if (xs.size() < 3) return;
  chart c;
  c.x_label = x_key;
  c.y_label = t.unit;
  c.xs = xs;
  c.series.assign(t.header.begin() + 1, t.header.end());
  c.ys = std::move(ys);
  const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
  c.log_x = *lo > 0 && *hi / *lo >= 16;
  t.charts.push_back(std::move(c));
}

using cell_map = std::map<std::pair<std::string_view, std::string_view>, const result*>;

// Each record's cell by its row and column value. throws input_error when two share one
cell_map place_cells(const std::vector<const record*>& recs, const table_options& opt, const std::string& title) {
  cell_map cells;
  for (const record* rec : recs) {
    auto [it, fresh] = cells.emplace(std::pair{key_or_empty(*rec, opt.rows), key_or_empty(*rec, opt.cols)}, rec->r);
    if (!fresh)
      throw input_error(fmt::format("'{}' and '{}' fall in the same cell of table '{}': add a key with --rows/--cols "
                                    "or narrow --filter",
                                    it->second->name, rec->r->name, title));
  }
  return cells;
}

// One group's table: a row per row value, a column per column value.
table group_table(const std::vector<const record*>& recs, std::string title, const std::string& unit,
                  const table_options& opt) {
  table t;
  t.title = std::move(title);
  t.unit = unit;
  std::vector<std::string_view> row_values, col_values;
  for (const record* rec : recs) {
    row_values.push_back(key_or_empty(*rec, opt.rows));
    col_values.push_back(key_or_empty(*rec, opt.cols));
  }
  sort_values(row_values);
  sort_values(col_values);
  const cell_map cells = place_cells(recs, opt, t.title);
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
  if (numeric_rows && opt.charts) add_chart(t, opt.rows, xs, std::move(ys));
  return t;
}

std::string input_note(const result_file& f) { return fmt::format("input: {} ({}, {} build)", f.path, f.gpu(), f.build()); }

// The tables of the pivot of `rows` (in file order), with the axes and keys they chose;
// `opt.value` is resolved. throws input_error
struct laid_out {
  table_options opt;  ///< rows and cols chosen
  table_split split;
  std::string unit;
  std::vector<table> tables;
};
laid_out lay_out(const std::vector<located>& rows, bool membench, std::size_t files, table_options opt) {
  std::vector<record> records;
  records.reserve(rows.size());
  for (const located& x : rows) records.push_back({keys_of(x), x.r});
  if (records.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  choose_axes(records, membench, files, opt);
  std::vector<const result*> shown;
  for (const record& rec : records) shown.push_back(rec.r);
  laid_out out{opt, split_keys(records, opt), unit_over(opt.value, shown), {}};
  for (const auto& [g, recs] : group_records(records, out.split.group_keys))
    out.tables.push_back(group_table(recs, group_title(g, out.split.group_keys, *recs.front()), out.unit, out.opt));
  return out;
}

// The pivot of `rows` as a document of its own. throws input_error
document pivot(const file_refs& files, const std::vector<located>& rows, bool membench, const table_options& opt) {
  laid_out l = lay_out(rows, membench, files.size(), opt);
  document d;
  d.title = fmt::format("{} by {} and {}", l.opt.value, l.opt.rows, l.opt.cols);
  d.notes.push_back(fmt::format("value: {} in {}", l.opt.value, l.unit));
  for (const auto& f : files) d.notes.push_back(input_note(f));
  if (!l.split.common.empty()) {
    std::string common;
    for (const auto& [k, v] : l.split.common) fmt::format_to(std::back_inserter(common), "{}{}:{}", common.empty() ? "" : " ", k, v);
    d.notes.push_back(fmt::format("common to every row: {}", common));
  }
  d.tables = std::move(l.tables);
  return d;
}

// The rows the filter keeps, by family in the order the files first have them (a family's
// rows follow one another: only a row of another family is looked up).
struct family_rows {
  std::string family;
  std::vector<located> rows;
};

std::vector<family_rows> rows_by_family(const file_refs& files, const std::vector<file_origin>& origins,
                                        const name_filter& filter) {
  std::vector<family_rows> out;
  std::unordered_map<std::string, std::size_t> at;
  at.reserve(std::accumulate(files.begin(), files.end(), std::size_t{0},
                             [](std::size_t n, const result_file& f) { return n + f.results.size(); }));
  for (std::size_t i = 0; i < files.size(); ++i) {
    const result* before = nullptr;  // the last row kept, whose family is out[family]
    std::size_t family = 0;
    for (const auto& r : files[i].results) {
      if (!filter(r.name)) continue;
      if (before == nullptr || r.space() != before->space() || r.experiment() != before->experiment()) {
        const auto [it, fresh] = at.emplace(r.family(), out.size());
        if (fresh) out.push_back({it->first, {}});
        family = it->second;
      }
      out[family].rows.push_back({&r, &origins[i]});
      before = &r;
    }
  }
  return out;
}

// Whether any row of a family has `key` (keys every row has count as had).
bool family_has(const family_rows& f, const std::string& key) {
  if (key.empty() || key == "space" || key == "experiment" || key == "build" || key == "gpu" || key == "file")
    return true;
  return std::any_of(f.rows.begin(), f.rows.end(), [&](const located& x) {
    for (std::size_t i = 0; i < x.r->param_count(); ++i) {
      if (x.r->param_key(i) == key) return true;
    }
    return false;
  });
}

// The value asked for where no timed row the filter keeps has it: a table of dashes answers
// nothing (with_value found it in another row of the files). throws input_error
void check_value_kept(const file_refs& files, const name_filter& filter, const table_options& opt) {
  if (opt.value == "time") return;
  bool timed = false;
  for (const auto& f : files) {
    for (const result& r : f.results) {
      if (!filter(r.name) || r.error) continue;
      if (r.value(opt.value)) return;
      timed = true;
    }
  }
  if (timed) throw input_error(fmt::format("no benchmark --filter '{}' keeps has the value '{}'", opt.filter, opt.value));
}

}  // namespace

document view_table(const file_refs& files, const table_options& options) {
  const name_filter filter(options.filter);
  const table_options opt = with_value(files, options);
  check_value_kept(files, filter, opt);
  std::vector<file_origin> origins;
  for (const auto& f : files) origins.push_back({f.build(), f.gpu(), base_name(f.path)});
  const bool membench = std::any_of(origins.begin(), origins.end(), [](const file_origin& o) { return o.build != "unknown"; });
  std::vector<family_rows> families = rows_by_family(files, origins, filter);
  // With --rows and --cols every row is one pivot; without, each experiment is laid out on
  // its own keys (another program's benchmarks share few), and an experiment without a key
  // asked for has no table of its own.
  if (opt.rows.empty() || opt.cols.empty())
    std::erase_if(families, [&](const family_rows& f) { return !family_has(f, opt.rows) || !family_has(f, opt.cols); });
  if (families.size() == 1) return pivot(files, families[0].rows, membench, opt);
  if (families.empty() || (!opt.rows.empty() && !opt.cols.empty())) {
    std::vector<located> all;  // in file order
    for (std::size_t i = 0; i < files.size(); ++i) {
      for (const auto& r : files[i].results) {
        if (filter(r.name)) all.push_back({&r, &origins[i]});
      }
    }
    return pivot(files, all, membench, opt);
  }
  document d;
  d.title = fmt::format("{} per experiment", opt.value);
  d.notes.push_back(fmt::format("value: {} in {}", opt.value, unit_of(opt.value)));
  for (const auto& f : files) d.notes.push_back(input_note(f));
  for (const auto& f : families) {
    for (auto& t : lay_out(f.rows, membench, files.size(), opt).tables) {
      if (t.title.rfind(f.family, 0) != 0) t.title = t.title.empty() ? f.family : fmt::format("{} {}", f.family, t.title);
      d.tables.push_back(std::move(t));
    }
  }
  return d;
}

}  // namespace membench::report
