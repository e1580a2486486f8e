// libFuzzer target: any bytes through the JSON reader and the views must end in a result
// or an input_error, never a crash, a hang or a sanitizer report; and the reader's fast
// path (rows split over the cores, numbers no view reads skipped) must agree with the
// plain one wherever it does not give up.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "reader.hpp"
#include "render.hpp"
#include "views.hpp"

namespace {

using namespace membench::report;

bool same_runs(const result& a, const result& b) {
  if (a.runs.size() != b.runs.size()) return false;
  for (std::size_t i = 0; i < a.runs.size(); ++i) {
    const run &x = a.runs[i], &y = b.runs[i];
    auto eq = [](double p, double q) { return p == q || (std::isnan(p) && std::isnan(q)); };
    if (!eq(x.time_us, y.time_us) || !eq(x.ci_low_us, y.ci_low_us) || !eq(x.sm_clock_mhz, y.sm_clock_mhz) ||
        x.converged != y.converged || x.throttle != y.throttle || x.samples_us != y.samples_us)
      return false;
  }
  return true;
}

void expect_same(const result_file& a, const result_file& b) {
  bool same = a.context == b.context && a.results.size() == b.results.size() && a.counter_names == b.counter_names;
  for (std::size_t i = 0; same && i < a.results.size(); ++i) {
    const result &x = a.results[i], &y = b.results[i];
    same = x.name == y.name && x.error == y.error && x.label == y.label && same_runs(x, y) &&
           std::equal(x.counters.begin(), x.counters.end(), y.counters.begin(), y.counters.end()) &&
           (x.time_us == y.time_us || (std::isnan(x.time_us) && std::isnan(y.time_us)));
  }
  if (!same) std::abort();  // the two paths disagree
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(bytes), size);
  for (const read_options& what : {read_options{}, compare_reads()}) {
    bool plain_ok = true;
    result_file plain;
    try {
      plain = read_results(text, "fuzz", what, reader_path::plain);
    } catch (const input_error&) {
      plain_ok = false;
    }
    try {
      const result_file fast = read_results(text, "fuzz", what, reader_path::fast_only);
      if (!plain_ok) std::abort();  // the fast path accepted what the plain one rejects
      expect_same(plain, fast);
    } catch (const input_error&) {
      // the fast path gave up: fine
    }
  }
  try {
    const result_file f = parse_results(text, "fuzz");
    try {
      (void)render_csv(view_table({f}, {}));
    } catch (const input_error&) {
    }
    try {
      (void)render_markdown(view_compare(f, f, {}).doc);
    } catch (const input_error&) {
    }
    try {
      (void)render_html(view_gpus({f}, {}));
    } catch (const input_error&) {
    }
    try {
      (void)render_html(view_history({f, f}, {}));
      (void)export_bmf(f, {});
      (void)export_gab(f, {});
    } catch (const input_error&) {
    }
  } catch (const input_error&) {
  }
  return 0;
}
