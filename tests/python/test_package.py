#!/usr/bin/env python3
"""The membench package (python/) on committed files (ctest python.package, with python/ on
PYTHONPATH): load() on a membench run, an aggregates-only file and another program's file;
every golden benchmark name parsed back, a key given twice as naming.cpp reads it; the
schema's tables, its refusal of unknown keys and the default metric list; a slowdown injected;
the scripts' shared cli: input read as the package reads it, outputs all or none, a full
standard output said in a line."""
import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import membench
from membench import cli
from membench import schema as S
from membench.slowdown import INJECTED_ROWS, inject

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "reports/h100/2026-11-24_d18f974/quick/membench_quick.json"
DATA = ROOT / "tests/data"


class Load(unittest.TestCase):
    def test_a_membench_run(self):
        run = membench.load(QUICK)
        doc = json.loads(QUICK.read_text())
        self.assertEqual(len(run), len(doc["benchmarks"]))
        self.assertIs(run.context, run[0].context)
        self.assertEqual(run.context[S.context.gpu_name], "NVIDIA H100 80GB HBM3")
        first = run[0]
        self.assertEqual(first.name, "alloc/cost/api:malloc/op:alloc/alloc_bytes:1M/manual_time")
        self.assertEqual((first.family, first.keys), ("alloc/cost", {"api": "malloc", "op": "alloc", "alloc_bytes": "1M"}))
        self.assertEqual(first.report_name, "alloc/cost/api:malloc/op:alloc/alloc_bytes:1M")
        self.assertEqual((first.time, first.time_unit), (doc["benchmarks"][0]["real_time"], "us"))
        self.assertAlmostEqual(first.time_us, first.time)
        self.assertEqual((first.ci_low_us, first.ci_high_us), (doc["benchmarks"][0]["ci_low_us"],
                                                                doc["benchmarks"][0]["ci_high_us"]))
        self.assertIsNotNone(first.ci_pct)
        self.assertIn(first.converged, (True, False))
        self.assertIsNone(first.error)
        skipped = [r for r in run if r.error is not None]
        self.assertEqual(len(skipped), 4)
        self.assertTrue(all(r.skipped and r.family.startswith("peer/") for r in skipped))
        self.assertEqual(len(run.named("alloc/cost/api:malloc/op:alloc/alloc_bytes:1M")), 1)

    def test_aggregates(self):
        rows = membench.load(DATA / "report/aggregates_only.json").rows
        self.assertEqual([(r.family, r.keys, r.aggregate) for r in rows[:3]],
                         [("global/read", {"bytes": "16K"}, a) for a in ("mean", "median", "cv")])
        self.assertEqual(rows[1].time_us, 2.5)
        self.assertIsNone(rows[2].time_us, "a cv is a percentage, not a time")

    def test_another_program_s_file(self):
        rows = membench.load(DATA / "report/plain_gbench.json").rows
        self.assertEqual((rows[0].family, rows[0].keys, rows[0].time_unit), ("BM_memcpy", {"arg0": "64"}, "ns"))
        self.assertAlmostEqual(rows[0].time_us, rows[0].time / 1000)
        self.assertIsNone(rows[0].ci_low_us)
        self.assertIsNone(rows[0].converged)

    def test_not_a_results_file(self):
        with self.assertRaises(ValueError):
            membench.load(DATA / "p2p/check_agrees.csv")


class Names(unittest.TestCase):
    def test_every_golden_name_is_a_membench_name(self):
        names = [l.strip() for l in (DATA / "benchmark_list.txt").read_text().splitlines() if l.strip()]
        self.assertGreater(len(names), 500)
        for name in names:
            family, keys = membench.parse_name(name)
            self.assertTrue(keys and all(k in S.name_key for k in keys), name)
            own = "/".join([family] + [f"{k}:{v}" for k, v in keys.items()])
            self.assertEqual(own, name.removesuffix("/manual_time"))

    def test_google_benchmark_suffixes_and_other_names(self):
        parse = membench.parse_name
        self.assertEqual(parse("global/read/bytes:64M/repeats:3/manual_time_median"), ("global/read", {"bytes": "64M"}))
        self.assertEqual(parse("BM_x/8/manual_time/threads:2"), ("BM_x", {"arg0": "8", "threads": "2"}))
        self.assertEqual(parse("BM_sort/size:1024/reversed:0"), ("BM_sort", {"size": "1024", "reversed": "0"}))
        # A key the schema lacks, or a size that is not one: not a membench name.
        self.assertEqual(parse("global/read/nokey:1/manual_time").family, "global")
        self.assertEqual(parse("global/read/bytes:64X").family, "global")
        self.assertEqual(membench.parse_size("64M"), 64 << 20)
        with self.assertRaises(ValueError):
            membench.parse_size("M")

    def test_a_key_given_twice_reads_as_naming_cpp(self):
        # bench_name::get returns the first of a key's params: membench-report's reading.
        self.assertEqual(membench.parse_name("global/read_offset/bytes:1K/bytes:64M/manual_time").keys,
                         {"bytes": "1K"})
        self.assertEqual(membench.parse_name("BM_x/size:1/size:2").keys, {"size": "1"})


