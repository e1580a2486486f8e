#!/usr/bin/env python3
"""Prints a membench JSON's rows in brief (one line each) for a GPU session's log:
name, median time, GB/s, % of peak and the family-specific counters present."""
import json
import sys

EXTRA = ("slowdown", "speedup", "pct_of_bound", "bound_us", "h2d_us", "d2h_us", "kernel_us", "host_gb_per_s",
         "pct_pcie", "ns_per_access", "granted_smem_bytes", "local_bytes", "regs", "noise_pct", "samples")

j = json.load(open(sys.argv[1]))
ctx = j.get("context", {})
for k in ("membench_device", "device_name", "pcie_link", "membench_git_commit", "git_commit"):
    if k in ctx:
        print(f"{k}: {ctx[k]}")
for r in j["benchmarks"]:
    name = r["name"].removesuffix("/manual_time")
    if r.get("error_occurred"):
        print(f"{name}  ERROR {r.get('error_message', '')}")
        continue
    parts = [f"{r.get('t_median_us', 0):.2f}us", f"{r.get('gb_per_s', 0):.1f}GB/s"]
    if "pct_peak" in r:
        parts.append(f"{r['pct_peak']:.1f}%pk")
    parts += [f"{k}={r[k]:.3g}" for k in EXTRA if k in r]
    print(name, " ".join(parts), r.get("label", ""))
