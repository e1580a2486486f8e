// p2p: the peer family as source x destination matrices, one per case (the row name without
// src and dst), and the aggregates as one row of per-GPU values. Each cell holds the value,
// the interval of the row's median and the share of the row's own link; in HTML a heatmap,
// shaded by that share (or by the value against the table's largest where no row names a link).
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "p2p/peer_matrix.hpp"
#include "views/view_cells.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

constexpr std::string_view pct_of_link = schema::counter("pct_of_link").key;

// "0 (1a2b3c4d)": an axis label, the index as --device takes it and who the GPU is.
std::string device_label(const peer_device& d) {
  return d.uuid.empty() ? fmt::format("{}", d.index) : fmt::format("{} ({})", d.index, short_uuid(d.uuid));
}

// A share in percent as short as it reads: 81%, 4.2%.
std::string share_text(double pct) { return pct >= 10 ? fmt::format("{:.0f}%", pct) : fmt::format("{:.1f}%", pct); }

// One pair's cell: "389.2 ±0.4% (81%)", or what the pair holds instead of a value.
cell pair_cell(const result* r, bool diagonal, const std::string& value, double ci_level) {
  switch (state_of(r, diagonal, value)) {
    case peer_state::diagonal: return {"-", NAN, tone::muted};
    case peer_state::missing: return {"missing", NAN, tone::muted};
    case peer_state::no_value: return {"no value", NAN, tone::muted};  // "-" is the diagonal's
    case peer_state::error:
    case peer_state::skipped: return value_cell(*r, value);
    case peer_state::measured: break;
  }
  const double v = *r->value(value);
  std::string text = format_value(v);
  if (const double half = interval_pct(*r, ci_level); std::isfinite(half)) text += fmt::format(" ±{:.2g}%", half);
  const double* pct = r->counters.find(pct_of_link);
  if (pct != nullptr && value != pct_of_link) text += fmt::format(" ({})", share_text(*pct));
  return {std::move(text), v, tone::plain};
}

// The caption: the value's unit, then what else a cell says.
std::string case_unit(const peer_case& c, const std::string& value, double ci_level) {
  const bool links = value != pct_of_link && std::any_of(c.rows.begin(), c.rows.end(), [](const auto& kv) {
    return kv.second->counters.find(pct_of_link) != nullptr;
  });
  return fmt::format("{}; ±{:g} % interval in %{}", unit_of(value), 100 * ci_level, links ? "; (% of the row's link)" : "");
}

// The row of each cell with a number, to shade them once the table is whole.
using cell_rows = std::vector<std::pair<cell*, const result*>>;

// Shades the cells: by pct_of_link where every one has it, else by value over the largest.
void shade(table& t, const cell_rows& numeric, const std::string& value) {
  if (numeric.empty()) return;
  const bool by_link = std::all_of(numeric.begin(), numeric.end(),
                                   [](const auto& x) { return x.second->counters.find(pct_of_link) != nullptr; });
  double top = 0;
  for (const auto& [c, r] : numeric) top = std::max(top, c->value);
  if (by_link) {
    t.heat = heat_scale{fmt::format("shade: % of the row's link ({})", pct_of_link), 100};
  } else if (top > 0) {
    t.heat = heat_scale{fmt::format("shade: {} against the table's largest, {} {}", value, format_value(top),
                                    unit_of(value)),
                        top};
  } else {
    return;
  }
  for (const auto& [c, r] : numeric) {
    const double h = by_link ? *r->counters.find(pct_of_link) / 100 : c->value / top;
    c->heat = std::clamp(h, 0.0, 1.0);
  }
}

// One case's table: a row per source and a column per destination, or one row per GPU.
table case_table(const peer_case& c, const std::vector<peer_device>& devices, const std::string& value,
                 double ci_level) {
  table t;
  t.title = c.key;
  t.unit = case_unit(c, value, ci_level);
  const bool matrix = c.layout == peer_layout::matrix;
  t.header.push_back(matrix ? "src\u2193 dst\u2192" : c.layout == peer_layout::into_dst ? "dst\u2192" : "src\u2192");
  for (const peer_device& d : devices) t.header.push_back(device_label(d));
  std::vector<std::pair<std::string, int>> lines;  // label and source (-1: an aggregate's one row)
  if (matrix) {
    for (const peer_device& d : devices) lines.emplace_back(device_label(d), d.index);
  } else {
    lines.emplace_back(c.layout == peer_layout::into_dst ? "from all others" : "to all others", -1);
  }
  std::vector<std::vector<const result*>> sources;  // the row behind each cell
  for (const auto& [label, src] : lines) {
    std::vector<cell> line{{label, NAN, tone::plain}};
    sources.emplace_back();
    for (const peer_device& d : devices) {
      const result* r = c.at_cell(src, d.index);
      line.push_back(pair_cell(r, matrix && src == d.index, value, ci_level));
      sources.back().push_back(r);
    }
    t.rows.push_back(std::move(line));
  }
  cell_rows numeric;  // once the rows stop moving
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    for (std::size_t j = 0; j < devices.size(); ++j) {
      if (t.rows[i][j + 1].numeric()) numeric.emplace_back(&t.rows[i][j + 1], sources[i][j]);
    }
  }
  shade(t, numeric, value);
  return t;
}

