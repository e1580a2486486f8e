#!/usr/bin/env python3
"""What the Slurm scripts hand to the programs they run (ctest engines.slurm_scripts), each
program replaced by one that records its command line:

- MEMBENCH_ARGS reaches membench word by word and never as a glob: `--benchmark_filter=.*`
  stays itself in a folder holding a file it would match (membench_array.sbatch,
  membench_node.sbatch); MEMBENCH_SBATCH_ARGS reaches sbatch so (submit.sh).
- membench_fleet.sbatch with MEMBENCH_BASELINE judges against it and writes no baseline:
  no `fleet` call has both --baseline and --baseline-out; without it, the baselines are written.
"""
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SLURM = REPO / "integrations" / "slurm"
# Records its command line (one line, tab-separated) in $RECORD and succeeds.
RECORDER = '#!/bin/bash\n{ printf "%s\\t" "$(basename "$0")" "$@"; echo; } >>"$RECORD"\n{extra}\n'
ARGS = "--benchmark_filter=.*  --benchmark_context=note=a?c\t--keep-samples=100"
WORDS = ["--benchmark_filter=.*", "--benchmark_context=note=a?c", "--keep-samples=100"]
# membench's stand-in writes a result where membench does: with --device=N the file named, with
# --devices one per GPU (a build that wrote nothing is a failed task, in either script).
WRITES_RESULT = ('one=0; for a in "$@"; do case $a in --device=*) one=1 ;; esac; done; '
                 'for a in "$@"; do case $a in --benchmark_out=*) o=${a#*=}; '
                 'if [ $one = 1 ]; then echo "{}" > "$o"; else echo "{}" > "${o%.partial}.gpu0-GPU-0.partial"; fi ;; '
                 'esac; done')
# Files the words would name as globs, in the folder the scripts run in.
DECOYS = ("--benchmark_filter=.decoy", "--benchmark_context=note=abc", "--comment=note=abc", "--qos=high")


class SlurmScripts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.work = Path(self.tmp.name)
        self.record = self.work / "record.tsv"
        self.bin = self.work / "bin"
        self.bin.mkdir()
        for decoy in DECOYS:
            (self.work / decoy).touch()

    def tearDown(self):
        self.tmp.cleanup()

    def recorder(self, name, extra=""):
        path = self.bin / name
        path.write_text(RECORDER.replace("{extra}", extra))
        path.chmod(0o755)
        return path

    def calls(self):
        """Each recorded call: [program, arguments...]."""
        return [line.rstrip("\t").split("\t") for line in self.record.read_text().splitlines()]

    def run_script(self, script, **env):
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM", "MEMBENCH_"))}
        environ.update(RECORD=str(self.record), **env)
        done = subprocess.run(["bash", str(SLURM / script)], env=environ, cwd=self.work, capture_output=True, text=True)
        return done.returncode, done.stdout + done.stderr

    def test_membench_args_are_words_never_globs(self):
        self.recorder("membench", WRITES_RESULT)
        for script in ("membench_array.sbatch", "membench_node.sbatch"):
            with self.subTest(script=script):
                self.record.unlink(missing_ok=True)
                code, output = self.run_script(script, MEMBENCH_BIN=str(self.bin), MEMBENCH_BUILDS="membench",
                                               MEMBENCH_RESULTS_ROOT=str(self.work / "results"), MEMBENCH_RUN_ID="r",
                                               MEMBENCH_TASK="0", MEMBENCH_ARGS=ARGS)
                self.assertEqual(code, 0, output)
                (call,) = self.calls()
                self.assertEqual([a for a in call if a in WORDS], WORDS, call)
                self.assertFalse([a for a in call if a in DECOYS], call)

    def test_sbatch_args_are_words_never_globs(self):
        self.recorder("sbatch", "echo 4711")
        code, output = self.run_script("submit.sh", PATH=f"{self.bin}:{os.environ['PATH']}",
                                       MEMBENCH_RESULTS_ROOT=str(self.work / "results"),
                                       MEMBENCH_SBATCH_ARGS="--comment=note=a?c  --qos=*")
        self.assertEqual(code, 0, output)
        calls = self.calls()
        self.assertEqual(len(calls), 2, calls)  # the run, then its fleet report
        for call in calls:
            self.assertIn("--comment=note=a?c", call)
            self.assertIn("--qos=*", call)
            self.assertFalse([a for a in call if a in DECOYS], call)

    def fleet_calls(self, **env):
        run = self.work / "results" / "membench-r"
        (run / "task-0").mkdir(parents=True, exist_ok=True)
        (run / "task-0" / "membench.json").write_text("{}\n")
        self.record.unlink(missing_ok=True)
        code, output = self.run_script("membench_fleet.sbatch", MEMBENCH_RESULTS=str(run),
                                       MEMBENCH_REPORT=str(self.recorder("membench-report")), **env)
        self.assertEqual(code, 0, output)
        calls = self.calls()
        self.assertEqual([c[1] for c in calls], ["fleet"] * 3, calls)
        return calls

    def test_fleet_against_a_baseline_writes_none(self):
        baseline = self.work / "fleet-baseline.json"
        for call in self.fleet_calls(MEMBENCH_BASELINE=str(baseline)):
            self.assertEqual(call.count("--baseline"), 1, call)
            self.assertEqual(call[call.index("--baseline") + 1], str(baseline))
            self.assertNotIn("--baseline-out", call)

    def test_fleet_without_a_baseline_writes_both(self):
        calls = self.fleet_calls()
        self.assertFalse([c for c in calls if "--baseline" in c], calls)
        written = [Path(c[c.index("--baseline-out") + 1]).name for c in calls if "--baseline-out" in c]
        self.assertEqual(written, ["fleet-baseline.json", "reframe-references.json"])


if __name__ == "__main__":
    unittest.main()
