#!/usr/bin/env python3
"""Timing summary of a reports/<gpu>/<date>_<sha>/ folder against an earlier one (a stop-gap
from before membench-report): python3 reports/make_timing.py BEFORE_DIR AFTER_DIR > AFTER_DIR/timing.md"""
import statistics, sys
from datetime import datetime
from pathlib import Path

from membench import read_document, schema as S

C, R = S.counter, S.row

builds = [("default", "membench"), ("ca", "membench_ca"), ("cg", "membench_cg")]


def fail(message):
    print(f"make_timing: {message}", file=sys.stderr)
    sys.exit(2)


def load(d, exe):
    """A build's results file; one missing or unreadable is said, exit 2."""
    path = d / f"{exe}.json"
    try:
        return read_document(path)
    except (OSError, ValueError) as e:  # missing, a folder, not UTF-8, not JSON
        fail(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}")


def date(j):
    return datetime.fromisoformat(j[S.file.context][S.gbench_context.date])


def render(before, after):
    """The Markdown summary, whole: nothing is printed before both folders are read."""
    lines = []
    out = lines.append
    out(f"# Timing: {after.name} against {before.name}\n")
    out("Per build: rows, rows meeting the stopping rule, median of the rows' relative noise (stddev/mean of their")
    out("samples), median samples per row, GPU sampling seconds, rows NVML flagged with a throttle reason, and the")
    out("wall time between the start of this build's suite and the next one's (default and ca only).\n")
    out("| folder | build | timing | rows | converged | median noise % | median samples | sampling s | throttle-flagged rows | wall s |")
    out("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for d in (before, after):
        js = [load(d, exe) for _, exe in builds]
        for i, ((mode, _), j) in enumerate(zip(builds, js)):
            rows = [b for b in j[S.file.benchmarks] if C.t_median_us in b]
            conv = sum(1 for b in rows if b.get(C.converged, 1) == 1)
            samp = sum(b.get(C.sampling_s, 0) for b in rows)
            flagged = sum(1 for b in rows if S.label.values(b.get(R.label, ""), S.label.throttle))
            wall = f"{(date(js[i + 1]) - date(j)).total_seconds():.0f}" if i + 1 < len(js) else "-"
            timing = j[S.file.context].get(S.context.membench_timing, "events, 0.05 s min time")
            out(f"| {d.name} | {mode} | {timing} | {len(rows)} | {conv} | "
                f"{statistics.median(b[C.noise_pct] for b in rows):.3f} | {statistics.median(b[C.samples] for b in rows):.0f} | "
                f"{samp:.1f} | {flagged} | {wall} |")

    out("\n## Small kernels: the same rows before (events around each launch) and after (blocking)\n")
    out("| benchmark | before t_median (us) | after t_median (us) | before noise % | after noise % | after samples |")
    out("|---|---:|---:|---:|---:|---:|")
    b0 = {b[R.run_name]: b for b in load(before, "membench")[S.file.benchmarks]}
    b1 = {b[R.run_name]: b for b in load(after, "membench")[S.file.benchmarks]}
    for n, b in sorted(b1.items(), key=lambda kv: kv[1][C.t_median_us]):
        if n in b0 and b[C.t_median_us] < 6 and "/offset:0/" in n or n.startswith("global/read_reuse/type:f32/l2:warm/bytes:4M"):
            if n in b0:
                out(f"| `{n.removesuffix('/manual_time')}` | {b0[n][C.t_median_us]:.2f} | {b[C.t_median_us]:.2f} | "
                    f"{b0[n][C.noise_pct]:.2f} | {b[C.noise_pct]:.2f} | {b[C.samples]:.0f} |")

    ncu = after / "ncu_validate.md"
    if ncu.exists():
        out("\n## Harness vs Nsight Compute (tools/ncu/ncu_validate.py)\n")
        out(ncu.read_text())
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 3:
        print("usage: make_timing.py BEFORE_DIR AFTER_DIR > AFTER_DIR/timing.md", file=sys.stderr)
        sys.exit(2)
    before, after = Path(sys.argv[1]), Path(sys.argv[2])
    try:
        text = render(before, after)
    except (OSError, KeyError, TypeError, ValueError, IndexError, statistics.StatisticsError) as e:
        fail(f"{before} / {after}: a row or field the summary needs is missing or malformed: {e!r}")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
