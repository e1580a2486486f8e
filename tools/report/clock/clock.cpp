// clock's output declared once: a record per file, its fields the JSON's keys and, with a
// heading, the table's columns.
#include "clock/clock.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/record.hpp"
#include "render/render_record.hpp"
#include "views/sm_clock.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

cell mhz_cell(double mhz, const char* format = "{:.0f}") {
  return {std::isfinite(mhz) ? fmt::format(fmt::runtime(format), mhz) : "-", mhz};
}

cell agreement_cell(const std::string& said) {
  return {said, NAN, said.starts_with("differ") ? tone::bad : said == "agree" ? tone::good : tone::muted};
}

double context_number(const result_file& f, const std::string& key) {
  const auto v = numeric_value(f.context_value(key));
  return v ? *v : NAN;
}

field_value context_text(const result_file& f, const std::string& key) {
  return f.context.count(key) != 0 ? field_value(f.context.at(key)) : field_value();
}

// NVML gives whole MHz: half a MHz is its resolution.
double nvml_half_pct(double mhz) { return mhz > 0 ? 100 * 0.5 / mhz : NAN; }

record clock_record(const result_file& f, const sm_clock_readings& c) {
  const std::string nvml = clock_agreement(c.event_mhz, c.event_half_pct, c.nvml_mhz, nvml_half_pct(c.nvml_mhz));
  const std::string probe = clock_agreement(c.event_mhz, c.event_half_pct, c.probe_mhz, probe_step_pct);
  const double max_mhz = context_number(f, "nvml_max_sm_clock_mhz");
  record r;
  r.show("file", f.path, "file", {f.path}).show("gpu", f.gpu(), "GPU", {f.gpu()});
  r.add("uuid", context_text(f, "gpu_uuid")).add("row", c.row);
  r.show("event_mhz", number_value(c.event_mhz), "events (MHz)", mhz_cell(c.event_mhz, "{:.1f}"));
  r.show("event_half_pct", number_value(c.event_half_pct), "+- %",
         {std::isfinite(c.event_half_pct) ? fmt::format("{:.3f}", c.event_half_pct) : "-", c.event_half_pct});
  r.show("nvml_mhz", number_value(c.nvml_mhz), "NVML (MHz)", mhz_cell(c.nvml_mhz));
  r.show("nvml_vs_events", nvml, "NVML vs events", agreement_cell(nvml));
  r.show("probe_mhz", number_value(c.probe_mhz), "probe (MHz)", mhz_cell(c.probe_mhz));
  r.add("probe_step_pct", probe_step_pct).show("probe_vs_events", probe, "probe vs events (step 0.8 %)", agreement_cell(probe));
  r.show("nvml_max_mhz", number_value(max_mhz), "NVML max (MHz)", mhz_cell(max_mhz));
  // A reading that is no finding (unconverged, throttled, beyond the GPU's maximum) says so.
  r.show("problem", c.problem, "no finding", {c.problem.empty() ? "-" : c.problem, NAN,
                                              c.problem.empty() ? tone::muted : tone::bad});
  return r;
}

// A record per file with a reading; the others named in `missing`.
std::vector<record> clock_records(const file_refs& files, std::vector<std::string>& missing) {
  std::vector<record> out;
  for (const result_file* f : pointers(files)) {
    const sm_clock_readings c = read_sm_clock({f});
    if (c.row.empty()) {
      missing.push_back(fmt::format("{}: no compute/sm_clock row with an event clock (membench "
                                    "--benchmark_filter=compute/sm_clock measures one)", f->path));
    } else {
      out.push_back(clock_record(*f, c));
    }
  }
  if (out.empty())
    throw input_error(missing.size() == 1 ? missing.front()
                                          : "clock: no file has a compute/sm_clock row with an event clock");
  return out;
}

}  // namespace

document view_clock(const file_refs& files) {
  document d;
  d.title = "SM clock, three readings";
  const std::vector<record> records = clock_records(files, d.notes);
  table t;
  t.title = "the SM clock of each run";
  t.unit = "events: the slope of two spins over event time, +- the half-width of its interval; agree: within the two "
           "readings' resolutions (NVML: whole MHz; the probe: one 32 ns step of its 4 us window)";
  t.header = record_header(records.front());
  for (const record& r : records) t.rows.push_back(record_row(r));
  d.tables.push_back(std::move(t));
  return d;
}

std::string clock_json(const file_refs& files) {
  std::vector<std::string> notes;
  const std::vector<record> records = clock_records(files, notes);
  return json_text({{"format", "membench-clock"}, {"version", 1}, {"files", records_json(records)}, {"notes", notes}}, 2);
}

}  // namespace membench::report
