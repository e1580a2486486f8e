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
            row = rs["alloc/cost/api:malloc_async/op:alloc/alloc_bytes:16M"]
            cell = re.search(rf"^\| {gpu} \|.*$", a1, re.M).group(0).split(" | ")[4]
            self.assertTrue(cell.startswith("the timer's floor, not a call"), cell)
            self.assertIn(f"{row['real_time']:.3f} [{row['ci_low_us']:.3f}, {row['ci_high_us']:.3f}]", cell)
            self.assertIn(ctx["membench_event_overhead_us"], cell)

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
        self.assertIn(f"ilp4 at {a[ilp4]['sm_clock_mhz']:.0f} and {b[ilp4]['sm_clock_mhz']:.0f} MHz", FINDINGS)
        self.assertEqual(section("S2 matrix multiply").count(" in cycles"), 2)
        self.assertIn(" in cycles)", section("G5 working set"))

    def test_untested_explanations_are_labelled_hypotheses(self):
        self.assertIn("over-fetch (a hypothesis", section("G4 caching builds"))
        self.assertIn("A hypothesis, not tested by these rows: a line read from both halves", section("G5 working set"))
        self.assertIn("a hypothesis, not tested here: this chain loads the next address itself", FINDINGS)


if __name__ == "__main__":
    unittest.main(verbosity=2)
