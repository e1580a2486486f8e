#!/usr/bin/env python3
"""tests/hostile/run_cases.py [--set dev|held|held2|all] [--cases FILE] [--bin DIR] [--only ID,...] [--no-gpu] [-v]

Hostile input against the tools' command lines: each case of cases.json (beside this
script) builds its files in a temporary folder, runs one command under a timeout and checks
the product rule: bad input gets a clear error and an exit code, never a crash, a hang,
truncated output or a silent wrong answer.

A case: id; set (dev, or held: chosen at random once, with a fixed seed, and looked at only
after the dev set was fixed; held2: cases_second.json, a second pass whose cases were all
held out, each run once before anything was changed; held3 to held15: cases_third.json to cases_fifteenth.json, a third to a fifteenth such pass); cmd (argv); optional setup (files to make first), env, stdin,
timeout (seconds, default 20), gpu (true: its outcome needs a GPU, skipped by --no-gpu); and
what must hold:
  rc      allowed exit codes (required)
  err     a regular expression stderr must match (the clear error)
  out     a regular expression stdout must match; out_not: one it must not match
  msg     a regular expression stdout and stderr together must match (where a message goes
          is the program's choice); msg_not: one they must not match
  out_json  stdout parses as JSON
  keep    files of the folder that must be byte for byte the same afterwards
  absent  files that must not exist afterwards; json_files: files that must parse as JSON
A case may carry revised (a text: why a later fix changed what it expects) or known_defect (a text: the defect it shows, still open): it runs and is
reported (KNOWN when it fails as said, FIXED? when it passes), but does not fail the run.
Every case also: no signal (exit >= 128) unless rc allows it, no traceback, no C++
terminate or sanitizer report, no error of bash itself, and stdout that ends with a newline when it is not empty.

Placeholders in cmd, setup and env: {t} the case's folder, {report} {membench} {check} the
programs, {bin} membench's folder, {py} this Python, {src} the source tree, {data} tests/data/report, {runs} a folder
of three committed check runs of one H100 (check1/ to check3/), {run1} to {run3} their files.

Exit: 0 when every case run passed, 1 when one failed, 2 on a bad option or case table.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
CHECK_RUNS = "reports/fleet/h100/check/2026-12-07_1gpu_865f7762.tar.xz"
CRASH = re.compile(r"Traceback \(most recent call last\)|terminate called|Segmentation fault|"
                   r"AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|core dumped|"
                   # bash's own errors: a script that met input it did not expect
                   r"line \d+: .*(integer expression expected|value too great for base|unbound variable|"
                   r"syntax error|bad substitution|ambiguous redirect)")


def extract_runs(into):
    """Three of the committed check runs, as check1/ to check3/, each one membench JSON."""
    with tarfile.open(os.path.join(SRC, CHECK_RUNS)) as tar:
        members = sorted((m for m in tar.getmembers() if m.name.endswith(".json")), key=lambda m: m.name)
        files = []
        for k, member in enumerate(members[:3], 1):
            folder = os.path.join(into, f"check{k}")
            os.makedirs(folder)
            path = os.path.join(folder, os.path.basename(member.name))
            with tar.extractfile(member) as f, open(path, "wb") as out:
                out.write(f.read())
            files.append(path)
    return files


def expand(value, places):
    if isinstance(value, str):
        for key, text in places.items():
            value = value.replace("{" + key + "}", text)
        return value
    if isinstance(value, list):
        return [expand(v, places) for v in value]
    if isinstance(value, dict):
        return {k: expand(v, places) for k, v in value.items()}
    return value


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def make_setup(steps, folder):
    """The case's files: write (text, hex or a Python expression), copy, mkdir, fifo, chmod, symlink."""
    helpers = {"load": read, "J": lambda p: json.loads(read(p)), "json": json, "re": re}
    for step in steps:
        if "write" in step:
            path = os.path.join(folder, step["write"])
            if "py" in step:
                data = eval(step["py"], helpers)  # the case table is this test's own code
            elif "hex" in step:
                data = bytes.fromhex(step["hex"])
            else:
                data = step["text"]
            with open(path, "wb") as f:
                f.write(data.encode() if isinstance(data, str) else data)
        elif "copy" in step:
            shutil.copyfile(step["copy"], os.path.join(folder, step["to"]))
        elif "mkdir" in step:
            os.makedirs(os.path.join(folder, step["mkdir"]), exist_ok=True)
        elif "fifo" in step:
            os.mkfifo(os.path.join(folder, step["fifo"]))
        elif "chmod" in step:
            os.chmod(os.path.join(folder, step["chmod"]), int(step["mode"], 8))
        elif "symlink" in step:
            os.symlink(step["symlink"], os.path.join(folder, step["to"]))
        else:
            raise ValueError(f"unknown setup step {step}")


