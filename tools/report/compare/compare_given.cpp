// compare --pairs: rows named on each side, perhaps differently or in different files (an
// offset:1 row against the offset:0 row, the cg build's row against the default build's),
// each pair decided as compare decides one benchmark.
#include <algorithm>
#include <cmath>
#include <deque>
#include <initializer_list>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "compare/compare_stages.hpp"
#include "core/input_text.hpp"

namespace membench::report {
namespace {

using json = nlohmann::json;

// A key the format does not have is a misspelling ("scael"): the pair would answer another
// question. `what` names the object: "a pair", or the document ({"pairs": [...]}), where a
// "threshold" beside the pairs would be passed over unsaid and the pairs judged at 5 %.
void only_keys(const json& object, std::initializer_list<std::string_view> known, const std::string& path,
               std::string_view what = "a pair") {
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw input_error(fmt::format("{}: {} has no key \"{}\" (its keys: {})", path, what, key, fmt::join(known, ", ")));
  }
}

// A number the pair gives, or `absent`. A boolean is no number: json would read true as 1,
// a 1 % threshold or a scale of 1 nobody asked for.
double number_at(const json& object, const char* key, double absent, const std::string& path) {
  const auto it = object.find(key);
  if (it == object.end()) return absent;
  if (!it->is_number())
    throw input_error(fmt::format("{}: a pair's \"{}\" must be a number, not {}", path, key, it->dump()));
  return it->get<double>();
}

named_row row_of(const json& side, const std::string& path) {
  if (!side.is_object() || !side.contains("file") || !side.contains("row"))
    throw input_error(fmt::format("{}: each side of a pair needs \"file\" and \"row\"", path));
  only_keys(side, {"file", "row", "scale"}, path);
  named_row r{side.at("file").get<std::string>(), side.at("row").get<std::string>(), number_at(side, "scale", 1.0, path)};
  // A per-element count, a unit: within a million either way (1e308 made a time infinite).
  if (!(r.scale >= 1e-6 && r.scale <= 1e6))
    throw input_error(fmt::format("{}: scale of '{}' must be from 1e-6 to 1e6", path, r.row));
  return r;
}

const result_file* file_named(const file_refs& files, const std::string& path) {
  for (const result_file& f : files) {
    if (f.path == path) return &f;
  }
  throw input_error(fmt::format("--pairs: file {} was not loaded", path));
}

// The result with every time multiplied by `k` (what decide weighs: runs, intervals, samples,
// batch figures).
result scaled(const result& r, double k) {
  result out = r;
  out.time_us *= k;
  for (run& x : out.runs) {
    x.time_us *= k;
    x.ci_low_us *= k;
    x.ci_high_us *= k;
    x.fastest_us *= k;
    for (double& s : x.samples_us) s *= k;
    x.batch.us *= k;
    x.batch.ci_low_us *= k;
    x.batch.ci_high_us *= k;
    for (double& s : x.batch.samples_us) s *= k;
  }
  return out;
}

// A side's row from its file, scaled when asked; scaled copies live in `store`.
const result* side_row(const named_row& n, const result_file& f, std::deque<result>& store) {
  const result* r = f.find(n.row);
  if (r == nullptr || n.scale == 1) return r;
  return &store.emplace_back(scaled(*r, n.scale));
}

// One comparison listed twice (rows, scales, threshold and margin alike) would be counted
// twice, and would widen the family the false calls are bounded over.
void refuse_repeat(const std::vector<row_pair>& pairs, const std::string& path) {
  const row_pair& last = pairs.back();
  const auto same = [](const named_row& a, const named_row& b) {
    return a.file == b.file && a.row == b.row && a.scale == b.scale;
  };
  const auto equal = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  for (std::size_t i = 0; i + 1 < pairs.size(); ++i) {
    if (same(pairs[i].base, last.base) && same(pairs[i].next, last.next) &&
        equal(pairs[i].threshold_pct, last.threshold_pct) && equal(pairs[i].margin_pct, last.margin_pct))
      throw input_error(fmt::format("{}: the pair {} ({}) against {} ({}) is listed twice", path, last.base.row,
                                    last.base.file, last.next.row, last.next.file));
  }
}

void add_new(std::vector<const result_file*>& files, const result_file* f) {
  if (std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
}

}  // namespace

std::vector<row_pair> parse_row_pairs(std::string_view text, const std::string& path) {
  json j;
  try {
    j = parse_strict_json<json>(text, path);
    if (j.is_object()) {
      only_keys(j, {"pairs"}, path, "the document");
      j = j.at("pairs");
    }
    if (!j.is_array()) throw input_error(fmt::format("{}: --pairs wants a list of pairs", path));
    std::vector<row_pair> out;
    for (const json& p : j) {
      if (p.is_object()) only_keys(p, {"base", "new", "threshold", "margin"}, path);
      out.push_back({row_of(p.at("base"), path), row_of(p.at("new"), path), number_at(p, "threshold", NAN, path),
                     number_at(p, "margin", NAN, path)});
      // Bounded as --threshold is: a pair of two rows may ask one to be 2.5x the other (a margin
      // of 150 %), which one row against itself (--margin, up to 100 %) never needs.
      const double t = out.back().threshold_pct, m = out.back().margin_pct;
      if (!std::isnan(t) && !(t >= 0 && t <= 1000))
        throw input_error(fmt::format("{}: a pair's threshold {} is not within 0 to 1000 %", path, t));
      if (!std::isnan(m) && !(m >= 0 && m <= 1000))
        throw input_error(fmt::format("{}: a pair's margin {} is not within 0 to 1000 %", path, m));
      refuse_repeat(out, path);
    }
    return out;
  } catch (const json::exception& e) {
    throw input_error(fmt::format("{}: {}", path, e.what()));
  }
}

compare_outcome view_compare_pairs(const std::vector<row_pair>& given, const file_refs& files,
                                   const compare_options& opt) {
  if (given.empty()) throw input_error("--pairs: no pair to compare");
  std::deque<result> store;
  std::vector<benchmark_pair> pairs(given.size());
  for (std::size_t i = 0; i < given.size(); ++i) {
    const row_pair& g = given[i];
    benchmark_pair& p = pairs[i];
    p.name = &g.base.row;
    p.new_name = &g.next.row;
    p.base_files = {file_named(files, g.base.file)};
    p.next_files = {file_named(files, g.next.file)};
    p.base = {side_row(g.base, *p.base_files[0], store)};
    p.next = {side_row(g.next, *p.next_files[0], store)};
    p.base_scale = g.base.scale;
    p.next_scale = g.next.scale;
    p.threshold_pct = g.threshold_pct;
    p.margin_pct = g.margin_pct;
    classify(p, {p.base_files, p.next_files}, opt.allow_missing);
  }
  // Each pair decides on its own files; the document's notes name every file of a side.
  std::vector<const result_file*> base, next;
  for (const benchmark_pair& p : pairs) {
    add_new(base, p.base_files.front());
    add_new(next, p.next_files.front());
  }
  const compare_sides every{base, next};
  family_outcome fam;
  const decided_pairs decided = decide_pairs(pairs, every, opt, fam);
  return compare_outcome_of(every, pairs, decided, fam, count_verdicts(pairs, decided), opt);
}

}  // namespace membench::report
