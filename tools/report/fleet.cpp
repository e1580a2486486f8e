// fleet: the stages (fleet_stages.hpp) in order: group, gather, decide and correct,
// summarize, render; and a baseline when asked.
#include <fmt/format.h>

#include "fleet_stages.hpp"

namespace membench::report {

fleet_outcome view_fleet(const file_refs& files, const fleet_options& opt, const fleet_baseline* against) {
  if (files.empty()) throw input_error("fleet: no file to judge");
  if (against != nullptr && opt.make_baseline)
    throw input_error("fleet: --baseline judges against a baseline, --baseline-out makes one from a fleet: not both");
  fleet_state s;
  s.fleets = group_fleets(files, opt.allow_mixed);
  const name_filter filter(opt.test.filter);
  std::size_t rows = 0;
  for (fleet& f : s.fleets) {
    gather_rows(f, filter, s.multi_gpu, opt.calibration_runs);
    rows += f.rows.size();
  }
  if (rows == 0)
    throw input_error(fmt::format("fleet: no row of one GPU to compare (--filter '{}'{})", opt.test.filter,
                                  s.multi_gpu.empty() ? "" : "; rows that involve several GPUs are left out"));
  if (against != nullptr) s.baseline_path = against->path;
  decide_fleets(s, opt, against);
  const std::vector<gpu_summary> gpus = summarize_gpus(s, opt);
  fleet_outcome out;
  if (opt.test.as_json) {
    out.json = fleet_json(s, gpus, opt);
  } else {
    out.doc = fleet_document(s, gpus, opt);
  }
  if (opt.make_baseline) out.baseline = baseline_text(s, opt);
  for (const gpu_summary& g : gpus) {
    ++out.gpus;
    out.unsure += g.v == gpu_verdict::unsure;
    if (g.v != gpu_verdict::outlier) continue;
    ++out.outliers;
    const fleet_gpu& gpu = s.fleets[g.fleet].gpus[g.gpu];
    out.outlier_names.push_back(fmt::format("{} ({}): {}", gpu.uuid, gpu.host, g.reason));
  }
  return out;
}

}  // namespace membench::report
