#!/usr/bin/env python3
"""reports/make_findings.py on tiny fixtures (run_a.json, run_b.json, run_c.json beside this
file): what it refuses, the caveats it renders, the intervals it computes (checked against
values worked out by hand in the comments), its comparisons, verdicts and best-of-N.

  python3 tests/findings/test_make_findings.py
"""
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE.parent.parent / "reports" / "make_findings.py"
# membench-report: the first argument (ctest passes the built one), else $MEMBENCH_REPORT, else the dev build.
REPORT = (sys.argv.pop(1) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else
          os.environ.get("MEMBENCH_REPORT") or str(HERE.parent.parent / "build/dev/bin/membench-report"))
ALIASES = "".join(f"<!-- alias {a} = {HERE / f} -->\n" for a, f in
                  (("A", "run_a.json"), ("B", "run_b.json"), ("C", "run_c.json")))


def render(body):
    """(exit code, stdout without the file list, stderr) of the generator on ALIASES + body."""
    with tempfile.TemporaryDirectory() as d:
        template = Path(d) / "t.md.in"
        template.write_text(ALIASES + body + "\n")
        p = subprocess.run([sys.executable, str(SCRIPT), "--report", REPORT, str(template)], capture_output=True,
                           text=True)
    return p.returncode, p.stdout.split("\n## Files behind the numbers")[0].strip(), p.stderr


