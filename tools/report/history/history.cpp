// history: the same benchmarks over several runs in time, a change marked where compare's
// test finds one; and the exports for benchmark-tracking services.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/schema.hpp"
#include "core/dates.hpp"
#include "core/escape.hpp"
#include "views/view_cells.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

std::string commit_of(const result_file& f) {
  return f.context_value(std::string(schema::context_key("membench_git_commit").key));
}

// A run's column heading: its date and commit, else its file.
std::string run_heading(const result_file& f) {
  const std::string date = f.context_value("date");  // Google Benchmark's own key
  const std::string commit = commit_of(f);
  const auto slash = f.path.find_last_of('/');
  const std::string file = slash == std::string::npos ? f.path : f.path.substr(slash + 1);
  if (date == "?" && commit == "?") return file;
  // Cut between characters: a context's date and commit are whatever the file says.
  std::string when(utf8_prefix(date, 16));  // 2026-11-21T17:18
  if (when.size() > 10 && when[10] == 'T') when[10] = ' ';
  return fmt::format("{} {}", date == "?" ? file : when, commit == "?" ? file : std::string(utf8_prefix(commit, 7)));
}

}  // namespace

std::vector<const result_file*> history_order(const file_refs& files) {
  std::vector<const result_file*> order = files.pointers();
  std::stable_sort(order.begin(), order.end(), [](const result_file* a, const result_file* b) {
    const double ta = date_seconds(a->context_value("date")), tb = date_seconds(b->context_value("date"));
    if (std::isnan(ta) != std::isnan(tb)) return std::isnan(tb);  // dated runs first
    if (!std::isnan(ta) && ta != tb) return ta < tb;
    if (commit_of(*a) != commit_of(*b)) return commit_of(*a) < commit_of(*b);
    return a->path < b->path;
  });
  return order;
}

namespace {

// The runs' column headings (a repeated one numbered), each run noted with its file; where the
// runs are of several chips, each note names its chip and a note says the steps may be theirs.
std::vector<std::string> run_headings(const std::vector<const result_file*>& runs, document& d) {
  const std::string uuid_key(schema::context_key("gpu_uuid").key);
  std::set<std::string> chips;
  for (const result_file* r : runs) chips.insert(r->context_value(uuid_key));
  std::vector<std::string> headings;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::string h = run_heading(*runs[i]);
    const auto n = std::count(headings.begin(), headings.end(), h);
    if (n > 0) h += fmt::format(" #{}", n + 1);
    headings.push_back(h);
    const std::string chip = chips.size() > 1 ? fmt::format(" {}", runs[i]->context_value(uuid_key)) : std::string();
    d.notes.push_back(fmt::format("run {}: {} ({}{}, {} build, commit {}, date {})", i + 1, runs[i]->path, runs[i]->gpu(),
                                  chip, runs[i]->build(), commit_of(*runs[i]), runs[i]->context_value("date")));
    // A run that wrote its context and no row is no run of these benchmarks: its blank
    // column said, not left to read as a run where every benchmark went missing.
    if (runs[i]->results.empty())
      d.notes.push_back(fmt::format("note: run {}: {} has no benchmark rows (an empty \"benchmarks\" list): its "
                                    "column is empty", i + 1, runs[i]->path));
  }
  if (chips.size() > 1)
    d.notes.push_back(fmt::format("note: runs of {} GPUs (gpu_uuid): a step between two of them may be the chips' "
                                  "difference, not the code's",
                                  chips.size()));
  return headings;
}

// Every benchmark of any run, in the order the runs first have them, and each run's
// result of it (looked up once: every stage reads it again).
struct benchmark_grid {
  std::vector<const result*> names;  ///< the first result of each benchmark
  std::vector<const result*> at;     ///< at[n * runs + i]: run i's result of benchmark n, or null
  std::size_t runs = 0;

  const result* in(std::size_t n, std::size_t i) const { return at[n * runs + i]; }
};

