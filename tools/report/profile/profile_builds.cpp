// profile over several builds of one GPU: each headline figure of the base build (the ladder's
// and the levels' rows) looked up by name in every other build's files, so a ratio compares one
// benchmark with itself, and coloured only where compare's test calls the difference.
#include <fmt/format.h>

#include "profile/profile.hpp"
#include "views/view_marks.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

struct located {
  const result* row = nullptr;
  const result_file* file = nullptr;
};

located find_row(const std::vector<const result_file*>& files, const std::string& name) {
  if (name.empty()) return {};
  for (const result_file* f : files) {
    if (const result* r = f->find(name)) return {r, f};
  }
  return {};
}

// The base build's figure `v` in the other builds, its ratios added to `marks` as table 0, row `row`.
build_row row_over_builds(const std::vector<std::vector<const result_file*>>& files, const profile_value& v,
                          std::size_t row, difference_marks& marks) {
  build_row out;
  out.values.push_back(v);
  const located base = find_row(files.front(), v.row);
  for (std::size_t k = 1; k < files.size(); ++k) {
    const located at = find_row(files[k], v.row);
    profile_value x = value_of(at.row, v.label, at.file);
    if (at.row == nullptr) x.flag = v.row.empty() ? v.flag : "not measured in this build";
    if (base.row != nullptr && at.row != nullptr) marks.add(*base.row, *base.file, *at.row, *at.file, 0, row, k - 1);
    out.ratios.push_back(ratio_cell(x.value, v.value));
    out.values.push_back(std::move(x));
  }
  return out;
}

}  // namespace

build_comparison compare_builds(const std::vector<std::string>& builds,
                                const std::vector<std::vector<const result_file*>>& files,
                                const std::vector<const profile_value*>& base) {
  build_comparison out;
  out.builds = builds;
  difference_marks marks;
  for (const profile_value* v : base) out.rows.push_back(row_over_builds(files, *v, out.rows.size(), marks));
  // The marks decide over every ratio at once (one family of tests) and colour a document's cells.
  document d;
  d.tables.emplace_back();
  for (const build_row& r : out.rows) d.tables.front().rows.push_back(r.ratios);
  out.note = marks.apply(d);
  for (std::size_t i = 0; i < out.rows.size(); ++i) out.rows[i].ratios = d.tables.front().rows[i];
  return out;
}

}  // namespace membench::report
