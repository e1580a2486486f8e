#!/usr/bin/env python3
"""tools/gate/inject_slowdown.py IN.json OUT.json --slowdown PCT [--filter REGEX] [--every N [--phase K]]

Writes a copy of a membench (or any Google Benchmark) JSON file in which chosen rows are
PCT % slower, to measure what `membench-report compare` detects (tools/gate/gate_power.py).

Which rows: every timed iteration row whose name the regular expression --filter finds
(default: all), and of those every N-th (--every, default 1) in file order, starting at the
K-th (--phase, 0 to N - 1, default 0: N copies with phases 0 to N - 1 change each row once). Error rows
and aggregate rows are never changed (compare reads iteration rows; an aggregates-only
file gets its mean, median and stddev rows scaled instead).

How: times, intervals and kept samples multiplied by 1 + PCT / 100, rates divided by it,
everything else unchanged (membench.slowdown, in the membench package, says which keys).
The context gets membench_injected_slowdown_pct (PCT) and membench_injected_rows (the
changed benchmarks as membench-report names them, comma-separated) so that gate_power.py
knows what it should find.
"""
import argparse
import json
import sys

from membench.slowdown import inject


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
