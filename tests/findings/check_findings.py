#!/usr/bin/env python3
"""reports/FINDINGS.md against its own JSON: it is what make_findings.py renders now, and the
claims that once disagreed with the rows agree with them, read here from the JSON directly
(not through the generator): no ratio or speed-up without its interval, no per-call time
from rows at the timer's floor, the counts behind the stopping rule and the unconverged
rows, S2's cuBLAS shares, A1's block sizes, clocks stated where the GPUs are compared,
explanations the rows do not test labelled as hypotheses.

  python3 tests/findings/check_findings.py [MEMBENCH_REPORT]
"""
import json
import re
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"
REPORT = sys.argv.pop(1) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else \
    str(ROOT / "build/dev/bin/membench-report")
FINDINGS = (REPORTS / "FINDINGS.md").read_text()
TEMPLATE = (REPORTS / "findings.md.in").read_text()


def rows(path):
    """(context, {name without /manual_time: row}) of a result file."""
    d = json.loads((REPORTS / path).read_text())
    return d["context"], {b["name"].removesuffix("/manual_time"): b for b in d["benchmarks"]}


def section(title):
    """The text of one `## ` section of FINDINGS.md."""
    start = FINDINGS.index(f"\n## {title}")
    end = FINDINGS.find("\n## ", start + 1)
    return FINDINGS[start:end]


def at_floor(row, ctx):
    """The generator's rule, written again: an interval of no width at the event pair's cost."""
    return (row.get("ci_low_us") is not None and row["ci_low_us"] == row["ci_high_us"]
            and abs(row["real_time"] - float(ctx["membench_event_overhead_us"])) < 0.5) or \
        "floor:timer" in row.get("label", "").split()


H100, H200 = "h100/2026-11-24_21dad57/membench.json", "h200/2026-11-24_21dad57/membench.json"
PER_CALL = "h100/2026-11-27_93056bc_x2/short/short_b.json"  # the pool rows timed many calls a sample


