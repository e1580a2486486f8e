#!/usr/bin/env python3
"""tools/gate/inject_slowdown.py's command line (ctest gate.inject_slowdown): a --slowdown that
is not a finite percentage above -100 and at most 10000 is refused with exit 2 and a message
naming it, before anything is written (membench.slowdown.inject refuses it too); a file that
would hold NaN or Infinity is never written; a good value writes strict JSON (no NaN, no
Infinity) with the rows scaled."""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "gate" / "inject_slowdown.py"
ROW = {"name": "global/read/bytes:1M/manual_time", "run_name": "global/read/bytes:1M/manual_time",
       "run_type": "iteration", "real_time": 10.0, "cpu_time": 10.0, "time_unit": "us", "gb_per_s": 100.0}


def strict(text):
    """json.loads that refuses NaN, Infinity and -Infinity, as every JSON reader but Python's does."""
    def refuse(token):
        raise ValueError(f"not JSON: {token}")
    return json.loads(text, parse_constant=refuse)


class InjectSlowdown(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.input = self.dir / "in.json"
        self.input.write_text(json.dumps({"context": {}, "benchmarks": [ROW]}))
        self.output = self.dir / "out.json"

    def tearDown(self):
        self.tmp.cleanup()

    def inject(self, *args, source=None):
        return subprocess.run([sys.executable, str(TOOL), str(source or self.input), str(self.output), *args],
                              capture_output=True, text=True)

    def test_a_value_out_of_range_or_not_finite_is_refused(self):
        for value, why in (("nan", "not a finite number"), ("NaN", "not a finite number"),
                           ("inf", "not a finite number"), ("-inf", "not a finite number"),
                           ("-100", "out of range"), ("-250", "out of range"), ("1e6", "out of range"),
                           ("abc", "not a number")):
            with self.subTest(value=value):
                done = self.inject(f"--slowdown={value}")
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertIn("--slowdown", done.stderr)
                self.assertIn(why, done.stderr)
                self.assertFalse(self.output.exists(), "a file was written for a refused value")

    def test_a_good_value_writes_strict_json(self):
        for value in ("5", "-99.5", "10000"):
            with self.subTest(value=value):
                done = self.inject("--slowdown", value)
                self.assertEqual(done.returncode, 0, done.stderr)
                doc = strict(self.output.read_text())
                s = 1 + float(value) / 100
                self.assertAlmostEqual(doc["benchmarks"][0]["real_time"], 10.0 * s)
                self.assertAlmostEqual(doc["benchmarks"][0]["gb_per_s"], 100.0 / s)
                self.assertEqual(doc["context"]["membench_injected_slowdown_pct"], f"{float(value):g}")

    def test_the_package_refuses_what_the_command_line_refuses(self):
        from membench.slowdown import inject
        for value in (float("nan"), float("inf"), -100.0):
            with self.subTest(value=value), self.assertRaises(ValueError):
                inject({"context": {}, "benchmarks": [dict(ROW)]}, value)

    def test_nan_read_from_the_input_is_never_written(self):
        source = self.dir / "nan.json"
        source.write_text('{"context": {}, "benchmarks": [{"name": "a/manual_time", "real_time": NaN}]}')
        done = self.inject("--slowdown=5", source=source)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("NaN or Infinity", done.stderr)
        self.assertFalse(self.output.exists())


if __name__ == "__main__":
    unittest.main()
