#!/usr/bin/env python3
"""Timing summary of a reports/<gpu>/<date>_<sha>/ folder against an earlier one (a stop-gap
from before membench-report): python3 reports/make_timing.py BEFORE_DIR AFTER_DIR > AFTER_DIR/timing.md"""
import json, statistics, sys
from datetime import datetime
from pathlib import Path

from membench import schema as S

C, R = S.counter, S.row

before, after = Path(sys.argv[1]), Path(sys.argv[2])
builds = [("default", "membench"), ("ca", "membench_ca"), ("cg", "membench_cg")]


def load(d, exe):
    return json.load(open(d / f"{exe}.json"))


def date(j):
    return datetime.fromisoformat(j[S.file.context][S.gbench_context.date])


print(f"# Timing: {after.name} against {before.name}\n")
print("Per build: rows, rows meeting the stopping rule, median of the rows' relative noise (stddev/mean of their")
print("samples), median samples per row, GPU sampling seconds, rows NVML flagged with a throttle reason, and the")
print("wall time between the start of this build's suite and the next one's (default and ca only).\n")
print("| folder | build | timing | rows | converged | median noise % | median samples | sampling s | throttle-flagged rows | wall s |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
for d in (before, after):
    js = [load(d, exe) for _, exe in builds]
    for i, ((mode, _), j) in enumerate(zip(builds, js)):
        rows = [b for b in j[S.file.benchmarks] if C.t_median_us in b]
        conv = sum(1 for b in rows if b.get(C.converged, 1) == 1)
        samp = sum(b.get(C.sampling_s, 0) for b in rows)
        flagged = sum(1 for b in rows if S.label.values(b.get(R.label, ""), S.label.throttle))
        wall = f"{(date(js[i + 1]) - date(j)).total_seconds():.0f}" if i + 1 < len(js) else "-"
        timing = j[S.file.context].get(S.context.membench_timing, "events, 0.05 s min time")
        print(f"| {d.name} | {mode} | {timing} | {len(rows)} | {conv} | "
              f"{statistics.median(b[C.noise_pct] for b in rows):.3f} | {statistics.median(b[C.samples] for b in rows):.0f} | "
              f"{samp:.1f} | {flagged} | {wall} |")

print("\n## Small kernels: the same rows before (events around each launch) and after (blocking)\n")
print("| benchmark | before t_median (us) | after t_median (us) | before noise % | after noise % | after samples |")
print("|---|---:|---:|---:|---:|---:|")
b0 = {b[R.run_name]: b for b in load(before, "membench")[S.file.benchmarks]}
b1 = {b[R.run_name]: b for b in load(after, "membench")[S.file.benchmarks]}
for n, b in sorted(b1.items(), key=lambda kv: kv[1][C.t_median_us]):
    if n in b0 and b[C.t_median_us] < 6 and "/offset:0/" in n or n.startswith("global/read_reuse/type:f32/l2:warm/bytes:4M"):
        if n in b0:
            print(f"| `{n.removesuffix('/manual_time')}` | {b0[n][C.t_median_us]:.2f} | {b[C.t_median_us]:.2f} | "
                  f"{b0[n][C.noise_pct]:.2f} | {b[C.noise_pct]:.2f} | {b[C.samples]:.0f} |")

ncu = after / "ncu_validate.md"
if ncu.exists():
    print("\n## Harness vs Nsight Compute (tools/ncu/ncu_validate.py)\n")
    print(ncu.read_text())