benchmark_grid history_benchmarks(const std::vector<const result_file*>& runs, const history_options& opt) {
  const name_filter filter(opt.filter);
  benchmark_grid g;
  g.runs = runs.size();
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (const auto& r : runs[k]->results) {
      const auto earlier = [&](const result_file* f) { return f->find(r.name) != nullptr; };
      if (!filter(r.name) || std::any_of(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(k), earlier)) continue;
      g.names.push_back(&r);
      g.at.resize(g.at.size() + runs.size(), nullptr);
      for (std::size_t i = k; i < runs.size(); ++i) g.at[g.at.size() - runs.size() + i] = i == k ? &r : runs[i]->find(r.name);
    }
  }
  if (g.names.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", opt.filter));
  return g;
}

// The steps a history marks: changes (slower, faster) and unsure ones.
struct step_counts {
  int changes = 0, unsure = 0;
};

// A step's verdict and the figure it rests on.
struct step_verdict {
  verdict v = verdict::same;
  figure fig = figure::single;
};

// Per run, the benchmarks tested against their run before, and the test's verdicts (the
// decisions behind them are let go run by run: the table shows only the verdict).
struct run_steps {
  std::vector<std::vector<std::size_t>> names;   ///< per run, the benchmarks decided (ascending)
  std::vector<std::vector<std::size_t>> before;  ///< ... the run each is tested against
  std::vector<std::vector<step_verdict>> decided;  ///< ... and its verdict

  /// The verdict for benchmark `n` in run `i`; null when it was not tested there.
  const step_verdict* find(std::size_t i, std::size_t n) const {
    const auto at = std::lower_bound(names[i].begin(), names[i].end(), n);
    return at != names[i].end() && *at == n ? &decided[i][static_cast<std::size_t>(at - names[i].begin())] : nullptr;
  }
};

// Which benchmark each run tests against which run before it: the last run that has it
// without an error, when both have a time.
run_steps pair_steps(const benchmark_grid& g) {
  auto timed = [](const result* r) { return r != nullptr && !r->error && r->time_us > 0; };
  const std::size_t runs = g.runs;
  run_steps st;
  st.names.resize(runs);
  st.before.resize(runs);
  st.decided.resize(runs);
  for (std::size_t n = 0; n < g.names.size(); ++n) {
    std::size_t before = runs;
    for (std::size_t i = 0; i < runs; ++i) {
      const result* r = g.in(n, i);
      if (r == nullptr || r->error) {
        before = runs;
        continue;
      }
      if (before < runs && timed(g.in(n, before)) && timed(r)) {
        st.names[i].push_back(n);
        st.before[i].push_back(before);
      }
      before = i;
    }
  }
  return st;
}

// The test between each run and the benchmark's run before it, corrected over the
// benchmarks of each step as one family (compare's correction).
run_steps decide_steps(const std::vector<const result_file*>& runs, const benchmark_grid& g, const compare_options& test) {
  run_steps st = pair_steps(g);
  const decide_options o = test.decide();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto again = [&](const std::vector<std::size_t>& which, const decide_options& with) {
      std::vector<decision> ds;
      ds.reserve(which.size());
      for (std::size_t j : which) {
        const std::size_t n = st.names[i][j], before = st.before[i][j];
        side sb, sn;
        add_to_side(sb, *g.in(n, before), *runs[before]);
        add_to_side(sn, *g.in(n, i), *runs[i]);
        ds.push_back(decide(sb, sn, with, g.names[n]->name));
      }
      return ds;
    };
    std::vector<std::size_t> all(st.names[i].size());
    for (std::size_t j = 0; j < all.size(); ++j) all[j] = j;
    std::vector<decision> decided = again(all, o);
    if (test.family == correction::bh) (void)correct_family(decided, o, again);
    for (const decision& d : decided) st.decided[i].push_back({d.v, d.fig});
  }
  return st;
}

