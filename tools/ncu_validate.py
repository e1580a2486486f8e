#!/usr/bin/env python3
"""Harness time vs Nsight Compute's gpu__time_duration.sum, on the GPU machine.

tools/ncu_validate.py BUNDLE OUT: times each configuration below with membench (the
default blocking method and, for comparison, plain events), then profiles the same
benchmark under ncu, running membench with plain events and 20 samples, and takes the
median of ncu's durations of the benchmark kernel's last 20 launches (the timed ones; a
single ncu launch is as noisy as one harness sample). Clocks are left alone. ncu's own cache control is off,
so ncu sees the cache state the harness sets up (it flushes L2 before l2:cold launches by
reading twice the L2 size); for l2:cold rows a second ncu pass with --cache-control all
(ncu invalidates the caches) is shown for comparison. Prints a Markdown table and
writes OUT/ncu_validate.{md,json}. Passes (exit 0) when every row is within 3 % for
kernels of 20 us and more, within 0.5 us below.
"""
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile

CONFIGS = [
    ("global/read_offset/type:f32/offset:0/l2:cold/bytes:16K", "read_offset_kernel"),
    ("global/write_offset/type:f32/offset:4/l2:cold/bytes:16K", "write_offset_kernel"),
    ("global/read_reuse/type:f32/l2:warm/bytes:4M", "read_reuse_kernel"),
    ("global/read_offset/type:f32/offset:8/l2:cold/bytes:4M", "read_offset_kernel"),
    ("global/read_scatter/type:f32/l2:warm/bytes:4M", "read_scatter_kernel"),
    ("global/read_stride/type:f64/stride:64/l2:cold/bytes:1G", "read_stride_kernel"),
    ("global/working_set/map:fixed/l2:warm/bytes:32M", "working_set_kernel"),
    ("global/read/width:16/unroll:1/block:256/style:perthread/l2:cold/bytes:1G", "read_kernel"),
    ("global/copy/width:1/unroll:8/block:1024/style:gridstride/l2:cold/bytes:1G", "copy_kernel"),
    ("global/copy/width:1/unroll:1/block:256/style:perthread/l2:cold/bytes:1G", "copy_kernel"),
    ("global/read_scatter/type:f32/l2:cold/bytes:2G", "read_scatter_kernel"),
]


def exact(names):
    return "^(" + "|".join(names) + ")(/|$)"


NCU_SAMPLES = 20


def membench_times(exe, method):
    path = os.path.join(tempfile.gettempdir(), f"ncu_validate_{method}.json")
    subprocess.run([exe, f"--timing={method}", f"--benchmark_filter={exact([c[0] for c in CONFIGS])}",
                    f"--benchmark_out={path}", "--benchmark_out_format=json"], check=True,
                   stdout=subprocess.DEVNULL)
    rows = json.load(open(path))["benchmarks"]
    return {r["run_name"].removesuffix("/manual_time"): r for r in rows if "t_median_us" in r}


def ncu_time_us(exe, name, kernel, cache):
    cmd = ["ncu", "--clock-control", "none", "--cache-control", cache, "--metrics", "gpu__time_duration.sum",
           "--print-units", "base", "--csv", "-k", f"regex:{kernel}", exe, "--timing=events",
           f"--min-samples={NCU_SAMPLES}", "--max-noise=100", "--max-time=3600", f"--benchmark_filter={exact([name])}"]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    lines = [l for l in text.splitlines() if l.startswith('"')]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    values = [float(r["Metric Value"].replace(",", "")) for r in rows if r.get("Metric Name") == "gpu__time_duration.sum"]
    if len(values) < NCU_SAMPLES:
        raise RuntimeError(f"ncu reported {len(values)} {kernel} launches for {name}:\n{text[-2000:]}")
    unit = rows[-1]["Metric Unit"]
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}[unit]
    return statistics.median(values[-NCU_SAMPLES:]) * scale, len(values)


def main():
    bundle, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    exe = os.path.join(bundle, "membench")
    blocking = membench_times(exe, "blocking")
    events = membench_times(exe, "events")
    results, ok = [], True
    for name, kernel in CONFIGS:
        ncu_us, launches = ncu_time_us(exe, name, kernel, "none")
        ncu_all_us = ncu_time_us(exe, name, kernel, "all")[0] if "/l2:cold/" in name else None
        b = blocking[name]["t_median_us"]
        e = events[name]["t_median_us"]
        diff = b - ncu_us
        within = abs(diff) <= 0.5 if ncu_us < 20 else abs(diff) <= 0.03 * ncu_us
        ok &= within
        results.append(dict(name=name, ncu_us=ncu_us, ncu_all_us=ncu_all_us, ncu_launches=launches, blocking_us=b, events_us=e,
                            diff_us=diff, diff_pct=100 * diff / ncu_us, within=within,
                            noise_pct=blocking[name]["noise_pct"], samples=blocking[name]["samples"],
                            event_overhead_us=blocking[name].get("event_overhead_us", 0)))
    lines = ["| benchmark | ncu gpu__time_duration, median of 20 (us) | membench blocking (us) | diff (us) | diff (%) | within | "
             "plain events (us) | ncu, caches invalidated (us) | noise (%) | samples |",
             "|---|---:|---:|---:|---:|:---:|---:|---:|---:|---:|"]
    for r in results:
        inval = f"{r['ncu_all_us']:.2f}" if r["ncu_all_us"] is not None else "-"
        lines.append(f"| `{r['name']}` | {r['ncu_us']:.2f} | {r['blocking_us']:.2f} | {r['diff_us']:+.2f} | "
                     f"{r['diff_pct']:+.1f} | {'yes' if r['within'] else 'NO'} | {r['events_us']:.2f} | {inval} | "
                     f"{r['noise_pct']:.2f} | {int(r['samples'])} |")
    table = "\n".join(lines)
    print(table)
    open(os.path.join(out, "ncu_validate.md"), "w").write(table + "\n")
    json.dump(results, open(os.path.join(out, "ncu_validate.json"), "w"), indent=1)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
