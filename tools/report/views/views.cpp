// What the views share: the name filter, the value a view shows and how it reads.
#include "views/views.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <re2/re2.h>
#include <set>
#include <unordered_map>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "common/schema.hpp"
#include "views/view_cells.hpp"
#include "core/regex.hpp"

namespace membench::report {

name_filter::name_filter(const std::string& expression, std::string_view what) {
  // Most filters are a plain part of a name: no regular expression needed to find those.
  if (expression.find_first_of(".^$|()[]{}*+?\\") == std::string::npos) {
    literal_ = expression;
    return;
  }
  auto re = std::make_shared<const re2::RE2>(expression, quiet_regex_options());
  if (!re->ok())
    throw input_error(fmt::format("{} '{}': not a valid regular expression ({})", what, expression, re->error()));
  regex_ = std::move(re);
}

bool name_filter::operator()(const std::string& name) const {
  if (regex_) return re2::RE2::PartialMatch(name, *regex_);
  return name.find(literal_) != std::string::npos;
}

read_options reads_for(const common_options& opt, bool evidence) {
  read_options r;
  r.all_counters = false;
  r.evidence = evidence;
  // Without --value a view shows gb_per_s where rows have it; pct_peak captions read labels.
  r.counters = {opt.value.empty() ? std::string(schema::counter("gb_per_s").key) : opt.value};
  return r;
}

read_options gpus_reads(const gpus_options& opt) {
  read_options r = reads_for(opt, true);  // evidence: compare's test marks the differences
  for (const auto* f : {&schema::counter("pct_of_link"), &schema::counter("link_gb_per_s"), &schema::counter("pct_peak"),
                        &schema::counter("bytes_per_clk_per_sm"), &schema::counter("pct_fp32_peak"),
                        &schema::counter("bytes")})
    r.counters.emplace_back(f->key);
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

std::string context_of(const result_file& f, const schema::field& key) { return f.context_value(std::string(key.key)); }

std::vector<const result_file*> pointers(const file_refs& files) { return files.pointers(); }

void sort_values(std::vector<std::string_view>& v) {
  if (v.size() < 2) return;
  struct value {
    std::string_view text;
    int rank;                      // default, ca, cg, then the rest
    std::optional<double> number;  // read once: a comparison reads both sides' again
    std::size_t first;             // where first seen
  };
  std::unordered_map<std::string_view, std::size_t> seen;
  seen.reserve(v.size());
  std::vector<value> values;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!seen.emplace(v[i], i).second) continue;
    const int rank = v[i] == "default" ? 0 : v[i] == "ca" ? 1 : v[i] == "cg" ? 2 : 3;
    values.push_back({v[i], rank, numeric_value(v[i]), i});
  }
  std::sort(values.begin(), values.end(), [](const value& a, const value& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    if (!a.number && !b.number) return a.first < b.first;
    // value_less, on the numbers read once: by value, numbers before words, then the text
    if (a.number && b.number && *a.number != *b.number) return *a.number < *b.number;
    if (a.number.has_value() != b.number.has_value()) return a.number.has_value();
    return a.text < b.text;
  });
  v.clear();
  for (const value& x : values) v.push_back(x.text);
}

std::size_t family_tables(const std::vector<const result*>& results) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const result *r = results[i], *before = i > 0 ? results[i - 1] : nullptr;
    if (before == nullptr || r->space() != before->space() || r->experiment() != before->experiment()) ++n;
  }
  return n;
}

cell value_cell(const result& r, const std::string& what) {
  if (r.error) return {r.skipped ? "skipped" : "error", NAN, r.skipped ? tone::muted : tone::bad};
  const auto v = r.value(what);
  if (!v) return {"-", NAN, tone::muted};
  return {format_value(*v), *v, tone::plain};
}

std::string_view labelled_peak(std::string_view label) {
  const std::string_view key = schema::label("peak").key;
  for (std::size_t at = label.find(key); at != std::string_view::npos; at = label.find(key, at + 1)) {
    const std::size_t from = at + key.size();
    if ((at == 0 || label[at - 1] == ' ') && from < label.size() && label[from] == ':')
      return label.substr(from + 1, label.find(' ', from) - from - 1);
  }
  return {};
}