// A run's cell of a benchmark, marked where the test found a change or could not decide
// (an open step must not read as a same); counts the changes and the unsure steps.
cell run_cell(const result* r, const step_verdict* dec, const std::string& value, tone& mark, step_counts& n) {
  mark = tone::plain;
  if (r == nullptr || r->error) return r == nullptr ? cell{"", NAN, tone::muted} : cell{r->skipped ? "skipped" : "error", NAN, tone::muted};
  const auto v = r->value(value);
  cell x = v ? cell{format_value(*v), *v, tone::plain} : cell{"-", NAN, tone::muted};
  if (dec == nullptr || dec->v == verdict::same) return x;
  mark = dec->v == verdict::slower ? tone::bad : dec->v == verdict::faster ? tone::good : tone::muted;
  // A step decided on the batch figure says so: the cell shows the row's value, not it.
  x.text += fmt::format(" ({}{})", to_string(dec->v), dec->fig == figure::batch ? ", batch" : "");
  x.mood = mark;
  ++(dec->v == verdict::unsure ? n.unsure : n.changes);
  return x;
}

// Benchmark `n`'s row over the runs, and its chart where the options ask for charts.
void add_history_row(table& t, const std::vector<const result_file*>& runs, const run_steps& st, const benchmark_grid& g,
                     std::size_t n, const history_options& opt, step_counts& changes) {
  const result& first = *g.names[n];
  std::vector<cell> line{{first.param_text(), NAN, tone::plain}};
  line.reserve(runs.size() + 1);
  chart c;
  c.x_label = "run";
  c.y_label = unit_of(opt.value);
  c.series = {line.front().text};
  c.ys.resize(1);
  c.marks.resize(1);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const result* r = g.in(n, i);
    tone mark = tone::plain;
    cell x = run_cell(r, r == nullptr || r->error ? nullptr : st.find(i, n), opt.value, mark, changes);
    if (opt.charts) {
      c.xs.push_back(static_cast<double>(i + 1));
      const std::string commit = commit_of(*runs[i]);
      c.x_ticks.push_back(commit == "?" ? fmt::format("run {}", i + 1) : std::string(utf8_prefix(commit, 7)));
      c.ys[0].push_back(r == nullptr || r->error ? NAN : r->value(opt.value).value_or(NAN));
      c.marks[0].push_back(mark);
    }
    line.push_back(std::move(x));
  }
  t.rows.push_back(std::move(line));
  if (opt.charts && runs.size() >= 2) t.charts.push_back(std::move(c));
}

}  // namespace

document view_history(const file_refs& files, const history_options& options) {
  const std::vector<const result_file*> runs = history_order(files);
  history_options opt = options;
  opt.value = resolve_value(runs, options);
  document d;
  d.title = fmt::format("{} over {} runs", opt.value, runs.size());
  d.notes.push_back(fmt::format("value: {} in {}", opt.value, unit_of(opt.value)));
  const std::vector<std::string> headings = run_headings(runs, d);
  d.notes.push_back(fmt::format(
      "(slower)/(faster): compare's test against the run before (|change| >= {:g} %, its {:g} % interval excluding 0, "
      "at least {}, clocks, cycles and state clean{}); (unsure): beyond the threshold but not decided; \", batch\": "
      "decided on the batch figure",
      opt.test.threshold_pct, opt.test.confidence_pct, resolution_text(opt.test.resolution_us),
      opt.test.family == correction::bh ? "; the benchmarks of each step one family, Benjamini-Hochberg" : ""));
  const benchmark_grid g = history_benchmarks(runs, opt);
  const run_steps st = decide_steps(runs, g, opt.test);
  step_counts changes;
  d.tables.reserve(family_tables(g.names));
  std::vector<const result*> shown;  // the current table's, for its caption (pct_peak names the ceilings)
  const auto caption = [&](table& t) {  // tables are finished one after another: none keeps its rows
    t.unit = unit_over(opt.value, shown);
    for (chart& c : t.charts) c.y_label = t.unit;
    shown.clear();
  };
  for (std::size_t n = 0; n < g.names.size(); ++n) {
    const result& r = *g.names[n];
    if (n == 0 || r.space() != g.names[n - 1]->space() || r.experiment() != g.names[n - 1]->experiment()) {
      if (n > 0) caption(d.tables.back());
      table t;
      t.title = r.family();
      t.header.push_back("benchmark");
      t.header.insert(t.header.end(), headings.begin(), headings.end());
      d.tables.push_back(std::move(t));
    }
    shown.push_back(&r);
    add_history_row(d.tables.back(), runs, st, g, n, opt, changes);
  }
  caption(d.tables.back());
  d.notes.push_back(fmt::format("{} change{} between consecutive runs ({} is better){}", changes.changes,
                                changes.changes == 1 ? "" : "s", lower_is_better(opt.value) ? "lower" : "higher",
                                changes.unsure > 0 ? fmt::format("; {} unsure (marked, not a same)", changes.unsure) : ""));
  return d;
}

