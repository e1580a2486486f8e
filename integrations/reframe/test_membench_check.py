#!/usr/bin/env python3
"""The command line membench_check.py, beside this file, gives ReFrame for its job script
(ctest engines.reframe_options), without ReFrame: its modules are stood in for by the few
names the check uses (a performance function as the pair (function, unit)). The variables a
user sets (-S tier=..., extra_args=...) are spliced into a shell script, so each must reach
membench as the words meant, and nothing in them may run:
the command is run by bash here, in an empty folder, and must print exactly those words.
Its sanity and performance stages on a JSON that is not what membench writes (a key given
twice, a row that is null, a real_time as text) fail the test, named, never a traceback or a
row silently dropped or judged on one of two values; repetitions of a row log their median.
"""
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import types
import unittest
from pathlib import Path

TIER = "quick; touch INJECTED_TIER #"  # unquoted: a command, the rest a comment
FILTER = "^global/ (read|write)$"
EXTRA = "--keep-samples=100 '--benchmark_context=note=a b; touch INJECTED_EXTRA' --benchmark_repetitions=1"
WANT = ["--device=1", f"--suite={TIER}", "--benchmark_out=membench.json", "--benchmark_out_format=json",
        f"--benchmark_filter={FILTER}", "--keep-samples=100", "--benchmark_context=note=a b; touch INJECTED_EXTRA",
        "--benchmark_repetitions=1"]


def stand_in_reframe():
    """reframe, reframe.core.builtins, reframe.core.exceptions, reframe.utility.sanity: the
    names membench_check.py imports, doing nothing."""
    modules = {name: types.ModuleType(name) for name in
               ("reframe", "reframe.core", "reframe.core.builtins", "reframe.core.exceptions", "reframe.utility",
                "reframe.utility.sanity")}
    rfm, builtins = modules["reframe"], modules["reframe.core.builtins"]
    rfm.simple_test = lambda cls: cls
    rfm.RunOnlyRegressionTest = object
    builtins.parameter = lambda values: values
    builtins.variable = lambda kind, value=None: value
    builtins.run_after = builtins.run_before = lambda stage: (lambda f: f)
    builtins.sanity_function = lambda f: f
    modules["reframe.core.exceptions"].SanityError = Exception
    modules["reframe.utility.sanity"].make_performance_function = lambda f, unit: (f, unit)
    for name, module in modules.items():
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(modules[parent], child, module)
    sys.modules.update(modules)


def load_check():
    stand_in_reframe()
    import membench_check  # beside this file
    return membench_check


class ReframeOptions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.check = load_check()

    def as_bash_runs_it(self, command):
        """The words bash makes of a job script's command line (printed, one a line), and the
        files running it left behind."""
        with tempfile.TemporaryDirectory() as folder:
            done = subprocess.run(["bash", "-c", f"printf '%s\\n' {command}"], cwd=folder, capture_output=True,
                                  text=True)
            return done.stdout.splitlines(), sorted(p.name for p in Path(folder).iterdir())

    def test_the_setup_hook_quotes_every_word(self):
        test = types.SimpleNamespace(gpu=1, build="membench", membench_dir="/opt/membench builds", tier=TIER,
                                     benchmark_filter=FILTER, extra_args=EXTRA, node_gpus=lambda: 2,
                                     skip_if=lambda condition, why: None)
        self.check.membench_gpu_check.one_gpu_of_the_node(test)
        # ReFrame's job script: the executable and its options joined by blanks, as they are.
        words, left = self.as_bash_runs_it(" ".join([test.executable, *test.executable_opts]))
        self.assertEqual(words, ["/opt/membench builds/membench", *WANT])
        self.assertEqual(left, [], "a variable's text ran as a command")

    def test_extra_args_split_as_a_shell_splits_them(self):
        opts = self.check.membench_options(0, "quick", "", "  --a=1\t'--b=two words' \"--c=x;y\"  ")
        self.assertEqual([shlex.split(o)[0] for o in opts][-3:], ["--a=1", "--b=two words", "--c=x;y"])
        self.assertEqual(self.check.membench_options(0, "quick", "", "")[-1], "--benchmark_out_format=json")
        with self.assertRaises(ValueError):
            self.check.membench_options(0, "quick", "", "'--unbalanced")


ROW = {"name": "global/read/bytes:64M/manual_time", "run_name": "global/read/bytes:64M/manual_time",
       "run_type": "iteration", "real_time": 40.0, "time_unit": "us"}
CONTEXT = '{"context": {"gpu_uuid": "GPU-1", "gpu_name": "NVIDIA H100 80GB HBM3"}, '


class ReframeStages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.check = load_check()

    def staged(self, benchmarks, references=None):
        """A test whose stage folder holds membench.json with `benchmarks` (JSON text), and
        `references` (JSON text) as its references file where given."""
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        Path(folder, "membench.json").write_text(CONTEXT + f'"benchmarks": {benchmarks}}}')
        test = self.check.membench_gpu_check()
        test.stagedir, test.references = folder, ""
        if references is not None:
            test.references = str(Path(folder, "refs.json"))
            Path(test.references).write_text(references)
        test.job = types.SimpleNamespace(exitcode=0)
        test.stdout = test.stderr = "log"
        return test

    def fails(self, test, said):
        with self.assertRaisesRegex(Exception, said):
            test.every_row_verified()
            test.rows_as_performance()

    def test_a_file_membench_does_not_write_fails_named(self):
        row = json.dumps(ROW)
        self.fails(self.staged(f'[{row[:-1]}, "real_time": 4000.0}}]'), "'real_time' given twice")
        self.fails(self.staged(f"[null, {row}]"), "benchmark 0: a row is null")
        self.fails(self.staged(f'[{row}, {json.dumps(dict(ROW, name="global/write", real_time="41.0"))}]'),
                   r"benchmark 1 \(global/write\): 'real_time'")

    def test_a_references_file_with_a_row_twice_fails(self):
        refs = ('{"NVIDIA H100 80GB HBM3/default": {"global/read/bytes:64M": [40.0, -0.1, 0.1, "us"], '
                '"global/read/bytes:64M": [4.0, -0.1, 0.1, "us"]}}')
        self.fails(self.staged(f"[{json.dumps(ROW)}]", refs), "'global/read/bytes:64M' given twice")

    def test_repetitions_give_their_median(self):
        reps = [dict(ROW, real_time=t, repetitions=3, repetition_index=i) for i, t in enumerate((40.0, 41.0, 90.0))]
        test = self.staged(json.dumps(reps), '{"NVIDIA H100 80GB HBM3/default": '
                                             '{"global/read/bytes:64M": [41.0, -0.1, 0.1, "us"]}}')
        self.assertTrue(test.every_row_verified())
        test.rows_as_performance()
        self.assertEqual({n: f() for n, (f, _) in test.perf_variables.items()}, {"global/read/bytes=64M": 41.0})
        self.assertEqual(test.reference, {"*": {"global/read/bytes=64M": (41.0, -0.1, 0.1, "us")}})


if __name__ == "__main__":
    unittest.main()