ceiling_share share_of_ceiling(const result& r, double dram_gbps) {
  const auto gb = r.value(schema::counter("gb_per_s").key);
  if (const double* pct = r.counters.find(schema::counter("pct_of_link").key)) return {*pct, "link"};
  const double* link = r.counters.find(schema::counter("link_gb_per_s").key);
  if (link != nullptr) return {gb && *link > 0 ? 100 * *gb / *link : NAN, "link"};
  if (const std::string_view peak = labelled_peak(r.label); !peak.empty()) {
    const double* pct = r.counters.find(schema::counter("pct_peak").key);  // of that ceiling: the harness knows it
    return {pct != nullptr ? *pct : NAN, std::string(peak)};
  }
  return {gb && dram_gbps > 0 ? 100 * *gb / dram_gbps : NAN, "DRAM"};
}

std::string format_value(double v) {
  const double a = std::abs(v);
  // Compiled formats: a view formats every cell (100 000 rows and more).
  if (a >= 1e15) return fmt::format(FMT_COMPILE("{:.3g}"), v);
  if (a >= 1000) return fmt::format(FMT_COMPILE("{:.0f}"), v);
  if (a >= 100) return fmt::format(FMT_COMPILE("{:.1f}"), v);
  if (a >= 1 || a == 0) return fmt::format(FMT_COMPILE("{:.2f}"), v);
  return fmt::format(FMT_COMPILE("{:.3g}"), v);
}

cell ratio_cell(double num, double den) {
  if (!(den > 0) || std::isnan(num)) return {"-", NAN, tone::muted};
  const double r = num / den;
  // 1e300 / 1e-300 is beyond a double: said in words, never "inf" nor a number behind it.
  if (!std::isfinite(r)) return {"overflow", NAN, tone::muted};
  return {r >= 1e6 ? fmt::format("{:.3g}", r) : fmt::format("{:.3f}", r), r, tone::plain};
}

std::string unit_of(const std::string& value) {
  // Captions that say more than the schema's unit, as the tables have always shown them.
  static const std::map<std::string_view, std::string_view> captions{
      {"time", "us (median sample)"},
      {schema::counter("gb_per_s").key, "GB/s (decimal, median sample)"},
      {schema::counter("pct_peak").key, "% of theoretical DRAM peak"},
      {schema::counter("pct_of_link").key, "% of the row's link (link_gb_per_s)"},
      {schema::counter("bytes").key, "bytes per launch"},
      {schema::counter("noise_pct").key, "% (stddev/mean of samples)"},
      {schema::counter("load_efficiency_pct").key, "% (requested/moved bytes)"},
      {schema::counter("temp_c").key, "degrees C"},
  };
  if (const auto it = captions.find(value); it != captions.end()) return std::string(it->second);
  if (const schema::field* f = schema::find_counter(value)) return std::string(f->unit);
  return value;  // a counter outside the schema (--metric-list): its name says what it is
}

std::string unit_over(const std::string& value, const std::vector<const result*>& rows) {
  if (value != schema::counter("pct_peak").key) return unit_of(value);
  std::set<std::string> peaks;
  for (const result* r : rows) {
    const std::string_view peak = labelled_peak(r->label);
    peaks.insert(peak.empty() ? std::string("DRAM") : std::string(peak));
  }
  if (peaks.size() <= 1 && (peaks.empty() || *peaks.begin() == "DRAM")) return unit_of(value);
  std::string names;
  for (const auto& p : peaks) names += (names.empty() ? "" : ", ") + p;
  return fmt::format("% of the theoretical {} peak", names);
}

bool lower_is_better(const std::string& value) {
  if (value == "time" || (value.size() > 3 && value.compare(value.size() - 3, 3, "_us") == 0)) return true;
  // A noise, a slowdown, and anything the schema measures in time or cycles (ns_per_load: a
  // latency; cycles_per_load) are better smaller: named by the schema's unit, not one by one.
  static const std::set<std::string_view> lower{schema::counter("noise_pct").key, schema::counter("batch_noise_pct").key,
                                                schema::counter("slowdown").key};
  if (lower.count(value) != 0) return true;
  const schema::field* f = schema::find_counter(value);
  return f != nullptr && (f->unit == "us" || f->unit == "ns" || f->unit == "s" || f->unit == "cycles");
}

}  // namespace membench::report