// Notes on the rows that hold no number: each error, the skipped ones by their reason.
void add_row_notes(document& d, const peer_set& set) {
  std::map<std::string, std::vector<const result*>> skipped;
  for (const peer_case& c : set.cases) {
    for (const auto& [at, r] : c.rows) {
      if (!r->error) continue;
      if (r->skipped) skipped[*r->error].push_back(r);
      else d.notes.push_back(fmt::format("error: {}: {}", r->name, *r->error));
    }
  }
  for (const auto& [why, rows] : skipped) {
    const std::string_view reason = std::string_view(why).substr(why.rfind("skipped: ", 0) == 0 ? 9 : 0);
    if (rows.size() == 1) d.notes.push_back(fmt::format("skipped: {}: {}", rows.front()->name, reason));
    else d.notes.push_back(fmt::format("skipped ({} rows): {}", rows.size(), reason));
  }
}

std::vector<std::string> head_notes(const peer_set& set, const std::string& asked) {
  std::vector<std::string> notes{
      asked.empty() ? std::string("value: gb_per_s, or ns_per_load for a case without it (latency)")
                    : fmt::format("value: {} in {}", asked, unit_of(asked)),
      "rows: the source GPU (src), columns: the destination (dst); aggregates (all_to_one, one_to_all): one value "
      "per GPU; -: the diagonal; missing: no row for the pair; no value: a row without the value; error, skipped: "
      "the row's message below",
      "±: half-width of the interval of the row's median time at its file's level, in % of the median (the same "
      "share of a rate made from it); (n%): the value as % of the row's link (pct_of_link, of link_gb_per_s)"};
  for (const result_file* f : set.files)
    notes.push_back(fmt::format("input: {} ({}, {} build, commit {})", f->path, f->gpu(), f->build(),
                                context_of(*f, schema::context_key("membench_git_commit"))));
  for (const peer_device& g : set.devices) {
    if (!g.uuid.empty()) notes.push_back(fmt::format("GPU {}: {}", g.index, g.uuid));
  }
  notes.insert(notes.end(), set.notes.begin(), set.notes.end());
  return notes;
}

}  // namespace

read_options p2p_reads(const common_options& opt) {
  read_options r;
  r.all_counters = false;
  r.evidence = true;  // each row's interval
  for (const auto* f : {&schema::counter("gb_per_s"), &schema::counter("ns_per_load"), &schema::counter("pct_of_link"),
                        &schema::counter("link_gb_per_s"), &schema::counter("link_nvlinks")})
    r.counters.emplace_back(f->key);
  if (!opt.value.empty()) r.counters.push_back(opt.value);
  return r;
}

document view_p2p(const file_refs& files, const common_options& opt) {
  if (!opt.value.empty()) (void)resolve_value(pointers(files), opt);  // throws: no file has the value
  const peer_set set = collect_peer_rows(files, opt.filter);
  const double ci_level = set.ci_level();
  document d;
  d.title = "peer-to-peer: source x destination";
  d.notes = head_notes(set, opt.value);
  std::vector<std::string> without;
  for (const peer_case& c : set.cases) {
    const std::string value = case_value(c, opt.value);
    if (value.empty()) without.push_back(c.key);
    else d.tables.push_back(case_table(c, set.devices, value, ci_level));
  }
  if (!without.empty())
    d.notes.push_back(fmt::format("left out: {} case(s) without {}: {}", without.size(), opt.value, fmt::join(without, ", ")));
  if (d.tables.empty()) throw input_error(fmt::format("no peer matrix row has the value '{}'", opt.value));
  add_row_notes(d, set);
  return d;
}

}  // namespace membench::report
