// libFuzzer target: any bytes through the JSON reader and the views, and through every other
// reader of the report tool (a fleet baseline, compare's pairs, a views file), must end in a
// result or an input_error, never a crash, a hang or a sanitizer report; the split read (rows
// cut into parts and blocks at guessed boundaries) must agree with the whole one wherever
// it does not give up, and so must a read of the same bytes from a pipe (an input that is
// not a regular file); and every sample accepted must be a time.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fleet/fleet.hpp"
#include "read/reader.hpp"
#include "read/reader_rows.hpp"
#include "render/render.hpp"
#include "views/view_sets.hpp"
#include "views/views.hpp"

namespace {

using namespace membench::report;

bool same_runs(const result& a, const result& b) {
  if (a.runs.size() != b.runs.size()) return false;
  for (std::size_t i = 0; i < a.runs.size(); ++i) {
    const run &x = a.runs[i], &y = b.runs[i];
    auto eq = [](double p, double q) { return p == q || (std::isnan(p) && std::isnan(q)); };
    if (!eq(x.time_us, y.time_us) || !eq(x.ci_low_us, y.ci_low_us) || !eq(x.fastest_us, y.fastest_us) ||
        !eq(x.sm_clock_mhz, y.sm_clock_mhz) ||
        x.converged != y.converged || x.throttle != y.throttle || x.samples_us != y.samples_us ||
        x.at_timer_floor != y.at_timer_floor)
      return false;
    const run::batch_figure &p = x.batch, &q = y.batch;
    if (!eq(p.us, q.us) || !eq(p.ci_low_us, q.ci_low_us) || !eq(p.ci_high_us, q.ci_high_us) || !eq(p.samples, q.samples) ||
        !eq(p.noise_pct, q.noise_pct) || !eq(p.sm_clock_mhz, q.sm_clock_mhz) || !eq(p.launches, q.launches) ||
        p.samples_us != q.samples_us)
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
  if (!same) std::abort();  // the two reads disagree
}

// The reader refuses a row with a sample that is no time (0, negative, beyond max_time_us).
void expect_valid_samples(const result_file& f) {
  for (const result& r : f.results) {
    for (const run& x : r.runs) {
      for (const double s : x.samples_us) {
        if (!valid_time_us(s, false)) std::abort();
      }
      for (const double s : x.batch.samples_us) {
        if (!valid_time_us(s, false)) std::abort();
      }
    }
  }
}

// The same bytes from a pipe: read as they come, with the same result or the same refusal.
void expect_same_from_pipe(std::string_view text, const read_options& what, const result_file* whole) {
  int fds[2];
  if (text.size() > 65536 || ::pipe(fds) != 0) return;  // at most what a pipe holds without a reader
  const bool written = ::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fds[1]);
  if (written) {
    try {
      const result_file piped = load_results("/dev/fd/" + std::to_string(fds[0]), what);
      if (whole == nullptr) std::abort();  // the pipe accepted what the whole read rejects
      expect_same(*whole, piped);
    } catch (const input_error&) {
      if (whole != nullptr) std::abort();
    }
  }
  ::close(fds[0]);
}

// The documents beside the results: each reader accepts or refuses, nothing else.
void read_documents(std::string_view text) {
  try {
    (void)parse_baseline(text, "fuzz");
  } catch (const input_error&) {
  }
  try {
    (void)parse_row_pairs(text, "fuzz");
  } catch (const input_error&) {
  }
  try {
    (void)parse_view_specs(text, "fuzz");
  } catch (const input_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(bytes), size);
  read_documents(text);
  // Small inputs in several parts of small blocks: every cut the split read can make.
  for (const read_options& what : {read_options{}, compare_reads()}) {
    bool whole_ok = true;
    result_file whole;
    try {
      whole = read_results(text, "fuzz", what, read_schedule::whole);
    } catch (const input_error&) {
      whole_ok = false;
    }
    if (whole_ok) expect_valid_samples(whole);
    expect_same_from_pipe(text, what, whole_ok ? &whole : nullptr);
    for (const split_options& split : {split_options{}, split_options{3, 64}}) {
      try {
        const result_file cut = read_results(text, "fuzz", what, read_schedule::split, split);
        if (!whole_ok) std::abort();  // the split read accepted what the whole one rejects
        expect_same(whole, cut);
      } catch (const input_error&) {
        // the split read gave up: fine
      }
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