def snapshot(folder, names):
    out = {}
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def check(case, rc, out, err, folder, kept):
    """The reasons the case failed (empty: it passed)."""
    why = []
    if rc not in case["rc"]:
        why.append(f"exit {rc}, expected {case['rc']}")
    if (rc < 0 or rc >= 128) and rc not in case["rc"]:
        why.append(f"signal/crash exit {rc}")
    text = err.decode(errors="replace")
    if CRASH.search(text):
        why.append("crash report on stderr: " + CRASH.search(text).group(0))
    if "err" in case and not re.search(case["err"], text, re.S):
        why.append(f"stderr does not match /{case['err']}/")
    stdout = out.decode(errors="replace")
    if "out" in case and not re.search(case["out"], stdout, re.S):
        why.append(f"stdout does not match /{case['out']}/")
    if "out_not" in case and re.search(case["out_not"], stdout, re.S):
        why.append(f"stdout matches /{case['out_not']}/")
    if out and not out.endswith(b"\n"):
        why.append("stdout does not end with a newline (truncated?)")
    both = stdout + "\n" + text
    if "msg" in case and not re.search(case["msg"], both, re.S):
        why.append(f"stdout and stderr do not match /{case['msg']}/")
    if "msg_not" in case and re.search(case["msg_not"], both, re.S):
        why.append(f"stdout or stderr matches /{case['msg_not']}/")
    if case.get("out_json"):
        try:
            json.loads(stdout)
        except ValueError as e:
            why.append(f"stdout is not JSON: {e}")
    for name, before in kept.items():
        path = os.path.join(folder, name)
        now = open(path, "rb").read() if os.path.isfile(path) else None
        if now != before:
            why.append(f"{name} changed ({len(before)} bytes before, {'gone' if now is None else len(now)} after)")
    for name in case.get("absent", []):
        if os.path.lexists(os.path.join(folder, name)):
            why.append(f"{name} exists")
    for name in case.get("json_files", []):
        try:
            json.loads(read(os.path.join(folder, name)))
        except (OSError, ValueError) as e:
            why.append(f"{name} is not JSON: {e}")
    return why


def run_case(case, places, root, verbose):
    folder = tempfile.mkdtemp(prefix=case["id"] + ".", dir=root)
    places = dict(places, t=folder)
    case = expand(case, places)
    try:
        make_setup(case.get("setup", []), folder)
    except Exception as e:  # noqa: BLE001 a broken case is said, not raised
        return "fail", [f"setup: {e}"], 0.0
    kept = snapshot(folder, case.get("keep", []))
    env = dict(os.environ, PYTHONPATH=os.path.join(SRC, "python"))
    for key in ("BENCHMARK_OUT", "BENCHMARK_FILTER", "BENCHMARK_OUT_FORMAT", "NO_COLOR"):
        env.pop(key, None)  # only a case's own environment says these
    env.update(case.get("env", {}))
    stdin = case.get("stdin")
    start = time.monotonic()
    proc = subprocess.Popen(case["cmd"], cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            start_new_session=True)
    try:
        out, err = proc.communicate(stdin.encode() if stdin is not None else None, timeout=case.get("timeout", 20))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)  # the case's own process group, and only it
        proc.communicate()
        return "fail", [f"hang: no exit within {case.get('timeout', 20)} s"], time.monotonic() - start
    seconds = time.monotonic() - start
    why = check(case, proc.returncode, out, err, folder, kept)
    detail = [f"rc={proc.returncode} stderr: {err.decode(errors='replace')[-500:]!r}",
              f"stdout: {out.decode(errors='replace')[-200:]!r}"]
    return ("fail" if why else "pass"), why + (detail if why or verbose else []), seconds