namespace {

// The rows an export covers: every timed benchmark the filter keeps.
// An export of nothing (a filter that keeps no row, a newest run whose rows all errored) is
// refused: a dashboard would take the empty upload for a run with nothing to say.
template <class Each>
void exported(const result_file& run, const common_options& opt, Each&& each) {
  const name_filter filter(opt.filter);
  std::size_t rows = 0;
  for (const auto& r : run.results) {
    if (!r.error && filter(r.name)) ++rows, each(r);
  }
  if (rows == 0)
    throw input_error(fmt::format("history --export: the newest run {} has no timed row{}", run.path,
                                  opt.filter.empty() ? std::string() : fmt::format(" that --filter '{}' keeps", opt.filter)));
}

// The time's bounds: the row's interval of its median, else the spread of its runs. An
// interval counts only with both ends in order, as the verdicts take one (a missing end made
// a bound null, an inverted one a negative range), and is widened to contain the median as
// `rows` widens it: a dashboard's lower bound above its value is a wrong answer.
std::pair<double, double> bounds_us(const result& r) {
  if (r.runs.size() == 1) {
    const run& x = r.runs[0];
    if (!(x.ci_low_us > 0 && x.ci_high_us >= x.ci_low_us && std::isfinite(x.ci_high_us))) return {NAN, NAN};
    return {std::min(x.ci_low_us, r.time_us), std::max(x.ci_high_us, r.time_us)};
  }
  if (r.runs.size() >= 2) {
    const auto [lo, hi] = std::minmax_element(r.runs.begin(), r.runs.end(),
                                              [](const run& a, const run& b) { return a.time_us < b.time_us; });
    return {lo->time_us, hi->time_us};
  }
  return {NAN, NAN};
}

}  // namespace

std::string export_bmf(const result_file& run, const common_options& options) {
  common_options opt = options;
  opt.value = resolve_value({&run}, options);
  nlohmann::json out = nlohmann::json::object();
  exported(run, opt, [&](const result& r) {
    nlohmann::json latency{{"value", r.time_us * 1e3}};  // Bencher's latency is in nanoseconds
    const auto [lo, hi] = bounds_us(r);
    if (!std::isnan(lo)) {
      latency["lower_value"] = lo * 1e3;
      latency["upper_value"] = hi * 1e3;
    }
    nlohmann::json measures{{"latency", latency}};
    if (opt.value != "time") {
      if (const auto v = r.value(opt.value)) measures[opt.value] = {{"value", *v}};
    }
    out[r.name] = measures;
  });
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string export_gab(const result_file& run, const common_options& options) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const std::string extra = fmt::format("{}, {} build, commit {}", run.gpu(), run.build(), commit_of(run));
  exported(run, options, [&](const result& r) {
    nlohmann::ordered_json row{{"name", r.name}, {"unit", "us"}, {"value", r.time_us}};
    const auto [lo, hi] = bounds_us(r);
    if (!std::isnan(lo)) row["range"] = fmt::format("± {}", format_value((hi - lo) / 2));
    row["extra"] = extra;
    out.push_back(row);
  });
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace membench::report
