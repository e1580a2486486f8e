// compare's output declared once: a record per benchmark (or --pairs pair) whose fields are
// the JSON's keys and, where they have a heading, the table's columns. compare_json.cpp and
// compare_render.cpp draw it; neither lists a field of its own.
#include <cmath>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "common/stats.hpp"
#include "compare/compare_stages.hpp"

namespace membench::report {
namespace {

std::vector<std::string> paths(const std::vector<const result_file*>& files) {
  std::vector<std::string> out;
  for (const result_file* f : files) out.push_back(f->path);
  return out;
}

// The median GB/s of a side's usable results. A rate is above 0: a row's -3000 GB/s is no
// rate, and would show a change under -100 %; such a row gives the side no GB/s.
double median_gbps(const std::vector<const result*>& rs) {
  std::vector<double> v;
  for (const result* r : rs) {
    if (!usable(r)) continue;
    const double* x = r->counters.find(schema::counter("gb_per_s").key);
    if (x == nullptr) continue;
    if (!(*x > 0 && std::isfinite(*x))) return NAN;
    v.push_back(*x);
  }
  return v.empty() ? NAN : median_of(std::move(v));
}

std::string pct(double x) { return std::isnan(x) ? "-" : fmt::format("{:+.2f} %", 100 * x); }

tone mood_of(const decision* x) {
  if (x == nullptr) return tone::muted;
  return x->v == verdict::slower ? tone::bad : x->v == verdict::faster ? tone::good : x->v == verdict::unsure ? tone::muted : tone::plain;
}

cell number_cell(double x, tone mood = tone::plain) {
  return std::isnan(x) ? cell{"-", NAN, tone::muted} : cell{format_value(x), x, mood};
}

// One side: its row's name, its files, the factor its times were multiplied by (--pairs),
// and what the decision measured of it.
record side_record(const std::string& name, const std::vector<const result_file*>& files, double scale,
                   double median_us, double clock_mhz) {
  record r;
  r.add("name", name).add("files", paths(files)).add("scale", scale);
  r.add("median_us", number_value(median_us)).add("clock_mhz", number_value(clock_mhz));
  return r;
}

// The codes of why a verdict is unsure (none for a verdict that is not).
std::vector<std::string> reason_names(const decision& d) {
  std::vector<std::string> out;
  if (d.v == verdict::unsure)
    for (reason_code c : d.why.codes) out.push_back(to_string(c));
  return out;
}

// The throughput columns: each side's median GB/s and its change, where both have one; a
// side's times multiplied by its scale (--pairs) divide its GB/s alike, as `change` counts them.
void add_throughput(record& r, const benchmark_pair& p, const decision* x) {
  const double base = median_gbps(p.base) / p.base_scale, next = median_gbps(p.next) / p.next_scale;
  const bool both = x != nullptr && base > 0 && next > 0;
  const double change = both ? next / base - 1 : NAN;
  r.show("base_gb_per_s", number_value(both ? base : NAN), "base GB/s", number_cell(both ? base : NAN));
  r.show("new_gb_per_s", number_value(both ? next : NAN), "new GB/s", number_cell(both ? next : NAN));
  r.show("gb_per_s_change", number_value(change), "GB/s change",
         std::isnan(change) ? cell{"-", NAN, tone::muted} : cell{pct(change), 100 * change, mood_of(x)});
}

// The verdict's columns: what decided it, and the verdict with why where it is unsure.
void add_verdict(record& r, const benchmark_pair& p, const decision* x) {
  if (x == nullptr) {
    r.show("evidence", field_value(), "evidence", {"-", NAN, tone::muted});
    r.show("verdict", field_value(), "verdict", {fmt::format("{}: {}", to_string(p.state), p.why), NAN, tone::bad});
    return;
  }
  // A short row decided on its batch figure says so: its times are per launch of a batch.
  const std::string evidence = x->fig == figure::batch ? fmt::format("{} (batch)", to_string(x->from)) : to_string(x->from);
  r.show("evidence", to_string(x->from), "evidence", {evidence});
  const std::string said = x->v == verdict::unsure ? fmt::format("unsure: {}", x->why.text) : to_string(x->v);
  r.show("verdict", to_string(x->v), "verdict", {said, NAN, mood_of(x)});
}

record interval_record(const decision& d, double level_pct) {
  record r;
  r.add("low", number_value(d.low)).add("high", number_value(d.high)).add("level_pct", level_pct);
  return r;
}

record cycles_record(const decision& d) {
  record r;
  r.add("change", number_value(d.cycles_change)).add("low", number_value(d.cycles_low)).add("high", number_value(d.cycles_high));
  return r;
}

}  // namespace

const char* to_string(pair_state s) noexcept {
  switch (s) {
    case pair_state::decide: return "decided";
    case pair_state::skipped_both: return "skipped";
    case pair_state::unusable: return "unusable";
    case pair_state::left_out: return "left_out";
  }
  return "?";
}

record pair_record(const benchmark_pair& p, const compare_sides& files, const decision* x, const compare_options& opt) {
  const decision none;
  const decision& d = x ? *x : none;
  // The percents as given, never a fraction multiplied back: a program compares them with what it asked for.
  const double threshold_pct = std::isnan(p.threshold_pct) ? opt.threshold_pct : p.threshold_pct;
  const double margin_pct = std::isnan(p.margin_pct) ? opt.margin_pct : p.margin_pct;
  record r;
  r.show("benchmark", pair_name(p), "benchmark", {pair_name(p)});
  r.show("base", side_record(*p.name, files.base, p.base_scale, d.base_us, d.base_clock_mhz), "base us", number_cell(d.base_us));
  r.show("new", side_record(p.new_name ? *p.new_name : *p.name, files.next, p.next_scale, d.new_us, d.new_clock_mhz),
         "new us", number_cell(d.new_us));
  r.add("state", to_string(p.state));
  r.show("change", number_value(d.change), "change", {pct(d.change), 100 * d.change, mood_of(x)});
  r.show("interval", interval_record(d, opt.confidence_pct), "interval",
         {std::isnan(d.low) ? "-" : fmt::format("[{:+.2f}, {:+.2f}] %", 100 * d.low, 100 * d.high)});
  add_throughput(r, p, x);
  add_verdict(r, p, x);
  r.add("threshold_pct", threshold_pct).add("margin_pct", margin_pct);
  r.add("figure", x ? field_value(to_string(d.fig)) : field_value());
  r.add("resolution_us", number_value(d.resolution_us)).add("cycles", cycles_record(d));
  r.add("reason", d.v == verdict::unsure ? d.why.text : "").add("reasons", reason_names(d)).add("problem", p.why);
  return r;
}

}  // namespace membench::report
