#!/usr/bin/env python3
"""membench --metrics vs Nsight Compute, on the GPU machine.

tools/ncu/ncu_metrics.py BUNDLE OUT: for each build, runs membench --metrics once over the
rows below and reads the CUPTI counters from its JSON; then profiles the same row under
ncu --metrics (the same metric names) with membench --timing=single: the row's kernel
launches for verification, warm-up and one timed sample, and ncu reads the last one
(--launch-skip 2). ncu replays the kernel once per pass: for l2:cold rows its cache
control is on (--cache-control all: caches invalidated before every pass, the state
membench's own replay sets with its L2 flush before every pass); for warm rows it is off.
Clock control is off. Prints a Markdown table per metric group and writes OUT/ncu_metrics.{md,json}.
Agreement: counts (sectors, requests) within 1 %, percentages within 2 points.
Exit 0 when every metric agrees, 1 otherwise, 2 when a build or ncu cannot be run (said on
stderr; OUT is made only once every build's membench has run) or an option is given twice.
Ctrl-C: one line, exit 130.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

from membench import cli
from membench import schema as S

C, R = S.counter, S.row

# membench's default --metrics list, the schema's (common/default_metrics.hpp), headed by the
# nvprof metric each replaces.
METRICS = list(S.default_metric)
SHORT = [S.default_metric.entry(m)["nvprof"] for m in METRICS]

OFFSETS = [f"global/read_offset/type:f32/offset:{o}/l2:cold/bytes:4M" for o in (0, 1, 2, 32)]
CONFIGS = {
    "membench": [(n, "read_offset_kernel") for n in OFFSETS]
    + [(f"global/write_offset/type:f32/offset:{o}/l2:cold/bytes:4M", "write_offset_kernel") for o in (0, 1)]
    + [(f"global/read_stride/type:f32/stride:{s}/l2:cold/bytes:1G", "read_stride_kernel") for s in (1, 2, 4, 8, 32)],
    "membench_ca": [(n, "read_offset_kernel") for n in OFFSETS],
    "membench_cg": [(n, "read_offset_kernel") for n in OFFSETS],
}


def exact(names):
    return "^(" + "|".join(names) + ")(/|$)"


def read_run(path):
    """(rows by name, context) of the membench JSON at `path`: the rows that are objects with a
    name; ValueError where it is no membench file (no object, no list of benchmarks)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    rows = doc.get(S.file.benchmarks) if isinstance(doc, dict) else None
    if not isinstance(rows, list):
        raise ValueError(f"{path}: no list of {S.file.benchmarks}")
    context = doc.get(S.file.context)
    named = (r for r in rows if isinstance(r, dict) and isinstance(r.get(R.run_name), str))
    return ({r[R.run_name].removesuffix("/manual_time"): r for r in named},
            context if isinstance(context, dict) else {})


def membench_metrics(exe, names):
    path = os.path.join(tempfile.gettempdir(), f"ncu_metrics_{os.path.basename(exe)}.json")
    subprocess.run([exe, "--metrics", f"--benchmark_filter={exact(names)}", f"--benchmark_out={path}",
                    "--benchmark_out_format=json"], check=True, stdout=subprocess.DEVNULL)
    rows, context = read_run(path)
    return rows, context.get(S.context.membench_metrics_status, "?")