def main():
    ap = argparse.ArgumentParser(description="hostile-input cases against membench's tools")
    ap.add_argument("--set", choices=("dev", "held", "held2", "all"), default="all")
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "dev", "bin"),
                    help="folder of membench and membench-report (default build/dev/bin)")
    ap.add_argument("--report", help="membench-report (default: in --bin)")
    ap.add_argument("--membench", help="membench (default: in --bin)")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.json"))
    ap.add_argument("--only", default="", help="comma-separated case ids (of those --set chooses)")
    ap.add_argument("--no-gpu", action="store_true", help="skip cases whose outcome needs a GPU")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    try:
        cases = json.loads(read(args.cases))["cases"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"run_cases: {args.cases}: {e}")
    ids = [c["id"] for c in cases]
    if len(set(ids)) != len(ids):
        sys.exit("run_cases: case ids repeat")
    only = set(filter(None, args.only.split(",")))
    if only - set(ids):
        sys.exit(f"run_cases: no such case: {', '.join(sorted(only - set(ids)))}")
    chosen = [c for c in cases if (args.set == "all" or c["set"] == args.set) and (not only or c["id"] in only)]
    places = {"report": os.path.abspath(args.report or os.path.join(args.bin, "membench-report")),
              "membench": os.path.abspath(args.membench or os.path.join(args.bin, "membench")),
              "check": os.path.join(SRC, "tools", "run", "membench-check"),
              "py": sys.executable, "src": SRC, "data": os.path.join(SRC, "tests", "data", "report")}
    places["bin"] = os.path.dirname(places["membench"])
    for program in ("report", "membench"):
        if not os.access(places[program], os.X_OK):
            sys.exit(f"run_cases: {places[program]}: not an executable (--bin, --{program})")
    root = tempfile.mkdtemp(prefix="membench-hostile.")
    try:
        places["runs"] = os.path.join(root, "runs")
        for k, path in enumerate(extract_runs(places["runs"]), 1):
            places[f"run{k}"] = path
        counts = {}
        for case in chosen:
            if args.no_gpu and case.get("gpu"):
                verdict, why, seconds = "skip", ["needs a GPU"], 0.0
            else:
                verdict, why, seconds = run_case(case, places, root, args.verbose)
                if case.get("known_defect"):  # reported, not counted as a failure
                    why = [f"known defect: {case['known_defect']}"] + why
                    verdict = "known" if verdict == "fail" else "fixed?"
            tally = counts.setdefault(case["set"], {"cases": 0, "pass": 0, "fail": 0, "skip": 0, "known": 0, "fixed?": 0})
            tally["cases"] += 1
            tally[verdict] += 1
            print(f"{verdict.upper():4} {case['set']:4} {case['id']:34} {seconds:5.1f}s")
            for line in why:
                print("       " + line)
        print("\nset    cases  passed  failed  skipped  known defects (failed as said / passed)")
        for name, tally in sorted(counts.items()):
            print(f"{name:6} {tally['cases']:5}  {tally['pass']:6}  {tally['fail']:6}  {tally['skip']:7}  "
                  f"{tally['known']} / {tally['fixed?']}")
        return 1 if any(t["fail"] for t in counts.values()) else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
