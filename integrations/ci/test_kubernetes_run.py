#!/usr/bin/env python3
"""integrations/kubernetes/run.sh against a fake kubectl (ctest engines.kubernetes_run): the
fleet report Job is started only over a membench Job that completed. A Job that failed, or
that has neither completed nor failed when the wait ends, is exit 3 and no fleet Job.

The fake kubectl records each call; `kubectl wait --for=condition=X job/J` returns at once
when J's state (FAKE_STATE_<J>: Complete, Failed or Running) is X, and otherwise fails after
a moment, as a wait whose time is up does; `kubectl get` answers from the same state.
"""
import os
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
RUN = REPO / "integrations" / "kubernetes" / "run.sh"
FAKE_KUBECTL = r'''#!/bin/bash
echo "$*" >>"$RECORD"
state() { local v="FAKE_STATE_${1//-/_}"; echo "${!v:-Running}"; }
job() { for a in "$@"; do case $a in job/*) echo "${a#job/}" ;; esac; done; }
case $1 in
  apply)
    if [ "${3:-}" = - ]; then echo "applied $(grep -m1 '^  name:' | awk '{print $2}')" >>"$RECORD"; fi ;;
  set) cat "$7" ;;  # set env --local -o yaml -f FILE VAR=VALUE: the manifest as it is
  wait)
    want=${2#--for=condition=} j=$(job "$@")
    [ "$(state "$j")" = "${want^}" ] && exit 0
    sleep 1; echo "error: timed out waiting for the condition on jobs/$j" >&2; exit 1 ;;
  get)
    case $* in
      *conditions*) s=$(state "$(job "$@")"); [ "$s" = Running ] || printf '%s ' "$s" ;;
      *failedIndexes*) printf 3 ;;
      *exitCode*) printf '%s' "$FAKE_FLEET_EXIT" ;;
      *) printf '7 succeeded, 1 failed\n' ;;
    esac ;;
  logs) echo "fleet: the report" ;;
esac
exit 0
'''


class KubernetesRun(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.work = Path(self.tmp.name)
        self.record = self.work / "calls.txt"
        (self.work / "kubectl").write_text(FAKE_KUBECTL)
        (self.work / "kubectl").chmod(0o755)

    def tearDown(self):
        self.tmp.cleanup()

    def run_sh(self, membench, fleet="Failed", fleet_exit="1"):
        env = dict(os.environ, PATH=f"{self.work}:{os.environ['PATH']}", RECORD=str(self.record),
                   FAKE_STATE_membench=membench, FAKE_STATE_membench_fleet=fleet, FAKE_FLEET_EXIT=fleet_exit,
                   MEMBENCH_K8S_TIMEOUT="5s")
        started = time.monotonic()
        done = subprocess.run(["bash", str(RUN), "r1"], env=env, capture_output=True, text=True, timeout=60)
        self.assertLess(time.monotonic() - started, 30)
        return done.returncode, done.stdout + done.stderr

    def applied(self):
        return [line.split()[1] for line in self.record.read_text().splitlines() if line.startswith("applied ")]

    def test_a_failed_job_gets_no_fleet_report(self):
        code, output = self.run_sh("Failed")
        self.assertEqual(code, 3, output)
        self.assertEqual(self.applied(), ["membench"], output)
        self.assertIn("the membench Job failed (indexes 3): no fleet report", output)

    def test_a_job_still_running_gets_no_fleet_report(self):
        code, output = self.run_sh("Running")
        self.assertEqual(code, 3, output)
        self.assertEqual(self.applied(), ["membench"], output)
        self.assertIn("did not finish within 5s", output)

    def test_a_completed_job_gets_its_fleet_report(self):
        code, output = self.run_sh("Complete", fleet="Failed", fleet_exit="1")  # an outlier fails the fleet Job
        self.assertEqual(code, 1, output)
        self.assertEqual(self.applied(), ["membench", "membench-fleet"], output)
        self.assertIn("fleet: the report", output)

    def test_a_fleet_job_still_running_is_exit_3(self):
        code, output = self.run_sh("Complete", fleet="Running")
        self.assertEqual(code, 3, output)
        self.assertIn("the fleet report Job did not finish", output)

    def test_a_killed_fleet_report_is_exit_3_not_its_signal(self):
        code, output = self.run_sh("Complete", fleet="Failed", fleet_exit="137")  # OOM-killed or evicted
        self.assertEqual(code, 3, output)
        self.assertIn("none of fleet's codes", output)


if __name__ == "__main__":
    unittest.main()