def ncu_metrics(exe, name, kernel):
    # Without cache control, every replay pass after the first would find the kernel's data in L2.
    cache = "all" if "/l2:cold/" in name else "none"
    cmd = ["ncu", "--clock-control", "none", "--cache-control", cache, "--metrics", ",".join(METRICS),
           "--print-units", "base", "--csv", "-k", f"regex:{kernel}", "--launch-skip", "2", "--launch-count", "1",
           exe, "--timing=single", f"--benchmark_filter={exact([name])}"]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    lines = [l for l in text.splitlines() if l.startswith('"')]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    values = {}
    for r in rows:
        if r.get("Metric Name") in METRICS:
            values[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    missing = [m for m in METRICS if m not in values]
    if missing:
        raise RuntimeError(f"ncu gave no {missing} for {name}:\n{text[-2000:]}")
    return values


def agree(metric, a, b):
    if metric.endswith(".pct") or "pct_of_peak" in metric:
        return abs(a - b) <= 2.0
    return abs(a - b) <= 0.01 * max(abs(b), 1.0)


def parse_args():
    """BUNDLE and OUT; a missing or extra one is said with the usage, exit 2."""
    ap = cli.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bundle", metavar="BUNDLE", help="the folder holding the membench builds")
    ap.add_argument("out", metavar="OUT", help="the folder ncu_metrics.{md,json} are written to")
    return ap.parse_args()


def make_out(out, tool):
    """OUT as a folder; an existing file there (or any folder that cannot be made) is said, exit 2, the file kept."""
    if os.path.exists(out) and not os.path.isdir(out):
        print(f"{tool}: OUT {out}: exists and is not a folder", file=sys.stderr)
        sys.exit(2)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        print(f"{tool}: OUT {out}: cannot be made: {e.strerror or e}", file=sys.stderr)
        sys.exit(2)


def fail(message):
    print(f"ncu_metrics: {message}", file=sys.stderr)
    sys.exit(2)


def metrics_of(exe, configs):
    """membench_metrics, with a build that is missing or fails said, exit 2 (as ncu_validate.py does)."""
    try:
        return membench_metrics(exe, [c[0] for c in configs])
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        fail(f"membench failed: {exe}: {e}")


def measured(bundle, out):
    """{build: (rows by name, metrics status)}: membench --metrics of every build, run before
    OUT is made (as ncu_validate.py does): a bundle that cannot run leaves no empty OUT behind."""
    if not os.path.isdir(bundle):
        fail(f"membench failed: BUNDLE {bundle} is no folder (no membench build to run)")
    if os.path.exists(out) and not os.path.isdir(out):  # said before the membench runs
        fail(f"OUT {out}: exists and is not a folder")
    builds = {}
    for exe_name, configs in CONFIGS.items():
        builds[exe_name] = metrics_of(os.path.join(bundle, exe_name), configs)
        print(f"{exe_name}: {builds[exe_name][1]}")
    return builds


def profiled(exe, name, kernel):
    """ncu_metrics, with ncu missing or failing said, exit 2."""
    try:
        return ncu_metrics(exe, name, kernel)
    except (OSError, ValueError, subprocess.CalledProcessError, RuntimeError) as e:
        fail(f"ncu failed on {name}: {e}")


def compared(bundle, builds):
    """(one result per build and row, whether every metric agreed)."""
    results, ok = [], True
    for exe_name, configs in CONFIGS.items():
        exe, rows = os.path.join(bundle, exe_name), builds[exe_name][0]
        for name, kernel in configs:
            row = rows.get(name, {})
            mine = {m: row.get(m) for m in METRICS}
            theirs = profiled(exe, name, kernel)
            same = {m: mine[m] is not None and agree(m, mine[m], theirs[m]) for m in METRICS}
            ok &= all(same.values())
            results.append(dict(build=exe_name, name=name, membench=mine, ncu=theirs, agree=same,
                                sectors_per_request=row.get(C.sectors_per_request), label=row.get(R.label, "")))
    return results, ok


def main():
    args = parse_args()
    bundle, out = args.bundle, args.out
    builds = measured(bundle, out)
    make_out(out, "ncu_metrics")
    results, ok = compared(bundle, builds)
    head = "| build | benchmark | " + " | ".join(f"{s} membench / ncu" for s in SHORT) + " | sectors/request | agree |"
    lines = [head, "|---|---|" + "---:|" * len(SHORT) + "---:|:---:|"]
    fmt = lambda v: "-" if v is None else (f"{v:.0f}" if abs(v) >= 1000 else f"{v:.2f}")
    for r in results:
        cells = " | ".join(f"{fmt(r['membench'][m])} / {fmt(r['ncu'][m])}" for m in METRICS)
        spr = fmt(r["sectors_per_request"])
        lines.append(f"| {r['build']} | `{r['name']}` | {cells} | {spr} | {'yes' if all(r['agree'].values()) else 'NO'} |")
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(out, "ncu_metrics.md"), "w") as f:
        f.write(table + "\n")
    with open(os.path.join(out, "ncu_metrics.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    cli.run_main(main)
