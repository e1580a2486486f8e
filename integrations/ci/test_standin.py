#!/usr/bin/env python3
"""The GPU's test double against what membench does (ctest engines.standin): which GPU a
CUDA_VISIBLE_DEVICES and --device pick, --devices' file names, the context of a replay, the
refusals and their exit codes, a sweep a signal stops, and recordings that are the same on every run."""
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
STANDIN = HERE / "membench_standin"


class StandIn(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        subprocess.run([sys.executable, str(HERE / "make_recordings.py"), str(cls.dir / "recordings")],
                       check=True, capture_output=True)
        cls.gpus = json.loads((cls.dir / "recordings" / "manifest.json").read_text())
        for build in ("membench", "membench_cg"):
            (cls.dir / build).symlink_to(STANDIN)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_standin(self, *args, build="membench", **env):
        environ = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES" and not k.startswith("SLURM")}
        environ.update(env)
        return subprocess.run([str(self.dir / build), *args], env=environ, capture_output=True, text=True)

    def replay(self, *args, **kw):
        out = self.dir / "out.json"
        done = self.run_standin("--suite=quick", f"--benchmark_out={out}", *args, **kw)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(out.read_text())

    def test_visible_devices_pick_the_gpu(self):
        doc = self.replay("--device=1", CUDA_VISIBLE_DEVICES="3,2")
        self.assertEqual(doc["context"]["gpu_uuid"], self.gpus[2]["gpu_uuid"])
        self.assertEqual(doc["context"]["gpu_device"], "1")
        by_uuid = self.replay(CUDA_VISIBLE_DEVICES=self.gpus[1]["gpu_uuid"])
        self.assertEqual(by_uuid["context"]["gpu_uuid"], self.gpus[1]["gpu_uuid"])

    def test_one_visible_gpu_skips_peer_rows(self):
        rows = self.replay(CUDA_VISIBLE_DEVICES="2")["benchmarks"]
        peer = [r for r in rows if r["name"].startswith("peer/")]
        self.assertTrue(peer and all(r["error_occurred"] and r["error_message"].startswith("skipped:") for r in peer))
        both = self.replay(CUDA_VISIBLE_DEVICES="2,3")["benchmarks"]
        self.assertFalse(any(r.get("error_occurred") for r in both))

    def test_context_is_the_run_s(self):
        doc = self.replay(build="membench_cg", SLURM_JOB_ID="42", SLURM_ARRAY_TASK_ID="3", JOB_COMPLETION_INDEX="5")
        ctx = doc["context"]
        self.assertEqual((ctx["job_slurm_job_id"], ctx["job_slurm_array_task_id"], ctx["job_completion_index"]),
                         ("42", "3", "5"))
        self.assertNotIn("job_slurm_node", ctx)
        self.assertEqual(ctx["membench_cache_mode"], "cg")
        self.assertIn("membench_standin", ctx["executable"])

    def test_filter_selects_rows(self):
        doc = self.replay("--benchmark_filter=^global/read_offset/")
        names = [r["name"] for r in doc["benchmarks"]]
        self.assertTrue(names and all(n.startswith("global/read_offset/") for n in names))
        rest = self.replay("--benchmark_filter=-^global/")
        self.assertFalse(any(r["name"].startswith("global/") for r in rest["benchmarks"]))

    def test_devices_write_a_file_per_gpu(self):
        out = self.dir / "all" / "m.json"
        done = self.run_standin("--suite=quick", "--devices=0,2", f"--benchmark_out={out}",
                                CUDA_VISIBLE_DEVICES="1,2,3")
        self.assertEqual(done.returncode, 0, done.stderr)
        want = {f"m.gpu0-{self.gpus[1]['gpu_uuid']}.json", f"m.gpu2-{self.gpus[3]['gpu_uuid']}.json"}
        self.assertEqual({p.name for p in out.parent.iterdir()}, want)
        labels = [r.get("label", "") for f in out.parent.iterdir() for r in json.loads(f.read_text())["benchmarks"]]
        self.assertTrue(any("work:host concurrent:2" in label for label in labels))
        self.assertFalse(any("work:kernel concurrent" in label for label in labels))

    def test_refusals_have_membench_s_codes(self):
        cases = [(("--suite=quick", "--no-such-option"), {}, 2),
                 (("--suite=full",), {}, 2),
                 (("--suite=quick", "--benchmark_filter=^nothing$"), {}, 2),
                 (("--suite=quick", "--benchmark_out_format=csv"), {}, 2),
                 (("--suite=quick", "--device=4"), {}, 4),
                 (("--suite=quick", "--devices=0,0"), {}, 2),
                 (("--suite=quick",), {"CUDA_VISIBLE_DEVICES": ""}, 3)]
        for args, env, code in cases:
            with self.subTest(args=args, env=env):
                self.assertEqual(self.run_standin(*args, **env).returncode, code)

    def test_a_signal_ends_a_sweep_as_membench_s_handler_does(self):
        out, log = self.dir / "stopped.json", self.dir / "starts.log"
        environ = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES" and not k.startswith("SLURM")}
        environ.update(MEMBENCH_STANDIN_DELAY="30", MEMBENCH_STANDIN_LOG=str(log))
        started = time.monotonic()
        proc = subprocess.Popen([str(self.dir / "membench"), "--suite=quick", f"--benchmark_out={out}"], env=environ,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not (log.exists() and log.read_text()) and time.monotonic() - started < 10:
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        self.assertEqual(proc.wait(timeout=10), 130)
        self.assertLess(time.monotonic() - started, 10)
        pid, argv = log.read_text().split(" ", 1)
        self.assertEqual((int(pid), json.loads(argv)[1:]), (proc.pid, ["--suite=quick", f"--benchmark_out={out}"]))
        rows = json.loads(out.read_text())["benchmarks"]
        self.assertTrue(rows and all(r["error_message"] == "not run: interrupted by signal 2" for r in rows))

    def test_recordings_are_deterministic_and_one_is_slow(self):
        again = self.dir / "again"
        subprocess.run([sys.executable, str(HERE / "make_recordings.py"), str(again)], check=True, capture_output=True)
        for i in range(len(self.gpus)):
            first = (self.dir / "recordings" / f"gpu{i}.json").read_bytes()
            self.assertEqual((again / f"gpu{i}.json").read_bytes(), first)
        rows = [{r["name"]: r["real_time"] for r in json.loads((again / f"gpu{i}.json").read_text())["benchmarks"]}
                for i in (1, 3)]
        ratios = sorted(rows[1][n] / rows[0][n] for n in rows[0])
        self.assertAlmostEqual(ratios[len(ratios) // 2], 1.10, delta=0.004)
        self.assertEqual(len({g["gpu_uuid"] for g in self.gpus}), len(self.gpus))


if __name__ == "__main__":
    unittest.main()