class Findings(unittest.TestCase):
    def test_the_committed_file_is_what_the_generator_renders(self):
        done = subprocess.run([sys.executable, str(REPORTS / "make_findings.py"), "--report", REPORT,
                               str(REPORTS / "findings.md.in")], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, FINDINGS, "regenerate: python3 reports/make_findings.py reports/findings.md.in "
                                                "> reports/FINDINGS.md")

    def test_no_ratio_counter_and_no_ratio_of_rows_without_its_interval_in_the_template(self):
        self.assertEqual(re.findall(r"@(speedup\w*|slowdown|pct_cublas|pct_of_bound|kernel_pct|pct_of_local_read)\b",
                                    TEMPLATE), [])
        for ref in re.findall(r"\{\{([^{}]+)\}\}", TEMPLATE):
            expr, *flags = ref.split("|")
            if re.search(r"#\S+@\S+ / \w+#\S+@\S+", expr) and not expr.lstrip().startswith(("cmp", "verdict", "assert")):
                self.assertIn("ci", [f.strip() for f in flags], ref)

    def test_every_ratio_printed_for_two_rows_has_its_interval(self):
        # A number with an x printed from rows is followed by its interval; the lessons' and the
        # rules' own factors (typed, no interval to carry) are the exceptions this list names.
        typed = {"2x", "1.5x", "12.5x", "3.2x", "1.9x", "32x", "1.8x", "4x", "1.44x", "18x"}
        for m in re.finditer(r"(?<![\w.\-])(\d+(?:\.\d+)?x)(?!\w)(?! \[)", FINDINGS):
            self.assertIn(m.group(1), typed, FINDINGS[max(0, m.start() - 80):m.end() + 20])

    def test_no_time_a_call_from_rows_at_the_timers_floor(self):
        a1 = section("A1 allocation")
        for path, gpu in ((H100, "H100"), (H200, "H200")):
            ctx, rs = rows(path)
            floor = [r for n, r in rs.items() if n.startswith("alloc/cost/api:malloc_async/") and at_floor(r, ctx)]
            self.assertGreater(len(floor), 0)
            self.assertIn(f"{len(floor)} of the {gpu}'s", a1)
        # The H200's table cell: its one-call rows name the floor, never a time a call.
        ctx, rs = rows(H200)
        row = rs["alloc/cost/api:malloc_async/op:alloc/alloc_bytes:16M"]
        cell = re.search(r"^\| H200 \|.*$", a1, re.M).group(0).split(" | ")[4]
        self.assertTrue(cell.startswith("the timer's floor, not a call"), cell)
        self.assertIn(f"{row['real_time']:.3f} [{row['ci_low_us']:.3f}, {row['ci_high_us']:.3f}]", cell)
        self.assertIn(ctx["membench_event_overhead_us"], cell)
        # The H100's: the later run's time a call, from many calls a sample, with its interval.
        _, later = rows(PER_CALL)
        row = later["alloc/cost/api:malloc_async/op:alloc/alloc_bytes:16M"]
        cell = re.search(r"^\| H100 \|.*$", a1, re.M).group(0).split(" | ")[4]
        self.assertGreater(row["calls_per_sample"], 1)
        self.assertTrue(cell.startswith(f"{row['real_time']:.3f} [{row['ci_low_us']:.3f}, {row['ci_high_us']:.3f}] µs a call"), cell)

    def test_the_relaxed_target_counts_every_host_work_row(self):
        ctx, rs = rows(H100)
        host = [r for r in rs.values() if "work:host" in r.get("label", "").split()]
        clock = [r for r in host if "timing:host_clock" in r["label"].split()]
        self.assertTrue(all(r["ci_target_pct"] == float(ctx["membench_max_ci_host_pct"]) for r in host))
        self.assertIn(f"`work:host` in the label:\n{len(host)} of the default build's {len(rs)} rows", FINDINGS)
        self.assertIn(f"of which {len(clock)} and", FINDINGS)
        self.assertNotIn("for rows timed on the host clock", FINDINGS)

    def test_the_unconverged_breakdown_adds_up_to_the_whole(self):
        for path, word in ((H100, "of the default\nbuild's, by space: "), (H200, "(default build: ")):
            _, rs = rows(path)
            whole = sum(r.get("converged") == 0 for r in rs.values())
            text = FINDINGS.split(word, 1)[1].split(")", 1)[0]
            self.assertEqual(sum(int(n) for n in re.findall(r"(\d+) \w+", text)), whole, text)

    def test_s2s_cublas_shares_are_the_tables_quotients(self):
        s2 = section("S2 matrix multiply")
        for path, gpu in ((H100, "H100"), (H200, "H200")):
            _, rs = rows(path)
            share = 100 * rs["compute/matmul/variant:regtile/n:2048"]["gflop_per_s"] / \
                rs["compute/matmul/variant:cublas/n:2048"]["gflop_per_s"]
            self.assertIn(f"{share:.1f}% [", s2)

    def test_a1_names_every_block_size_with_both_sizes(self):
        _, rs = rows(H100)
        both = [n.split("/")[2] for n in rs if re.fullmatch(r"alloc/device_malloc/block:\d+/op:alloc/alloc_bytes:12K", n)
                and n.replace("12K", "64") in rs]
        self.assertGreater(len(both), 1)
        self.assertIn(", ".join(f"`{b}`" for b in both), section("A1 allocation"))
        self.assertNotIn("only block size with both sizes", FINDINGS)

    def test_the_gh200_far_l2_anchor_is_its_sources_range(self):
        self.assertIn("503.4-522.1 (GH200", FINDINGS)
        self.assertNotIn("503.4-515.5", FINDINGS)

    def test_the_gpus_are_compared_with_their_clocks_and_in_cycles(self):
        self.assertNotIn("same SMs and clock", FINDINGS)
        self.assertNotIn("same SM count and\nclock", FINDINGS)
        _, a = rows(H100)
        _, b = rows(H200)
        ilp4 = "compute/matmul/variant:ilp4/n:2048"
        reg = "compute/matmul/variant:regtile/n:2048"
        s2 = section("S2 matrix multiply")
        self.assertIn(f"{a[ilp4]['sm_clock_mhz']:.0f} and {b[ilp4]['sm_clock_mhz']:.0f} MHz for ilp4 and "
                      f"{a[reg]['sm_clock_mhz']:.0f} and {b[reg]['sm_clock_mhz']:.0f} MHz for the register", s2)
        # No verdict finer than the clock probe's step: the register tiles' clock readings differ
        # by less than it, so compare's "unsure (clock: ...)" is not quoted as a finding.
        step = 32 / 4000  # one 32 ns %globaltimer tick over the probe's 4 us window
        self.assertLess(abs(a[reg]["sm_clock_mhz"] / b[reg]["sm_clock_mhz"] - 1), step)
        self.assertNotIn("unsure (clock:", s2)
        self.assertIn("nothing finer than the clock probe's step of about 0.8 %", s2)
        self.assertIn(" in cycles)", section("G5 working set"))

    def test_clocks_are_nvmls_1980_and_the_probes_reading_with_its_step(self):
        for path in (H100, H200):
            ctx, rs = rows(path)
            self.assertEqual(ctx["nvml_max_sm_clock_mhz"], "1980")
            self.assertEqual({r["nvml_sm_clock_mhz"] for r in rs.values() if "sm_clock_mhz" in r}, {1980.0})
        _, rs = rows(H100)
        probe = [r["sm_clock_mhz"] for r in rs.values() if "sm_clock_mhz" in r]
        above = sum(v > 1980 for v in probe)
        self.assertIn(f"above NVML's 1980 MHz on {above} of the H100's {len(probe)} rows", FINDINGS)
        self.assertIn(f"(up to {max(probe):.0f} MHz)", FINDINGS)
        self.assertIn("and NVML read 1980 MHz after every row of\nboth", FINDINGS)
        self.assertIn("one reading resolves about 0.8 %", FINDINGS)
        # docs/results.md's example row: NVML's clock, the probe's reading and its step.
        results = (ROOT / "docs/results.md").read_text()
        row = rs["global/read_offset/type:f32/offset:1/l2:cold/bytes:1G"]
        self.assertNotIn("SM clock of 1987 MHz", results)
        self.assertIn(f"NVML read as {row['nvml_sm_clock_mhz']:.0f} MHz", results)
        self.assertIn(f"probe read {row['sm_clock_mhz']:g} (`sm_clock_mhz`), which resolves\nthe clock only to about 0.8 %",
                      results)

    def test_results_md_names_the_tier_and_what_is_typed(self):
        results = (ROOT / "docs/results.md").read_text()
        ctx, rs = rows(H100)
        self.assertEqual(ctx["membench_suite"], "default")
        self.assertNotIn("the whole suite in the three builds", results)
        self.assertIn(f"(the default tier of the suite, {len(rs)} rows a build,", results)
        self.assertNotIn("Every number in it is generated", results)
        self.assertIn("are\ntyped in its template", results)

    def test_a1_prose_matches_its_undecided_verdicts(self):
        a1 = section("A1 allocation")
        table = re.search(r"^\| A1 allocation \|.*$", FINDINGS, re.M).group(0)
        self.assertEqual(table.count("undecided (inside uncertainty)"), 2, table)
        self.assertNotIn("holds on the H200", a1)
        self.assertIn("the verdict in the table is undecided on both GPUs", a1)

    def test_the_l2_hit_rate_is_100_within_the_counters_resolution(self):
        self.assertNotIn("100.1 %", FINDINGS)
        for path in ("h100/2026-11-24_b5b61f7/hopper_metrics.json", "h200/2026-11-24_b5b61f7/hopper_metrics.json"):
            _, rs = rows(path)
            self.assertEqual(round(rs["cache/l2_bandwidth/bytes:8M"]["lts__t_sector_hit_rate.pct"]), 100)
        self.assertIn("8 MiB row: 100 % on both GPUs within the counter's resolution", FINDINGS)

    def test_the_chases_moves_between_sessions_are_the_rows(self):
        # This run against the ad34d81 one, spacing:128 chases of both loads; the L2's edge is
        # 24 MiB on the H100 and 32 MiB on the H200.
        away, edge = 0.0, {}
        for gpu, now, then, at in (("H100", H100, "h100/2026-11-24_ad34d81/latency/latency.json", "24M"),
                                   ("H200", H200, "h200/2026-11-24_ad34d81/latency/latency.json", "32M")):
            _, x = rows(now)
            _, y = rows(then)
            for n, r in y.items():
                m = re.fullmatch(r"global/latency/load:(plain|ldg)/spacing:128/bytes:(\w+)", n)
                if not m or n not in x:
                    continue
                moved = 100 * abs(x[n]["cycles_per_load"] / r["cycles_per_load"] - 1)
                if m.group(2) == at:
                    edge[(gpu, m.group(1))] = moved
                else:
                    away = max(away, moved)
        self.assertNotIn("moved by up to 5 %", FINDINGS)
        self.assertIn(f"moved by up to {away:.1f} % away from the L2's edge", FINDINGS)
        self.assertIn(f"by up to {max(edge.values()):.1f} % at it: {edge['H100', 'plain']:.1f} and "
                      f"{edge['H100', 'ldg']:.1f} % (plain, `ldg`) at\nthe H100's 24 MiB, {edge['H200', 'plain']:.1f} and "
                      f"{edge['H200', 'ldg']:.1f} % at the H200's 32 MiB", FINDINGS)

    def test_untested_explanations_are_labelled_hypotheses(self):
        self.assertIn("over-fetch (a hypothesis", section("G4 caching builds"))
        self.assertIn("A hypothesis, not tested by these rows: a line read from both halves", section("G5 working set"))
        self.assertIn("a hypothesis, not tested here: this chain loads the next address itself", FINDINGS)


if __name__ == "__main__":
    unittest.main(verbosity=2)
