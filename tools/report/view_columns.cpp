// builds and gpus: the same benchmarks from several files side by side, a column per file
// (per build, per GPU), one table per experiment.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "view_cells.hpp"
#include "views.hpp"

namespace membench::report {
namespace {

cell ratio_cell(double num, double den, bool lower_better) {
  if (!(den > 0) || std::isnan(num)) return {"-", NAN, tone::muted};
  const double r = num / den;
  tone mood = tone::plain;
  if (std::abs(r - 1) > 0.05) mood = ((r > 1) != lower_better) ? tone::good : tone::bad;
  return {fmt::format("{:.3f}", r), r, mood};
}

// Shared by builds and gpus: one table per experiment, a column per file.
struct column_file {
  std::string heading;
  const result_file* file;
};

// Every benchmark of the columns' files, in the order membench registered them (the
// first file's order, then whatever only later files have).
std::vector<const result*> union_results(const std::vector<column_file>& cols, const name_filter& filter) {
  std::vector<const result*> out;
  for (auto c = cols.begin(); c != cols.end(); ++c) {
    for (const auto& r : c->file->results) {
      const auto earlier = [&r](const column_file& e) { return e.file->find(r.name) != nullptr; };
      if (filter(r.name) && std::none_of(cols.begin(), c, earlier)) out.push_back(&r);
    }
  }
  return out;
}

// Whether two results are of one experiment (family).
bool same_family(const result& a, const result& b) { return a.space() == b.space() && a.experiment() == b.experiment(); }

// The table of `r`'s experiment: a new one whenever the experiment changes (results come
// in registration order, one experiment after another); `first` is the table's first row.
table& experiment_table(document& d, const result& r, const result*& first, const std::string& value,
                        const std::vector<std::string>& columns) {
  if (d.tables.empty() || !same_family(*first, r)) {
    first = &r;
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

document view_builds(const file_refs& files, const common_options& options) {
  const name_filter filter(options.filter);
  const common_options opt = with_value(files, options);
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
  const std::vector<const result*> rows = union_results(cols, filter);
  d.tables.reserve(family_tables(rows));
  const result* first = nullptr;
  for (const result* r : rows) {
    table* t = &experiment_table(d, *r, first, opt.value, columns);
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

document view_gpus(const file_refs& files, const gpus_options& options) {
  const name_filter filter(options.filter);
  const gpus_options opt = with_value(files, options);
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
  const std::vector<const result*> rows = union_results(cols, filter);
  d.tables.reserve(family_tables(rows));
  std::vector<double> peaks;
  for (const auto& c : cols) peaks.push_back(c.file->peak_gbps());
  const result* first = nullptr;
  for (const result* r : rows) {
    table* t = &experiment_table(d, *r, first, opt.value, columns);
    std::vector<cell> line{{r->param_text(), NAN, tone::plain}};
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const column_file& c = cols[k];
      const result* x = c.file->find(r->name);
      cell v = x == nullptr ? cell{"missing", NAN, tone::muted} : value_cell(*x, opt.value);
      const double peak = peaks[k];
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