class Findings(unittest.TestCase):
    def ok(self, body):
        rc, out, err = render(body)
        self.assertEqual(rc, 0, err)
        return out

    def refused(self, body, *fragments):
        rc, out, err = render(body)
        self.assertEqual(rc, 1, f"expected a refusal, got: {out}")
        for f in fragments:
            self.assertIn(f, err)
        return err

    # usable rows
    def test_a_usable_row_renders_bare(self):
        self.assertEqual(self.ok("{{A#k/fast@time|.1f}}"), "100.0")

    def test_an_unconverged_row_is_refused_naming_file_row_and_reason(self):
        self.refused("{{A#k/unconverged@time|.1f}}", "run_a.json", "'k/unconverged'", "did not converge (3 samples",
                     "|unconverged")

    def test_the_opt_in_marker_renders_the_caveat(self):
        self.assertEqual(self.ok("{{A#k/unconverged@time|.1f|unconverged}}"), "123.4 (not converged, 3 samples)")

    def test_a_marker_no_row_needs_is_refused(self):
        self.refused("{{A#k/fast@time|.1f|unconverged}}", "no row of the reference needs it")

    def test_a_throttled_row_is_refused_and_its_marker_renders_the_reason(self):
        self.refused("{{A#k/throttled@time|.0f}}", "'k/throttled'", "throttle:sw_power_cap")
        self.assertEqual(self.ok("{{A#k/throttled@time|.0f|throttled}}"), "150 (throttled: sw_power_cap)")

    def test_a_row_without_convergence_counters_is_refused_unless_marked(self):
        self.refused("{{A#k/old@time|.0f}}", "'k/old'", "records no `converged`")
        self.assertEqual(self.ok("{{A#k/old@time|.0f|unrecorded}}"), "40 (convergence not recorded)")

    def test_an_error_row_is_refused_whatever_the_flags(self):
        self.refused("{{A#k/error@time|.0f|unconverged}}", "'k/error' is an error row")

    def test_a_ratio_names_the_unusable_rows_among_its_operands(self):
        self.assertEqual(self.ok("{{A#k/unconverged@time / A#k/fast@time|.2f|ci|unconverged}}"),
                         "1.23x [1.09, 1.39] (not converged: 1 of 2 rows (3 samples))")

    # intervals
    def test_a_time_ratio_interval_is_compares_interval_of_the_change(self):
        # 100 [99, 101] / 200 [198, 202]: each +-1 % at 95 %, a log sd of 0.01/1.96 a row;
        # the log ratio's half width 1.96 * sqrt(2) * 0.01/1.96 = 0.01414: 0.5 [0.4930, 0.5071]
        self.assertEqual(self.ok("{{A#k/fast@time / A#k/slow@time|.4f|ci}}"), "0.5000x [0.4930, 0.5071]")

    def test_a_rate_ratio_interval_comes_from_the_time_intervals(self):
        # GB/s 10 and 5: the inverse of the time ratio's interval, 2 [1/0.5071, 1/0.4930]
        self.assertEqual(self.ok("{{A#k/fast@gb_per_s / A#k/slow@gb_per_s|.4f|ci}}"), "2.0000x [1.9719, 2.0285]")

    def test_rows_without_an_interval_get_one_from_noise_and_samples(self):
        h = 1.959964 * math.sqrt(math.pi / 2) * 0.02 / math.sqrt(16)  # 0.012282
        want = f"50.000 [{50 * math.exp(-h):.3f}, {50 * math.exp(h):.3f}]"  # [49.390, 50.618]
        self.assertEqual(want, "50.000 [49.390, 50.618]")
        self.assertEqual(self.ok("{{A#k/noise@time|.3f|ci}}"), want)

    def test_a_ratio_of_two_rows_is_quoted_with_its_interval_or_not_at_all(self):
        self.refused("{{A#k/fast@time / A#k/near@time|.3f}}", "quoted with its interval")
        self.refused("{{A#k/fast@time / A#k/slow@time|.3f}}", "quoted with its interval")  # excludes 1: still refused
        self.assertEqual(self.ok("{{A#k/fast@time / A#k/near@time|.3f|ci}}"), "0.995x [0.981, 1.009]")

    def test_a_ratio_as_a_percentage_keeps_its_interval(self):
        self.assertEqual(self.ok("{{A#k/fast@time / A#k/slow@time|.1%|ci}}"), "50.0% [49.3%, 50.7%]")

    def test_names_the_schema_lacks_are_refused(self):
        # A misspelt counter or context key is an error, never a row or file without it.
        self.refused("{{A#k/fast@gb_per_sec|.1f}}", "'gb_per_sec' is not a counter of the schema")
        self.refused("{{best A#sweep/.*@gbps}}", "'gbps' is not a counter of the schema")
        self.refused("{{A$gpu_l2_size}}", "'gpu_l2_size' is not a context key of the schema")
        self.assertEqual(self.ok("{{A$gpu_l2_bytes / 1048576|.0f}}"), "50")

    def test_a_counter_without_an_interval_is_refused_where_one_is_needed(self):
        self.refused("{{A#k/fast@samples / A#k/fast@gb_per_s|.2f}}", "carries no interval")
        self.assertEqual(self.ok("{{A#k/fast@samples|.0f}}"), "10")

    def test_a_counter_holding_a_ratio_is_refused_for_the_rows_quotient(self):
        # speedup, slowdown, pct_cublas, ...: a ratio without its interval
        self.refused("{{A#k/speedup@speedup|.2f}}", "'speedup' is a ratio of two rows")
        self.refused("{{best A#k/.*@speedup}}", "'speedup' is a ratio of two rows")

    # cycles: the time x the sampled SM clock
    def test_cycles_are_time_times_the_sampled_clock_with_the_times_interval(self):
        self.assertEqual(self.ok("{{A#k/clocked_fast@cycles|.0f|ci}}"), "100000 [99000, 101000]")
        # 100 us at 1000 MHz against 200 us at 500 MHz: twice as fast in time, the same in
        # cycles, so compare's verdict in time is unsure (it must hold in cycles too)
        self.assertEqual(self.ok("{{cmp A#k/clocked_fast@time vs A#k/clocked_slow@time by 2%}}"),
                         "unsure (clock: -50.0 % in time, +0.0 % in cycles (500 vs 1000 MHz))")
        self.assertEqual(self.ok("{{cmp A#k/clocked_fast@cycles vs A#k/clocked_slow@cycles by 2%|.3f|ci}}"),
                         "same within 2 % (1.000x [0.986, 1.014])")

    # the timer's floor
    def test_a_row_whose_zero_width_interval_sits_at_the_event_pair_is_refused(self):
        # 1.312 [1.312, 1.312] us against an event pair of 1.248 us
        for body in ("{{A#alloc/async/bytes:1M@time|.3f}}", "{{A#alloc/async/bytes:1M@time|.3f|ci}}",
                     "{{cmp A#alloc/async/bytes:1M@time vs A#alloc/async/bytes:4K@time}}",
                     "{{A#alloc/async/bytes:1M@time / A#alloc/async/bytes:4K@time|ci}}"):
            self.refused(body, "'alloc/async/bytes:1M' is at the timer's floor", "has no width at the event pair's 1.248 us")

    def test_a_row_labelled_floor_timer_is_refused(self):
        self.refused("{{A#alloc/labelled/bytes:1M@time|.3f|ci}}", "labelled floor:timer")

    def test_a_row_with_an_interval_or_far_from_the_event_pair_is_not_at_the_floor(self):
        self.assertEqual(self.ok("{{A#alloc/async/bytes:4K@time|.3f|ci}}"), "1.760 [1.728, 1.760]")
        self.assertEqual(self.ok("{{A#alloc/quantized/bytes:1M@time|.3f}}"), "2.016")

    def test_percall_states_the_floor_with_its_numbers_and_no_time_a_call(self):
        self.assertEqual(self.ok("{{percall A#alloc/async/bytes:1M|.3f}}"),
                         "the timer's floor, not a call: 1.312 [1.312, 1.312] µs against an event pair's 1.248 µs")

    def test_percall_gives_the_time_a_call_with_its_interval_from_calls_per_sample(self):
        self.assertEqual(self.ok("{{percall A#alloc/percall/bytes:1M|.3f}}"),
                         "0.250 [0.240, 0.260] µs a call (100 calls a sample)")
        self.refused("{{percall A#alloc/async/bytes:4K}}", "records no calls_per_sample")

    # comparisons and verdicts
    def test_overlapping_rows_compare_unsure_or_same_within_a_threshold(self):
        self.assertEqual(self.ok("{{cmp A#k/fast@time vs A#k/near@time}}"), "unsure (too noisy)")
        self.assertEqual(self.ok("{{cmp A#k/fast@time vs A#k/near@time by 2%}}"), "same within 2 %")

    def test_disjoint_rows_compare_faster_or_slower_by_speed(self):
        self.assertEqual(self.ok("{{cmp A#k/fast@time vs A#k/slow@time}}"), "faster")
        self.assertEqual(self.ok("{{cmp A#k/slow@gb_per_s vs A#k/fast@gb_per_s|.2f|ci}}"),
                         "slower (0.50x [0.49, 0.51])")
        self.assertEqual(self.ok("{{cmp A#k/fast@time vs A#k/slow@time by 150%}}"), "same within 150 %")

    def test_an_assert_on_overlapping_rows_fails_the_run(self):
        self.refused("{{assert A#k/fast@time < A#k/near@time}}", "does not hold on compare's verdicts")

    def test_an_assert_the_intervals_show_renders_its_ratio(self):
        self.assertEqual(self.ok("{{assert A#k/fast@time < A#k/slow@time|.3f}}"), "0.500x [0.493, 0.507]")
        self.refused("{{assert A#k/fast@time < A#k/slow@time by 100%}}", "does not hold")  # -50 % is within 100 %

    def test_verdicts(self):
        # slow / fast: 2 [1.9719, 2.0285]
        self.assertEqual(self.ok("{{verdict A#k/slow@time > A#k/fast@time by 50%}}"), "holds")
        self.assertEqual(self.ok("{{verdict A#k/slow@time > A#k/fast@time by 150%}}"), "does not hold")
        self.assertEqual(self.ok("{{verdict A#k/fast@time < A#k/near@time}}"), "undecided (inside uncertainty)")
        self.assertEqual(self.ok("{{verdict A#k/slow@time ~ 2*A#k/fast@time within 5%}}"), "holds")
        self.assertEqual(self.ok("{{verdict A#k/fast@time <= A#k/near@time within 2%}}"), "holds")
        self.assertEqual(self.ok("{{verdict A#k/slow@time > A#k/fast@time and A#k/fast@time < A#k/near@time}}"),
                         "undecided (inside uncertainty)")
        self.assertEqual(self.ok("{{verdict A#k/slow@time < A#k/fast@time and A#k/fast@time < A#k/near@time}}"),
                         "does not hold")

    def test_rate_clauses_compare_rates_of_rows_that_move_different_bytes(self):
        # k/half moves half k/fast's bytes in the same time: half the GB/s, the same time.
        self.assertEqual(self.ok("{{verdict A#k/half@gb_per_s < A#k/fast@gb_per_s by 40%}}"), "holds")
        self.assertEqual(self.ok("{{verdict A#k/half@time ~ A#k/fast@time within 1%}}"), "holds")
        self.assertEqual(self.ok("{{cmp A#k/half@gb_per_s vs A#k/fast@gb_per_s|.2f|ci}}"), "slower (0.50x [0.49, 0.51])")
        self.refused("{{verdict A#k/half@gb_per_s < A#k/fast@time}}", "two time counters or two rate counters")

    def test_within_clauses_hold_on_same_and_fail_on_the_opposite_call(self):
        # slow / fast = 2: a change of +100 %
        self.assertEqual(self.ok("{{verdict A#k/slow@time >= A#k/fast@time within 1%}}"), "holds")
        self.assertEqual(self.ok("{{verdict A#k/slow@time <= A#k/fast@time within 1%}}"), "does not hold")
        self.assertEqual(self.ok("{{verdict A#k/slow@time ~ A#k/fast@time within 1%}}"), "does not hold")
        self.assertEqual(self.ok("{{verdict A#k/slow@time < A#k/fast@time by 150%}}"), "does not hold")

    def test_a_verdict_on_an_unusable_row_needs_the_marker_and_shows_the_caveat(self):
        self.refused("{{verdict A#k/unconverged@time > A#k/fast@time}}", "'k/unconverged'")
        # compare calls no change on a row that did not converge
        self.assertEqual(self.ok("{{verdict A#k/unconverged@time > A#k/fast@time|unconverged}}"),
                         "undecided (inside uncertainty) (not converged: 1 of 2 rows (3 samples))")

    # best of N, counts
    def test_best_states_how_many_rows_it_was_picked_from(self):
        self.assertEqual(self.ok("{{best A#sweep/.*@gb_per_s|.1f}}"),
                         "20.0 (`w:2`, best of 3 rows in this run and 1 unusable left out, 1 other within its "
                         "uncertainty; not confirmed on an independent run)")

    def test_best_is_confirmed_only_by_a_second_run_that_agrees(self):
        self.assertIn("confirmed in B, within uncertainty of its best",
                      self.ok("{{best A#sweep/.*@gb_per_s confirm B}}"))
        self.assertIn("not confirmed in C: best there `w:1`", self.ok("{{best A#sweep/.*@gb_per_s confirm C}}"))

    def test_count(self):
        self.assertEqual(self.ok("{{count A throttled}} {{count A unconverged}} {{count A errors}} "
                                 "{{count A unrecorded}} {{count A rows sweep/.*}} {{count A floor}}"), "1 2 1 1 4 3")

    def test_count_by_label_token_and_by_space(self):
        self.assertEqual(self.ok("{{count A rows with work:host}} {{count A rows alloc/async/.* with work:host}}"), "6 3")
        self.assertEqual(self.ok("{{count A rows with floor:timer}}"), "1")
        # every space, so the parts add up to the whole
        self.assertEqual(self.ok("{{count A unconverged by space}}"), "1 k and 1 sweep")
        self.assertEqual(self.ok("{{count A rows by space}}"), "12 k, 6 alloc and 4 sweep")

    def test_list_names_the_parts_in_which_the_rows_differ(self):
        self.assertEqual(self.ok("{{list A sweep/.*}}"), "`w:1`, `w:2`, `w:4`, `w:8`")
        self.assertEqual(self.ok("{{list A alloc/async/.* floor}}"), "`bytes:1M`, `bytes:16M`")
        self.refused("{{list A nothing/.*}}", "no row matches")

    def test_every_error_is_reported_before_exiting(self):
        err = self.refused("{{A#k/unconverged@time}} {{A#k/no_such_row@time}}", "'k/unconverged'",
                           "has no row 'k/no_such_row'")
        self.assertEqual(err.count("make_findings:"), 2)

    # packed files
    def test_a_packed_file_reads_as_its_json_and_is_listed_as_the_archive(self):
        body = ("{{B#sweep/w:1@gb_per_s|.1f}} {{cmp B#sweep/w:2@time vs A#sweep/w:2@time}} "
                "{{best A#sweep/.*@gb_per_s confirm B}}")
        with tempfile.TemporaryDirectory() as d:
            packed = Path(d) / "run_b.tar.xz"
            with tarfile.open(packed, "w:xz") as tar:
                tar.add(HERE / "run_b.json", arcname="run_b.json")
            empty = Path(d) / "run_c.tar.xz"
            with tarfile.open(empty, "w:xz") as tar:
                tar.add(HERE / "run_a.json", arcname="other.json")
            outs = []
            for b in (HERE / "run_b.json", packed, empty):
                template = Path(d) / "t.md.in"
                template.write_text(f"<!-- alias A = {HERE / 'run_a.json'} -->\n<!-- alias B = {b} -->\n{body}\n")
                outs.append(subprocess.run([sys.executable, str(SCRIPT), "--report", REPORT, str(template)],
                                           capture_output=True, text=True))
        plain, unpacked, refused = outs
        self.assertEqual((plain.returncode, unpacked.returncode), (0, 0), plain.stderr + unpacked.stderr)
        self.assertEqual(unpacked.stdout, plain.stdout.replace(f"`reports/{HERE / 'run_b.json'}`", f"`reports/{packed}`"))
        self.assertIn(f"| B | `reports/{packed}` |", unpacked.stdout)
        self.assertEqual(refused.returncode, 1)
        self.assertIn("run_c.tar.xz: cannot read run_c.json from it", refused.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
