#!/usr/bin/env python3
"""tools/report/fleet/scale_benchmark.py --report BIN --sizes 512,2048,10000 SOURCE...

fleet's time and memory as the fleet grows: for each size, that many synthetic GPUs of one
run each, made from the runs below the SOURCE folders (run i of the synthetic fleet is source
run i mod the number of sources, under a new gpu_uuid and host, every time and interval
scaled by one factor drawn per GPU and row, log sd 0.2 %), written to a temporary folder,
then `membench-report fleet FOLDER --format json -o FILE` timed with GNU time
(/usr/bin/time -v): wall seconds, CPU seconds and peak memory. Prints a Markdown table, and
the exit code fleet gave (0 healthy, 3 undecided). A benchmark, not a test: run it on an idle
machine; nothing here asserts a time.
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from membench import schema as S

C, F, G, R, X = S.counter, S.file, S.gbench_context, S.row, S.context
TIME_KEYS = (R.real_time, R.cpu_time, C.ci_low_us, C.ci_high_us, C.t_min_us, C.batch_us, C.batch_ci_low_us,
             C.batch_ci_high_us)


def fail(message):
    print(f"scale_benchmark: {message}", file=sys.stderr)
    sys.exit(2)


def sources(folders):
    for f in folders:
        if not Path(f).is_dir():
            fail(f"source {f} is not a folder")
    paths = sorted(p for f in folders for p in Path(f).rglob("*.json"))
    docs = []
    for p in paths:
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            fail(f"{p}: not a readable JSON file ({e})")
        if not isinstance(doc, dict) or not isinstance(doc.get(F.context), dict) \
                or not isinstance(doc.get(F.benchmarks), list):
            continue
        if X.gpu_uuid in doc.get(F.context, {}) and len(doc.get(F.benchmarks, [])) > 50:
            docs.append(doc)
    if not docs:
        fail("no run of the whole quick tier (more than 50 rows with a gpu_uuid) below the sources")
    return docs


def synthetic(doc, index, rng):
    """A copy of DOC as GPU INDEX's one run: its own uuid, host and date, times scaled per row."""
    out = json.loads(json.dumps(doc))
    context = out[F.context]
    context[X.gpu_uuid] = f"GPU-{index:08x}-0000-4000-8000-{index:012x}"
    context[G.host_name] = f"node{index // 8}"
    context[G.date] = f"2026-12-07T00:{index // 60 % 60:02d}:{index % 60:02d}+00:00"
    for row in out[F.benchmarks]:
        factor = math.exp(rng.gauss(0, 0.002))
        for key in TIME_KEYS:
            if isinstance(row.get(key), (int, float)):
                row[key] *= factor
    return out


def write_fleet(docs, size, folder, seed):
    rng = random.Random(seed)
    for i in range(size):
        (folder / f"gpu{i:05d}.json").write_text(json.dumps(synthetic(docs[i % len(docs)], i, rng)))


def measure(report, folder):
    cmd = ["/usr/bin/time", "-v", report, "fleet", str(folder), "--format", "json", "-o", str(folder) + ".out.json"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    stats = {}
    for line in run.stderr.splitlines():
        found = re.match(r"\s*(.+?): (.+)$", line)
        if found:
            stats[found.group(1)] = found.group(2)
    wall = stats.get("Elapsed (wall clock) time (h:mm:ss or m:ss)", "0:0")
    seconds = sum(float(p) * 60 ** k for k, p in enumerate(reversed(wall.split(":"))))
    cpu = float(stats.get("User time (seconds)", 0)) + float(stats.get("System time (seconds)", 0))
    peak_mb = int(stats.get("Maximum resident set size (kbytes)", 0)) / 1024
    return run.returncode, seconds, cpu, peak_mb, run.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", required=True, help="the membench-report binary")
    parser.add_argument("--sizes", default="512,2048,10000", help="fleet sizes, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", help="where the synthetic files go (default: a temporary folder, removed)")
    parser.add_argument("source", nargs="+", help="folders of real runs")
    args = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        fail("needs GNU time (/usr/bin/time, Debian package time)")
    # The arguments checked before the table's header is printed or a file written.
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        sizes = []
    if not sizes or any(s < 1 for s in sizes):
        fail(f"--sizes must be whole numbers above 0, comma-separated, not '{args.sizes}'")
    if not (os.path.isfile(args.report) and os.access(args.report, os.X_OK)):
        fail(f"--report {args.report} is not an executable file")
    if args.work and Path(args.work).exists() and not Path(args.work).is_dir():
        fail(f"--work {args.work} is not a folder")
    docs = sources(args.source)
    rows = len(docs[0][F.benchmarks])
    try:
        work = Path(args.work) if args.work else Path(tempfile.mkdtemp())
        work.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"--work {args.work}: {e.strerror or e}")
    print(f"fleet at scale: {len(docs)} source runs of {rows} rows; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.2f}\n")
    print("| GPUs | files | rows judged | wall s | CPU s | peak MB | MB of JSON | exit |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    try:
        for size in sizes:
            folder = work / f"fleet{size}"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            write_fleet(docs, size, folder, args.seed)
            json_mb = sum(p.stat().st_size for p in folder.iterdir()) / 2**20
            code, wall, cpu, peak, err = measure(args.report, folder)
            if code not in (0, 1, 3, 4):
                sys.exit(f"scale_benchmark: fleet exited {code} at {size} GPUs:\n{err}")
            print(f"| {size} | {size} | {size * rows} | {wall:.1f} | {cpu:.1f} | {peak:.0f} | {json_mb:.0f} | {code} |",
                  flush=True)
            shutil.rmtree(folder)
            Path(str(folder) + ".out.json").unlink(missing_ok=True)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
