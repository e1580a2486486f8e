#!/usr/bin/env python3
"""tools/run/suite_summary.py FILE.json [WALL_S]: how finished a membench run's measurements are.

Prints one line per file (rows, timed, errors, skipped, converged %, rows under 10 samples,
rows that saw a throttle reason, discarded samples, median interval half-width, batch rows,
the run's wall seconds when given) and then, per family, the rows that did not converge and
why, and the ten rows that took longest. For GPU sessions' logs and closing notes.

Exit: 0 summarised; 2 a bad argument (WALL_S no number of seconds) or a file that is no
readable results file (cut short, not JSON, a counter of the wrong type, a count that is no
finite number, a number beyond a double's range), said in one line; 130 on Ctrl-C (one line,
`interrupted`); 141, quietly, where the reader of stdout has gone (`| head`).
"""
import collections
import math
import statistics
import sys

import membench
from membench import cli
from membench import schema as S

C, R, X = S.counter, S.row, S.context


def family(name):
    return "/".join(name.split("/")[:2])


def fail(message):
    print(f"suite_summary.py: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: suite_summary.py FILE.json [WALL_S]")
    path = sys.argv[1]
    wall = None
    if len(sys.argv) > 2:
        try:
            wall = float(sys.argv[2])
        except ValueError:
            pass
        if wall is None or not math.isfinite(wall) or wall < 0:
            fail(f"WALL_S {sys.argv[2]!r} is no number of seconds")
    try:  # bounded and checked as membench.load reads it (a run cut short is no JSON)
        run = membench.load(path)
    except (OSError, ValueError) as e:
        fail(f"{path}: not a readable results file: {e}")
    try:
        summarise(path, run, wall)
    except (TypeError, ValueError, AttributeError, KeyError, OverflowError) as e:  # a field no results file writes so
        fail(f"{path}: not a results file this summary reads: {type(e).__name__}: {e}")


def count(row, key):
    """A row's counter `key` as a whole count (0 where absent); ValueError for one that is no
    finite number (JSON as Python reads it spells Infinity and NaN)."""
    value = row.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError(f"{row.get(R.name, '?')}: {key} {value!r} is no count")
    return int(value)


def summarise(path, run, wall):
    rows = [r.json for r in run if r.run_type == "iteration"]
    timed = [r for r in rows if not r.get(R.error_occurred)]
    errors = [r for r in rows if r.get(R.error_occurred) and not r.get(R.error_message, "").startswith("skipped:")]
    skipped = [r for r in rows if r.get(R.error_message, "").startswith("skipped:")]
    conv = [r for r in timed if r.get(C.converged, 0) == 1]
    few = [r for r in timed if r.get(C.samples, 0) < 10]
    throttled = [r for r in timed if S.label.values(r.get(R.label, ""), S.label.throttle)]
    discarded = sum(count(r, C.throttled_samples) for r in timed)
    batch = [r for r in timed if C.batch_us in r]
    ci = [r[C.ci_pct] for r in timed if C.ci_pct in r]
    ctx = run.context
    pct = 100 * len(conv) / len(timed) if timed else 0
    print(f"{path}: {ctx.get(X.gpu_name, '?')} {ctx.get(X.membench_cache_mode, '?')} build, suite "
          f"{ctx.get(X.membench_suite, '?')}, commit {ctx.get(X.membench_git_commit, '?')}")
    print(f"  rows {len(rows)}, timed {len(timed)}, errors {len(errors)}, skipped {len(skipped)}, "
          f"converged {len(conv)} ({pct:.1f} %), under 10 samples {len(few)}, throttle-labelled {len(throttled)}, "
          f"discarded samples {discarded}, median CI half-width {statistics.median(ci) if ci else 0:.3f} %, "
          f"batch rows {len(batch)}, sum of row wall {sum(r.get(C.wall_s, 0) for r in timed):.1f} s"
          + (f", run wall {wall:.1f} s" if wall is not None else ""))
    print(f"  event pair {ctx.get(X.membench_event_overhead_us, '?')} us (spread "
          f"{ctx.get(X.membench_event_overhead_spread_us, '?')}, end {ctx.get(X.membench_event_overhead_end_us, '?')}), "
          f"empty kernel {ctx.get(X.membench_empty_kernel_us, '?')} us, reference SM clock "
          f"{ctx.get(X.membench_reference_sm_clock_mhz, '?')} MHz")
    for r in errors[:10]:
        print(f"  ERROR {r[R.name]}: {r.get(R.error_message, '')[:160]}")
    by_family = collections.defaultdict(list)
    for r in timed:
        if r.get(C.converged, 0) != 1:
            why = next(iter(S.label.values(r.get(R.label, ""), S.label.unconverged)), "?")
            by_family[family(r[R.name])].append((why, r))
    for fam, items in sorted(by_family.items()):
        reasons = collections.Counter(w for w, _ in items)
        worst = max(items, key=lambda x: x[1].get(C.ci_pct, 0))[1]
        print(f"  unconverged {fam}: {len(items)} ({dict(reasons)}); widest {worst[R.name].removesuffix('/manual_time')} "
              f"ci {worst.get(C.ci_pct, float('nan')):.2f} % of {worst.get(C.ci_target_pct, 0)} %, "
              f"{count(worst, C.samples)} samples, {worst.get(C.wall_s, 0):.2f} s")
    for r in sorted(timed, key=lambda r: -r.get(C.wall_s, 0))[:10]:
        print(f"  slow {r.get(C.wall_s, 0):6.2f} s  {r[R.name].removesuffix('/manual_time')}: {count(r, C.samples)} "
              f"samples, median {r.get(C.t_median_us, 0):.1f} us, ci {r.get(C.ci_pct, float('nan')):.2f} %")
    fams = collections.defaultdict(float)
    for r in timed:
        fams[family(r[R.name])] += r.get(C.wall_s, 0)
    print("  wall by family: " + ", ".join(f"{f} {s:.1f}" for f, s in sorted(fams.items(), key=lambda x: -x[1])[:12]))


if __name__ == "__main__":
    cli.run_main(main)
