// profile's lessons: each a chart of its rows and one effect between two of them, decided
// by compare's test (verdict.hpp): an effect is a finding only where that test calls it.
#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "views/headline.hpp"
#include "profile/profile.hpp"
#include "stats/verdict.hpp"

namespace membench::report {
namespace {

struct lesson_spec {
  std::string_view title, family;
  std::string_view keep;      ///< `key:value` every bar has (`key:max`: the key's largest value)
  std::string_view only;      ///< `key:v1,v2,...`: the bars shown ("" every row kept)
  std::string_view base;      ///< `key:value` tokens that turn the contrast row into the one it is against
  std::string_view contrast;  ///< `key:value`, or `best` / `worst` by the headline
};

// Sizes and parameters the default tier runs; a run without them shows "not measured".
constexpr lesson_spec specs[] = {
    {"Coalescing: misaligned reads", "global/read_offset", "type:f32 l2:cold bytes:max", "", "offset:0", "worst"},
    {"Coalescing: strided reads", "global/read_stride", "type:f32 l2:cold bytes:max", "stride:1,2,4,8,16,32", "stride:1",
     "stride:2"},
    {"Shared memory: bank conflicts", "shared/bank_conflict", "width:4 pattern:strided", "stride:1,2,4,8,16,32",
     "stride:1", "stride:32"},
    {"L1 carveout: a 64 KiB block working set", "cache/l1_split", "config:prefer_none block_bytes:64K", "",
     "carveout:0", "carveout:100"},
    {"L2 persistence: a hot set among streaming reads", "global/l2_persist", "policy:persist", "", "policy:none",
     "best"},
    {"Async copies into shared memory", "async/staging", "bytes:max", "", "method:sync stages:1", "best"},
    {"Distributed shared memory: another SM's", "cluster/dsm_latency", "", "", "target:own", "target:remote"},
};

using row = std::pair<const result*, const result_file*>;

std::vector<std::pair<std::string, std::string>> tokens(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in{std::string(text)};
  for (std::string t; in >> t;) {
    const std::size_t colon = t.find(':');
    out.emplace_back(t.substr(0, colon), colon == std::string::npos ? "" : t.substr(colon + 1));
  }
  return out;
}

// The rows of the family with every `keep` token (`max`: the largest value any row has).
std::vector<row> kept_rows(const std::vector<const result_file*>& files, const lesson_spec& s) {
  std::vector<row> all;
  for (const result_file* f : files)
    for (const result& r : f->results)
      if (r.family() == s.family) all.emplace_back(&r, f);
  for (const auto& token : tokens(s.keep)) {  // no binding: clang lambdas
    const std::string &key = token.first, &value = token.second;
    std::string want = value;
    if (value == "max") {
      for (const row& x : all)
        if (want == "max" || value_less(want, x.first->param(key))) want = std::string(x.first->param(key));
    }
    std::erase_if(all, [&](const row& x) { return x.first->param(key) != want; });
  }
  for (const auto& token : tokens(s.only)) {
    const std::string &key = token.first, &values = token.second;
    const std::string list = fmt::format(",{},", values);
    std::erase_if(all, [&](const row& x) { return list.find(fmt::format(",{},", x.first->param(key))) == std::string::npos; });
  }
  return all;
}

// A bar's label: the values of the parameters that vary among the bars.
std::string bar_label(const result& r, const std::vector<row>& bars) {
  std::string out;
  for (std::size_t i = 0; i < r.param_count(); ++i) {
    const std::string_view key = r.param_key(i);
    const bool varies = std::any_of(bars.begin(), bars.end(), [&](const row& x) { return x.first->param(key) != r.param(key); });
    if (varies) out += fmt::format("{}{}:{}", out.empty() ? "" : " ", key, r.param_value(i));
  }
  return out.empty() ? r.param_text() : out;
}

// The row whose parameters are `r`'s with the `change` tokens put in.
const row* variant_of(const row& r, std::string_view change, const std::vector<row>& pool) {
  const auto swaps = tokens(change);
  for (const row& x : pool) {
    bool same = x.first->param_count() == r.first->param_count();
    for (std::size_t i = 0; same && i < r.first->param_count(); ++i) {
      const std::string_view key = r.first->param_key(i);
      const auto swap = std::find_if(swaps.begin(), swaps.end(), [&](const auto& t) { return t.first == key; });
      same = x.first->param(key) == (swap != swaps.end() ? std::string_view(swap->second) : r.first->param(key));
    }
    if (same) return &x;
  }
  return nullptr;
}

bool time_like(const schema::headline& h) { return h.unit == "ns" || h.unit == "us" || h.metric == "slowdown"; }

// The contrast bar: a named one, or the highest (best) or lowest (worst) by the headline in
// its better direction, among the bars that have a base to be compared with.
const row* contrast_of(const lesson_spec& s, const std::vector<row>& bars, const std::vector<row>& pool,
                       const schema::headline& h) {
  const row* pick = nullptr;
  double pick_score = NAN;
  for (const row& x : bars) {
    const auto v = x.first->value(h.metric);
    if (!v || variant_of(x, s.base, pool) == nullptr || variant_of(x, s.base, pool)->first == x.first) continue;
    if (s.contrast != "best" && s.contrast != "worst") {
      const auto want = tokens(s.contrast).front();
      if (x.first->param(want.first) == want.second) return &x;
      continue;
    }
    const double better = time_like(h) ? -*v : *v;  // higher is better
    const double score = s.contrast == "best" ? better : -better;
    if (pick == nullptr || score > pick_score) pick = &x, pick_score = score;
  }
  return pick;
}

// Copies of a row's runs with every time multiplied by `by`.
std::vector<run> scaled_runs(const result& r, double by) {
  std::vector<run> out = r.runs;
  for (run& x : out) {
    x.time_us *= by;
    x.ci_low_us *= by;
    x.ci_high_us *= by;
    for (double& t : x.samples_us) t *= by;
  }
  return out;
}

// How the headline's ratio follows the time's: 1 where it is the time's ratio (latencies,
// slowdowns, speedups); else the ratio of the work behind the two rows (strided reads
// request fewer bytes), so that the contrast's times are made per unit of that work.
double work_ratio(const row& base, const row& contrast, const schema::headline& h) {
  if (h.unit == "x") return 1;
  const auto vb = base.first->value(h.metric), vc = contrast.first->value(h.metric);
  if (!vb || !vc || !(*vb > 0) || !(contrast.first->time_us > 0)) return NAN;
  const double t = contrast.first->time_us / base.first->time_us;
  return time_like(h) ? (*vc / *vb) / t : (*vc / *vb) * t;
}

// The effect of `contrast` against `base` as compare decides it, on the contrast's times
// scaled to the base's work: "slower" is a worse headline, "faster" a better one.
void decide_effect(profile_lesson& l, const row& base, const row& contrast, const schema::headline& h,
                   const std::vector<row>& bars) {
  const double k = work_ratio(base, contrast, h);
  if (std::isnan(k)) {
    l.effect_flag = "no headline value on one of the rows";
    return;
  }
  const bool rate = !time_like(h) && h.unit != "x";
  const std::vector<run> runs = scaled_runs(*contrast.first, rate ? 1 / k : k);
  side b, n;
  add_to_side(b, *base.first, *base.second);
  add_to_side(n, *contrast.first, *contrast.second);
  n.runs.clear();
  for (const run& x : runs) n.runs.push_back(&x);
  // Two rows of one run: no process-to-process shift between them.
  decide_options o;
  o.run_spread_us = 0;
  const decision d = decide(b, n, o, contrast.first->name);
  auto ratio = [rate](double change) { return rate ? 1 / (1 + change) : 1 + change; };
  const std::string what = rate ? fmt::format("the {} of", h.unit) : "the time of";
  const std::string range = std::isnan(d.low) ? std::string("no interval")
                                              : fmt::format("{:.3g} to {:.3g}", std::min(ratio(d.low), ratio(d.high)),
                                                            std::max(ratio(d.low), ratio(d.high)));
  l.effect = fmt::format("{}: {:.3g}x {} {} ({}, {:g} % interval): {}", bar_label(*contrast.first, bars), ratio(d.change),
                         what, bar_label(*base.first, bars), range, 100 * decide_options{}.confidence,
                         d.v == verdict::slower ? "worse" : d.v == verdict::faster ? "better" : to_string(d.v));
  if (d.v == verdict::unsure) l.effect_flag = fmt::format("unsure: {}", d.why.text);
}

profile_lesson lesson_of(const lesson_spec& s, const std::vector<const result_file*>& files) {
  profile_lesson l;
  l.title = std::string(s.title);
  const schema::headline* h = schema::find_headline(s.family);
  l.metric = h != nullptr ? std::string(h->metric) : "";
  l.unit = h != nullptr ? std::string(h->unit) : "";
  lesson_spec every = s;
  every.keep = every.only = "";
  const std::vector<row> pool = kept_rows(files, every), bars = kept_rows(files, s);
  for (const row& x : bars) l.bars.push_back(value_of(x.first, bar_label(*x.first, bars), x.second));
  if (h == nullptr || bars.empty()) {
    l.effect_flag = fmt::format("not measured: no {} rows", s.family);
    return l;
  }
  const row* contrast = contrast_of(s, bars, pool, *h);
  if (contrast == nullptr) {
    l.effect_flag = fmt::format("not measured: no row to set against {}", s.base);
    return l;
  }
  const row& base = *variant_of(*contrast, s.base, pool);
  std::vector<row> shown = bars;  // the labels name what varies among the bars and the base
  shown.push_back(base);
  decide_effect(l, base, *contrast, *h, shown);
  return l;
}

}  // namespace

std::vector<profile_lesson> profile_lessons(const std::vector<const result_file*>& files) {
  std::vector<profile_lesson> out;
  for (const lesson_spec& s : specs) out.push_back(lesson_of(s, files));
  return out;
}

}  // namespace membench::report
