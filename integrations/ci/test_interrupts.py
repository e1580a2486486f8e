#!/usr/bin/env python3
"""Ctrl-C stops the scripts that run membench one build after another (ctest engines.interrupts):
tools/run/suite.sh, integrations/slurm/run_local.sh and the task body membench_array.sbatch.

membench stops at a SIGINT or SIGTERM, writes its JSON and exits 130 or 143 by itself, and
bash alone takes that as one build's exit code and starts the next. Here the stand-in for the
GPU (membench_standin) takes MEMBENCH_STANDIN_DELAY seconds and catches the signals as membench
does; each script is started in a process group of its own, interrupted while its first build
runs, and must stop at once with the signal's code, start no further build, and leave the
result of an earlier run under the same name as it was (the stopped build's file is .partial).
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BUILDS = ("membench", "membench_ca", "membench_cg")
DELAY = 60  # the stand-in's run: far longer than the stop may take
PROMPT = 10  # seconds from the signal to the script's end
EARLIER = '{"context": {}, "benchmarks": [{"name": "an/earlier/run", "real_time": 1.0}]}\n'
# What suite.sh needs besides membench: tools that answer as on a GPU machine with the build done.
FAKE_TOOLS = {
    "nvcc": "exit 0",
    "nvidia-smi": "exit 0",
    "cmake": 'if [ "${1:-}" = --version ]; then echo "cmake version 3.28.3"; fi; exit 0',
    "membench-report": "exit 0",
}


def write_script(path, body):
    path.write_text(f"#!/bin/bash\n{body}\n")
    path.chmod(0o755)


class Interrupts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.standin = Path(cls.tmp.name) / "standin"
        cls.standin.mkdir()
        subprocess.run([sys.executable, str(HERE / "make_recordings.py"), str(cls.standin / "recordings"), "--gpus=2"],
                       check=True, capture_output=True)
        for build in BUILDS:
            (cls.standin / build).symlink_to(HERE / "membench_standin")
        cls.uuids = [g["gpu_uuid"] for g in json.loads((cls.standin / "recordings" / "manifest.json").read_text())]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.work = Path(tempfile.mkdtemp(dir=self.tmp.name))
        self.log = self.work / "starts.log"

    def environ(self, **more):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("SLURM", "MEMBENCH_", "CUDA_VISIBLE_DEVICES"))}
        env.update({"MEMBENCH_STANDIN_LOG": str(self.log), "MEMBENCH_STANDIN_DELAY": str(DELAY), **more})
        return env

    def starts(self):
        """The stand-in's starts: (pid, the program's name) each."""
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        return [(int(pid), Path(json.loads(argv)[0]).name) for pid, argv in (l.split(" ", 1) for l in lines)]

    def interrupt(self, argv, env, whom="group", sig=signal.SIGINT):
        """Starts argv in a process group of its own, waits for the stand-in's first start and
        signals the group (a terminal's Ctrl-C) or the stand-in alone; (exit code, seconds to stop)."""
        with open(self.work / "output.txt", "w") as output:
            proc = subprocess.Popen(argv, env=env, cwd=self.work, stdout=output, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        try:
            deadline = time.monotonic() + 30
            while not self.starts() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertTrue(self.starts(), f"the stand-in never started:\n{self.output()}")
            signalled = time.monotonic()
            if whom == "group":
                os.killpg(proc.pid, sig)
            else:
                os.kill(self.starts()[0][0], sig)
            try:
                code = proc.wait(timeout=PROMPT)
            except subprocess.TimeoutExpired:
                code = None  # still running: it went on to a further build
            return code, time.monotonic() - signalled
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def output(self):
        return (self.work / "output.txt").read_text()

    def assert_stopped(self, code, seconds, want):
        builds = [name for _, name in self.starts()]
        self.assertEqual(builds, ["membench"], f"a further build was started:\n{self.output()}")
        self.assertEqual(code, want, f"still running {seconds:.1f} s after the signal, or another exit code:\n"
                         f"{self.output()}")

    def task_env(self, **more):
        return self.environ(MEMBENCH_BIN=str(self.standin), MEMBENCH_RESULTS_ROOT=str(self.work / "results"),
                            MEMBENCH_BUILDS=" ".join(BUILDS), **more)

    def test_array_task_stops_at_ctrl_c(self):
        task = self.work / "results" / "membench-r1" / "task-0"
        task.mkdir(parents=True)
        (task / "membench.json").write_text(EARLIER)
        env = self.task_env(MEMBENCH_RUN_ID="r1", MEMBENCH_TASK="0", CUDA_VISIBLE_DEVICES="0")
        code, seconds = self.interrupt(["bash", str(REPO / "integrations/slurm/membench_array.sbatch")], env)
        self.assert_stopped(code, seconds, 130)
        self.assertEqual((task / "membench.json").read_text(), EARLIER, "the earlier run's file was replaced")
        rows = json.loads((task / "membench.partial").read_text())["benchmarks"]
        self.assertTrue(all(r["error_message"] == "not run: interrupted by signal 2" for r in rows))

    def test_array_task_stops_when_membench_alone_is_stopped(self):
        env = self.task_env(MEMBENCH_RUN_ID="r2", MEMBENCH_TASK="0", CUDA_VISIBLE_DEVICES="0")
        code, seconds = self.interrupt(["bash", str(REPO / "integrations/slurm/membench_array.sbatch")], env,
                                       whom="membench", sig=signal.SIGTERM)
        self.assert_stopped(code, seconds, 143)
        self.assertFalse((self.work / "results" / "membench-r2" / "task-0" / "membench.json").exists())

    def test_run_local_stops_at_ctrl_c(self):
        env = self.task_env(MEMBENCH_REPORT="/bin/false")
        code, seconds = self.interrupt(["bash", str(REPO / "integrations/slurm/run_local.sh"), "0", "1"], env)
        self.assert_stopped(code, seconds, 130)
        self.assertEqual(list((self.work / "results").glob("*/fleet.*")), [], "the fleet report ran")

    def suite_build(self):
        """A build folder whose bin/ holds the stand-in's builds and fake tools for the rest."""
        tools, build = self.work / "tools", self.work / "build"
        tools.mkdir()
        (build / "bin").mkdir(parents=True)
        for name, body in FAKE_TOOLS.items():
            write_script((build / "bin" if name == "membench-report" else tools) / name, body)
        for b in (*BUILDS, "recordings"):
            (build / "bin" / b).symlink_to(self.standin / b)
        return tools, build

    def suite_argv(self, build, out):
        return ["bash", str(REPO / "tools/run/suite.sh"), f"--build={build}", f"--out={out}"]

    def test_suite_stops_at_ctrl_c(self):
        tools, build = self.suite_build()
        out = self.work / "out"
        out.mkdir()
        earlier = out / f"membench.gpu0-{self.uuids[0]}.json"
        earlier.write_text(EARLIER)
        env = self.environ(PATH=f"{tools}:{os.environ['PATH']}")
        code, seconds = self.interrupt(self.suite_argv(build, out), env)
        self.assert_stopped(code, seconds, 130)
        self.assertEqual(earlier.read_text(), EARLIER, "the earlier run's file was replaced")
        self.assertTrue((out / f"membench.gpu1-{self.uuids[1]}.partial").is_file(), sorted(os.listdir(out)))

    def test_suite_keeps_a_run_that_ran_to_its_end(self):
        tools, build = self.suite_build()
        out = self.work / "out"
        env = self.environ(PATH=f"{tools}:{os.environ['PATH']}", MEMBENCH_STANDIN_DELAY="0")
        done = subprocess.run(self.suite_argv(build, out), env=env, cwd=self.work, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        want = {f"{b}.gpu{i}-{u}.json" for b in BUILDS for i, u in enumerate(self.uuids)}
        self.assertEqual({p.name for p in out.glob("membench*.json")}, want)
        self.assertEqual(list(out.glob("*.partial")), [])


if __name__ == "__main__":
    unittest.main()
