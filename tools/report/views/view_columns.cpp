// builds and gpus: the same benchmarks from several files side by side, a column per file
// (per build, per GPU), one table per experiment.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "views/headline.hpp"
#include "views/view_cells.hpp"
#include "views/view_marks.hpp"
#include "views/views.hpp"

namespace membench::report {
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

// A finished table's caption from the rows it shows (pct_peak names their ceilings); the
// rows are then cleared for the next table (tables are finished one after another, so no
// table keeps its rows).
void caption_table(table& t, std::vector<const result*>& shown, const std::string& value) {
  t.unit = unit_over(value, shown);
  shown.clear();
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
  // A build's effect is measured on one model (name, SMs, memory): a ratio across models is
  // the models' difference.
  const auto model = [](const result_file& f) {
    return fmt::format("{}, {} SMs, {} bytes", f.gpu(), context_of(f, schema::context_key("gpu_sm_count")),
                       context_of(f, schema::context_key("gpu_global_mem_bytes")));
  };
  for (const auto& c : cols) {
    if (model(*c.file) != model(*cols.front().file))
      throw input_error(fmt::format("builds compares the builds on one GPU model: {} is {}, {} is {}",
                                    cols.front().file->path, model(*cols.front().file), c.file->path, model(*c.file)));
  }
  const bool lower_better = lower_is_better(opt.value);
  document d;
  d.title = fmt::format("{} per build", opt.value);
  d.notes.push_back(fmt::format("value: {} in {}; ratios are build / {}, {} is better", opt.value, unit_of(opt.value),
                                cols.front().heading, lower_better ? "lower" : "higher"));
  for (const auto& c : cols)
    d.notes.push_back(fmt::format("{}: {} ({}, commit {})", c.heading, c.file->path, c.file->gpu(),
                                  context_of(*c.file, schema::context_key("membench_git_commit"))));
  std::vector<std::string> columns;
  for (const auto& c : cols) columns.push_back(c.heading);
  for (std::size_t i = 1; i < cols.size(); ++i) columns.push_back(fmt::format("{}/{}", cols[i].heading, cols[0].heading));
  const std::vector<const result*> rows = union_results(cols, filter);
  d.tables.reserve(family_tables(rows));
  std::vector<const result*> shown;  // the current table's, for its caption
  difference_marks marks;
  const result* first = nullptr;
  for (const result* r : rows) {
    const std::size_t tables = d.tables.size();
    table* t = &experiment_table(d, *r, first, opt.value, columns);
    if (tables > 0 && d.tables.size() > tables) caption_table(d.tables[tables - 1], shown, opt.value);
    std::vector<cell> line{{r->param_text(), NAN, tone::plain}};
    std::vector<double> values;
    std::vector<const result*> found;
    for (const auto& c : cols) {
      const result* x = c.file->find(r->name);
      if (x != nullptr) shown.push_back(x);
      found.push_back(x);
      cell v = x == nullptr ? cell{"missing", NAN, tone::bad} : value_cell(*x, opt.value);
      values.push_back(v.value);
      line.push_back(std::move(v));
    }
    for (std::size_t i = 1; i < cols.size(); ++i) {
      if (found[0] != nullptr && found[i] != nullptr)
        marks.add(*found[0], *cols[0].file, *found[i], *cols[i].file, d.tables.size() - 1, t->rows.size(), line.size());
      line.push_back(ratio_cell(values[i], values[0]));
    }
    t->rows.push_back(std::move(line));
  }
  if (d.tables.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  caption_table(d.tables.back(), shown, opt.value);
  d.notes.insert(d.notes.begin() + 1, fmt::format("ratios {}", marks.apply(d)));
  return d;
}

namespace {

// Where a file's GPU is, as its context says ("?" for what it does not say).
struct gpu_place {
  std::string host, bus, uuid;
};

gpu_place place_of(const result_file& f) {
  return {context_of(f, schema::context_key("host_name")), context_of(f, schema::context_key("gpu_pci_bus_id")),
          context_of(f, schema::context_key("gpu_uuid"))};
}

// Whether two files of one model ran on one GPU: one host, and one UUID (one PCI bus id where
// a file has no UUID). A bus id names a slot within a host: every host of a fleet may well
// have a GPU at 0000:18:00.0.
bool one_gpu(const gpu_place& a, const gpu_place& b) {
  if (a.host != b.host) return false;
  if (a.uuid != "?" && b.uuid != "?") return a.uuid == b.uuid;
  return a.bus == b.bus;
}

// A GPU's heading, told apart from the other GPUs of its model: by its PCI bus id, with its
// host where they are on several hosts, and its UUID where one host has two at one bus id.
std::string gpu_heading(const std::vector<column_file>& cols, const std::vector<gpu_place>& places, std::size_t k) {
  bool twin = false, other_host = false, one_bus = false;
  for (std::size_t j = 0; j < cols.size(); ++j) {
    if (j == k || cols[j].file->gpu() != cols[k].file->gpu()) continue;
    twin = true;
    other_host = other_host || places[j].host != places[k].host;
    one_bus = one_bus || (places[j].host == places[k].host && places[j].bus == places[k].bus);
  }
  const gpu_place& p = places[k];
  const std::string where =
      twin ? fmt::format(" [{}{}{}]", other_host ? p.host + " " : "", p.bus, one_bus ? " " + p.uuid : "") : "";
  return fmt::format("{}{} ({:.0f} GB/s peak)", cols[k].file->gpu(), where, cols[k].file->peak_gbps());
}

// One column per GPU of the build asked for, told apart as gpu_heading says. throws
// input_error for one GPU twice (two files of one model, host and UUID or bus id), or none
std::vector<column_file> gpu_columns(const file_refs& files, const gpus_options& opt) {
  std::vector<column_file> cols;
  std::vector<gpu_place> places;
  for (const auto& f : files) {
    if (f.build() != opt.build) continue;
    gpu_place p = place_of(f);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      if (cols[k].file->gpu() == f.gpu() && one_gpu(places[k], p))
        throw input_error(fmt::format("{} and {}: two {} files of one GPU ({} at {} on host {})", cols[k].file->path, f.path,
                                      opt.build, f.gpu(), p.bus, p.host));
      // A UUID names one chip: two models under it is a file that contradicts itself.
      if (p.uuid != "?" && places[k].uuid == p.uuid && cols[k].file->gpu() != f.gpu())
        throw input_error(fmt::format("{} and {}: one GPU ({}) named {} in one and {} in the other", cols[k].file->path,
                                      f.path, p.uuid, cols[k].file->gpu(), f.gpu()));
    }
    cols.push_back({"", &f});
    places.push_back(std::move(p));
  }
  if (cols.empty()) throw input_error(fmt::format("no file of the {} build among the inputs", opt.build));
  for (std::size_t k = 0; k < cols.size(); ++k) cols[k].heading = gpu_heading(cols, places, k);
  return cols;
}

// The heading of a table's % columns: which ceiling its rows are judged against.
std::string share_heading(const std::set<std::string>& ceilings) {
  if (ceilings.size() != 1) return ceilings.empty() ? "%" : "% ceiling";
  const std::string& c = *ceilings.begin();
  if (c == "l1" || c == "shared") return fmt::format("% {} (128 B/clk/SM)", c);
  if (c == "fp32") return "% fp32 peak";
  return c == "DRAM" ? "% peak" : c == "link" ? "% link" : fmt::format("% {} peak", c);
}

// The % cells of one table and the ceiling of each, to name it where the table has several.
struct table_shares {
  std::set<std::string> ceilings;
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> cells;  ///< (row, column), ceiling
};

cell share_cell(const result* r, double dram_gbps, table_shares& shares, std::size_t row, std::size_t col) {
  if (r == nullptr || r->error) return {"-", NAN, tone::muted};
  ceiling_share s = share_of_ceiling(*r, dram_gbps);
  // A membench family is priced only against its own ceiling (the schema's headline table):
  // a working set in the L1 is no share of the DRAM peak.
  if (const schema::headline* h = headline_of(*r)) {
    const priced p = price_row(*r, *h, dram_gbps);
    s = {p.pct, p.ceiling == "dram" ? std::string("DRAM") : p.ceiling};
  }
  if (std::isnan(s.pct)) return {"-", NAN, tone::muted};
  shares.ceilings.insert(s.ceiling);
  shares.cells.push_back({{row, col}, s.ceiling});
  return {fmt::format("{:.1f}", s.pct), s.pct};
}

// Heads a table's % columns with its ceiling, or names each cell's where it has several.
void name_ceilings(table& t, const table_shares& shares) {
  for (std::size_t k = 2; k < t.header.size(); k += 2) t.header[k] = share_heading(shares.ceilings);
  if (shares.ceilings.size() < 2) return;
  for (const auto& [at, ceiling] : shares.cells) t.rows[at.first][at.second].text += fmt::format(" {}", ceiling);
}

}  // namespace

document view_gpus(const file_refs& files, const gpus_options& options) {
  const name_filter filter(options.filter);
  const gpus_options opt = with_value(files, options);
  const std::vector<column_file> cols = gpu_columns(files, opt);
  const bool bandwidth = opt.value == schema::counter("gb_per_s").key;
  document d;
  d.title = fmt::format("{} per GPU, {} build", opt.value, opt.build);
  d.notes.push_back(fmt::format("value: {} in {}{}", opt.value, unit_of(opt.value),
                                bandwidth ? "; % of each row's own ceiling: % peak of the GPU's theoretical DRAM peak, "
                                            "% link of the row's link (pct_of_link: peer rows), % NAME peak of the "
                                            "ceiling the row's label names (its pct_peak); % ceiling: a table whose "
                                            "rows have several names each cell's"
                                          : ""));
  for (const auto& c : cols)
    d.notes.push_back(fmt::format("{}: {} (driver {}, commit {})", c.heading, c.file->path,
                                  context_of(*c.file, schema::context_key("cuda_driver_version")),
                                  context_of(*c.file, schema::context_key("membench_git_commit"))));
  // A file given and not shown is said: gpus compares one build (--build).
  for (const auto& f : files) {
    if (f.build() != opt.build)
      d.notes.push_back(fmt::format("left out: {} ({} build; --build {} shows it)", f.path, f.build(), f.build()));
  }
  std::vector<std::string> columns;
  for (const auto& c : cols) {
    columns.push_back(c.heading);
    if (bandwidth) columns.push_back("%");  // named once the table's rows say which ceiling
  }
  const std::vector<const result*> rows = union_results(cols, filter);
  d.tables.reserve(family_tables(rows));
  std::vector<double> peaks;  // each GPU's, read once
  for (const auto& c : cols) peaks.push_back(c.file->peak_gbps());
  table_shares shares;               // the current table's
  std::vector<const result*> shown;  // the current table's, for its caption
  const auto finish = [&](table& t) {  // tables are finished one after another: none keeps its rows
    if (bandwidth) name_ceilings(t, shares);
    shares = {};
    caption_table(t, shown, opt.value);
  };
  difference_marks marks;  // each GPU's value against the first GPU's
  const result* first = nullptr;
  for (const result* r : rows) {
    const std::size_t tables = d.tables.size();
    table* t = &experiment_table(d, *r, first, opt.value, columns);
    if (tables > 0 && d.tables.size() > tables) finish(d.tables[tables - 1]);
    std::vector<cell> line{{r->param_text(), NAN, tone::plain}};
    const result* base = cols[0].file->find(r->name);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const result* x = cols[k].file->find(r->name);
      if (x != nullptr) shown.push_back(x);
      if (k > 0 && x != nullptr && base != nullptr)
        marks.add(*base, *cols[0].file, *x, *cols[k].file, d.tables.size() - 1, t->rows.size(), line.size());
      line.push_back(x == nullptr ? cell{"missing", NAN, tone::muted} : value_cell(*x, opt.value));
      if (bandwidth) line.push_back(share_cell(x, peaks[k], shares, t->rows.size(), line.size()));
    }
    t->rows.push_back(std::move(line));
  }
  if (d.tables.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  finish(d.tables.back());
  d.notes.insert(d.notes.begin() + 1, fmt::format("each GPU against {}: {}", cols[0].heading, marks.apply(d)));
  return d;
}

}  // namespace membench::report