class Schema(unittest.TestCase):
    def test_tables(self):
        self.assertEqual(S.counter.t_median_us, "t_median_us")
        self.assertEqual(S.counter.unit("gb_per_s"), "GB/s")
        self.assertEqual(S.label.values("timing:blocking throttle:hw_slowdown", S.label.throttle), ["hw_slowdown"])
        with self.assertRaisesRegex(KeyError, "no_such_counter' is not in the counters table"):
            S.counter.no_such_counter

    def test_default_metrics(self):
        metrics = list(S.default_metric)
        self.assertEqual(len(metrics), 7)
        self.assertEqual(metrics[0], "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct")
        self.assertEqual(metrics[6], "dram__throughput.avg.pct_of_peak_sustained_elapsed")
        self.assertEqual(S.default_metric.entry(metrics[0])["nvprof"], "gld_efficiency")


class Slowdown(unittest.TestCase):
    def test_inject(self):
        doc = json.loads(QUICK.read_text())
        before = copy.deepcopy(doc)
        chosen = inject(doc, 10, pattern="^global/read/")
        self.assertTrue(chosen and all(c.startswith("global/read/") for c in chosen))
        self.assertEqual(doc["context"][INJECTED_ROWS], ",".join(chosen))
        for old, new in zip(before["benchmarks"], doc["benchmarks"]):
            factor = 1.1 if old["name"].startswith("global/read/") and not old.get("error_occurred") else 1.0
            self.assertAlmostEqual(new["real_time"], old["real_time"] * factor)
            if "gb_per_s" in old:
                self.assertAlmostEqual(new["gb_per_s"], old["gb_per_s"] / factor)


class Cli(unittest.TestCase):
    """membench.cli, as the scripts use it: each refusal an exit 2 with one line."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.t = Path(self.folder.name)

    def tearDown(self):
        self.folder.cleanup()

    def refused(self, call, *args):
        """The one line a call that must exit 2 says."""
        said = io.StringIO()
        with self.assertRaises(SystemExit) as done, contextlib.redirect_stderr(said):
            call(*args)
        self.assertEqual(done.exception.code, 2)
        self.assertEqual(said.getvalue().count("\n"), 1, said.getvalue())
        return said.getvalue()

    def test_read_text_refuses_what_read_input_refuses(self):
        fifo = self.t / "shared.json"
        os.mkfifo(fifo)
        for path in (fifo, "/dev/zero", self.t):  # no writer: never waited on; a device; a folder
            self.assertIn(f"t: {path}: ", self.refused(cli.read_text, "t", str(path)))
        (self.t / "ok.txt").write_text("é\n", encoding="utf-8")
        self.assertEqual(cli.read_text("t", str(self.t / "ok.txt")), "é\n")

    def test_read_json_refuses_a_key_given_twice(self):
        (self.t / "d.json").write_text('{"a": 1, "a": 2}')
        self.assertIn("key 'a' given twice", self.refused(cli.read_json, "t", str(self.t / "d.json")))
        self.assertEqual(cli.read_json("t", "unused", '{"a": [1]}'), {"a": [1]})

    def test_write_outputs_all_or_none(self):
        old, folder = self.t / "nc.json", self.t / "ev.md"
        old.write_text("old\n")
        folder.mkdir()
        self.assertIn("ev.md: cannot be written", self.refused(cli.write_outputs, "t", {str(old): "new\n",
                                                                                       str(folder): "x"}))
        self.assertEqual(old.read_text(), "old\n")
        self.assertEqual(sorted(p.name for p in self.t.iterdir()), ["ev.md", "nc.json"], "a file left beside")
        cli.write_outputs("t", {str(old): "new\n", str(self.t / "b.md"): "b\n", os.devnull: "x"})
        self.assertEqual((old.read_text(), (self.t / "b.md").read_text()), ("new\n", "b\n"))

    def test_run_main_says_a_full_standard_output(self):
        script = "from membench import cli\ncli.run_main(lambda: print('x' * 100000) or 0, 'tool')\n"
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-c", script], stdout=full, stderr=subprocess.PIPE, text=True)
        self.assertEqual((done.returncode, done.stderr), (2, "tool: standard output cannot be written: "
                                                              "No space left on device\n"))


if __name__ == "__main__":
    unittest.main()
