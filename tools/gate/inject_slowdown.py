#!/usr/bin/env python3
"""tools/gate/inject_slowdown.py IN.json OUT.json --slowdown PCT [--filter REGEX] [--every N [--phase K]]

Writes a copy of a membench (or any Google Benchmark) JSON file in which chosen rows are
PCT % slower, to measure what `membench-report compare` detects (tools/gate/gate_power.py).

Which rows: every timed iteration row whose name the regular expression --filter finds
(default: all), and of those every N-th (--every, default 1) in file order, starting at the
K-th (--phase, 0 to N - 1, default 0: N copies with phases 0 to N - 1 change each row once). Error rows
and aggregate rows are never changed (compare reads iteration rows; an aggregates-only
file gets its mean, median and stddev rows scaled instead).

How, with s = 1 + PCT / 100, in each chosen row:
  - multiplied by s: real_time, cpu_time, every element of samples_us, every counter whose
    name starts with t_ and ends with _us (t_min_us, t_median_us, t_mean_us, t_max_us),
    ci_low_us, ci_high_us, batch_us, batch_ci_low_us, batch_ci_high_us, us_per_call, every
    element of batch_samples_us;
  - divided by s: gb_per_s, bytes_per_second, pct_peak;
  - unchanged: everything else (ci_pct and noise_pct are relative, clocks and state stay
    as measured).
The context gets membench_injected_slowdown_pct (PCT) and membench_injected_rows (the
changed benchmarks as membench-report names them, comma-separated) so that gate_power.py
knows what it should find.
"""
import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import membench_schema as S  # noqa: E402

C, R = S.counter, S.row
SCALED = (R.real_time, R.cpu_time, C.ci_low_us, C.ci_high_us, C.batch_us, C.batch_ci_low_us, C.batch_ci_high_us,
          C.us_per_call)
# The batch figure's kept batches, an array like samples_us.
SAMPLE_ARRAYS = (R.samples_us, "batch_samples_us")
DIVIDED = (C.gb_per_s, C.bytes_per_second, C.pct_peak)
# The sample-time counters t_min_us ... t_max_us, by the schema's unit.
SAMPLE_TIMES = tuple(k for k in C if k.startswith("t_") and C.unit(k) == "us")
# This script's own context keys (gate_power.py reads them).
INJECTED_PCT, INJECTED_ROWS = "membench_injected_slowdown_pct", "membench_injected_rows"


def report_name(name):
    """The name as membench-report shows it: without Google Benchmark's time suffix."""
    return re.sub(r"/(manual_time|real_time|process_time)$", "", name)


def scale_row(row, s):
    for key in list(row):
        if key in SCALED or key in SAMPLE_TIMES:
            if isinstance(row[key], (int, float)):
                row[key] *= s
        elif key in DIVIDED and isinstance(row[key], (int, float)):
            row[key] /= s
    for key in SAMPLE_ARRAYS:
        if isinstance(row.get(key), list):
            row[key] = [x * s for x in row[key]]


def inject(doc, slowdown, pattern="", every=1, phase=0):
    """Makes the chosen rows of a loaded file `slowdown` % slower in place (see above) and
    notes it in the context; returns the changed benchmarks as membench-report names them."""
    rows = doc.get(S.file.benchmarks)
    if not isinstance(rows, list):
        raise ValueError("no benchmarks array")
    pattern = re.compile(pattern)
    s = 1 + slowdown / 100
    aggregates_only = not any(r.get(R.run_type, "iteration") == "iteration" for r in rows)
    chosen, decided = [], {}
    for row in rows:
        name = row.get(R.run_name, row.get(R.name, ""))
        if row.get(R.error_occurred) or not pattern.search(name):
            continue
        kind = row.get(R.run_type, "iteration")
        if aggregates_only:
            if kind != "aggregate" or row.get(R.aggregate_name) not in ("mean", "median", "stddev"):
                continue
        elif kind != "iteration":
            continue
        # The repetition rows of one benchmark are chosen together.
        if name not in decided:
            decided[name] = len(decided) % every == phase
            if decided[name]:
                chosen.append(report_name(name))
        if decided[name]:
            scale_row(row, s)
    ctx = doc.setdefault(S.file.context, {})
    ctx[INJECTED_PCT] = f"{slowdown:g}"
    ctx[INJECTED_ROWS] = ",".join(chosen)
    return chosen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--slowdown", type=float, required=True, help="percent slower (negative: faster)")
    ap.add_argument("--filter", default="", help="regular expression searched in row names")
    ap.add_argument("--every", type=int, default=1, help="change every N-th matching row")
    ap.add_argument("--phase", type=int, default=0, help="the first matching row changed (0 to N - 1)")
    args = ap.parse_args()
    if args.every < 1:
        ap.error("--every must be at least 1")
    if not 0 <= args.phase < args.every:
        ap.error("--phase must be between 0 and --every - 1")
    doc = json.load(open(args.input))
    try:
        chosen = inject(doc, args.slowdown, args.filter, args.every, args.phase)
    except ValueError as e:
        sys.exit(f"{args.input}: {e}")
    json.dump(doc, open(args.output, "w"), indent=2)
    print(f"{args.output}: {len(chosen)} benchmark(s) {args.slowdown:+g} %", file=sys.stderr)


if __name__ == "__main__":
    main()
