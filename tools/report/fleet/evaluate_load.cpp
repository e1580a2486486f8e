#include "fleet/evaluate_load.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace membench::report {

std::vector<std::string> json_files(const std::string& folder) {
  std::vector<std::string> out;
  // A link that loops, or an entry that cannot be read, is said with its path, not thrown
  // out of the walk as an abort.
  try {
    for (const auto& e : std::filesystem::recursive_directory_iterator(folder)) {
      if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path().string());
    }
  } catch (const std::filesystem::filesystem_error& e) {
    throw input_error(fmt::format("{}: {}", e.path1().string(), e.code().message()));
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) throw input_error(folder + ": no .json file");
  return out;
}

std::vector<stratum_set> load_strata(const std::vector<std::string>& folders, std::vector<result_file>& keep,
                                     const std::string& filter, bool by_level) {
  for (const std::string& folder : folders) {
    for (const std::string& path : json_files(folder)) keep.push_back(load_results(path, compare_reads()));
  }
  for (result_file& f : keep) f.build_index();
  std::vector<const result_file*> refs;
  for (const result_file& f : keep) refs.push_back(&f);
  std::vector<fleet> fleets = group_fleets(file_refs(refs), true);
  std::vector<stratum_set> out;
  for (fleet& f : fleets) {
    std::vector<std::string> multi, no_level;
    gather_rows(f, name_filter(filter), multi, by_level ? &no_level : nullptr);
    std::vector<figure> figs;
    for (const fleet_row& r : f.rows) figs.push_back(r.fig);
    stratum_set s{fmt::format("{}, {}", f.key.gpu_name, stratum_text(f.stratum)), matrix_of(f, row_metas(f), figs), {}};
    for (const fleet_test::scope_ref& sc : fleet_test::scopes_of(s.m.rows)) {
      if (sc.kind == fleet_test::scope_kind::family) s.families.push_back(sc.name);
    }
    out.push_back(std::move(s));
  }
  // Strata without a row judge nothing: an evaluation of them would read as one of no alarms.
  if (std::all_of(out.begin(), out.end(), [](const stratum_set& s) { return s.m.rows.empty(); }))
    throw input_error(filter.empty() ? std::string("the runs have no row to judge")
                                     : fmt::format("no row of the runs matches --filter '{}'", filter));
  return out;
}

}  // namespace membench::report
