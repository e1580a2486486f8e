#!/usr/bin/env python3
"""tools/gate/gate_power.py --report BIN --aa BASE NEW [--aa ...] --injected BASE COPY [--injected ...] [-- OPTIONS]

BASE, NEW and COPY are one JSON file or several separated by commas (several runs a side).

How good `membench-report compare` is as a regression gate, on real runs:
  - the false-alarm rate: over A/A pairs (two runs of the same commit and machine), the
    share of benchmark comparisons called slower or faster;
  - the detection rate: over injected copies (tools/gate/inject_slowdown.py: a run with chosen
    rows made slower by a known amount), the share of those rows called slower, by row
    duration (the BASE median: < 5 us, 5-20 us, 20-100 us, 100 us-1 ms, > 1 ms) and slowdown.
Compare options after `--` (for example --threshold 3 or --unsure fail) are passed on.
Unsure verdicts are neither alarms nor detections; their share is printed too.
Exit 2 on unusable input (a --report that cannot be run or whose compare CSV lacks the
benchmark, base us or verdict column, a COPY that is not readable JSON, not written by
inject_slowdown.py or made 0 % slower, copies of one side at different slowdowns, an --aa
file or an --injected BASE file that is an injected copy, a file on both sides of its pair,
a pair given twice (the same files, in the same order), an option given twice, a compare CSV
that is not UTF-8) and where
nothing was compared (a pair whose compare compared no benchmark, or no injected row
compared: no rate to give), on a --misses, --misses-from or --rows-below that is no finite
number in its range (--misses: a slowdown above -100 and at most 10000 %, one of the
copies'), or given without the --injected pairs it applies to; 1 when compare fails on a
pair. Ctrl-C: one line, exit 130; standard output that cannot be written: one line, exit 2.
"""
import argparse
import csv
import io
import math
import os
import subprocess
import sys
from collections import defaultdict

from membench import cli, read_document
from membench import schema as S
from membench.slowdown import INJECTED_PCT, INJECTED_ROWS

# inject_slowdown.py's largest slowdown: --misses names one of its copies' slowdowns.
MAX_SLOWDOWN = 10000.0
BANDS = [("< 5 us", 0, 5), ("5-20 us", 5, 20), ("20-100 us", 20, 100), ("100 us-1 ms", 100, 1000), ("> 1 ms", 1000, float("inf"))]


def fail(message):
    print(f"gate_power: {message}", file=sys.stderr)
    sys.exit(2)


def number_in(lo, hi, what, lo_ok=False):
    """An argparse type: a finite number above `lo` (or equal to it, with lo_ok) and at most
    `hi` (NaN would match nothing and pass no comparison: a listing asked for silently empty)."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not (math.isfinite(value) and (lo < value or lo_ok and value == lo) and value <= hi):
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}")
        return value
    return parse


def band(us):
    for label, lo, hi in BANDS:
        if lo <= us < hi:
            return label
    return BANDS[-1][0]


def files(arg):
    """A side: one file, or several separated by commas (several runs of one commit)."""
    return [f for f in arg.split(",") if f]


def compare(report, base, new, options):
    """{benchmark: (base us, verdict)} from compare's CSV (every benchmark, --all)."""
    sides = [x for f in files(base) for x in ("--base", f)] + [x for f in files(new) for x in ("--new", f)]
    cmd = [report, "compare"] + sides + ["--all", "--format", "csv", "--allow-missing"] + options
    try:
        run = subprocess.run(cmd, capture_output=True)
    except OSError as e:  # missing, not executable, a folder
        fail(f"--report {report}: cannot be run: {e.strerror or e}")
    stderr = run.stderr.decode("utf-8", "replace")  # only said again: a bad byte shown, not fatal
    # compare's exit 2 is its unusable input (a file missing or not a run): gate_power's too.
    if run.returncode == 2:
        said = stderr.strip().splitlines()
        fail(f"compare of {base} against {new}: unusable input: {said[-1] if said else 'exit 2'}")
    if run.returncode not in (0, 1):
        sys.exit(f"gate_power: {' '.join(cmd)} exited {run.returncode}:\n{stderr}")
    # compare writes UTF-8 (the names of JSON files): other bytes are no compare CSV of them.
    try:
        stdout = run.stdout.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(f"--report {report}: its compare CSV of {base} against {new} is not UTF-8 text "
             f"({e.reason} at byte {e.start})")
    rows = {}
    reader = csv.reader(io.StringIO(stdout))
    header = None
    for line in reader:
        if not line or line[0].startswith("#"):
            header = None
            continue
        if header is None:
            header = line
            # Another version's CSV: said, never read as if its columns were these.
            lacking = [c for c in ("benchmark", "base us", "verdict") if c not in header]
            if lacking:
                fail(f"--report {report}: its compare CSV has no {', '.join(repr(c) for c in lacking)} column "
                     f"(columns: {', '.join(header)})")
            continue
        cell = dict(zip(header, line))
        try:
            base_us = float(cell.get("base us", ""))
        except ValueError:
            continue  # unusable: missing or errored
        rows[cell.get("benchmark", "")] = (base_us, cell.get("verdict", ""), cell.get("interval", ""))
    # Zero comparisons are no rate (0 false alarms of 0): a pair compare could not compare.
    if not rows:
        fail(f"{' '.join(cmd)}: compared no benchmark (no CSV row with a base time)")
    return rows


def context_of(path):
    """A file's context as membench.read_document reads it (a key given twice, a FIFO no one
    writes, /dev/zero refused); None where the file is unreadable or has no context object."""
    try:
        doc = read_document(path)
    except (OSError, ValueError):
        return None
    ctx = doc.get(S.file.context) if isinstance(doc, dict) else None
    return ctx if isinstance(ctx, dict) else None


def injected_of(path):
    """(slowdown %, comma-separated rows) that inject_slowdown.py noted in a copy's context."""
    try:
        doc = read_document(path)
    except (OSError, ValueError) as e:  # missing, a folder, not UTF-8, truncated, a key twice
        fail(f"{path}: not readable JSON: {e}")
    ctx = doc.get(S.file.context) if isinstance(doc, dict) else None
    if not isinstance(ctx, dict) or not isinstance(ctx.get(INJECTED_ROWS), str):
        fail(f"{path}: not written by tools/gate/inject_slowdown.py (no {INJECTED_ROWS})")
    try:
        pct = float(ctx.get(INJECTED_PCT))
    except (TypeError, ValueError):
        pct = float("nan")
    if not math.isfinite(pct):
        fail(f"{path}: {INJECTED_PCT} is not a finite percentage: {ctx.get(INJECTED_PCT)!r}")
    # No change to detect: a 'faster' or 'slower' verdict would be counted as finding one.
    if pct == 0:
        fail(f"{path}: a copy made 0 % slower ({INJECTED_PCT} {ctx[INJECTED_PCT]!r}): there is nothing to detect")
    return pct, ctx[INJECTED_ROWS]


def injected_side(copy):
    """(slowdown %, injected row names) of one side's copies: one comparison of pooled runs
    has one slowdown, so copies at different ones are refused, never the last one taken."""
    names, levels = set(), {}
    if not files(copy):
        fail(f"--injected: {copy!r} names no file")
    for f in files(copy):
        level, rows = injected_of(f)
        levels.setdefault(level, f)
        names |= set(filter(None, rows.split(",")))
    if len(levels) > 1:
        fail(f"the copies of one --injected side are at different slowdowns "
             f"({', '.join(f'{f}: {l:g} %' for l, f in levels.items())}): pooled, their rows have no one slowdown")
    return next(iter(levels)), names


def refuse_self_pair(option, pair):
    """Exit 2 where a file of one side of `pair` is a file of its other side: a file against
    itself changes nothing by construction, a false-alarm rate of 0 or a detection rate of 0
    made up."""
    for b in files(pair[0]):
        for n in files(pair[1]):
            if cli.same_file(b, n):
                fail(f"{option} {' '.join(pair)}: {b} and {n} are the same file: compared with itself it "
                     "shows no change by construction")


def refuse_injected(option, pair, paths, why):
    """Exit 2 where one of `paths` is an injected copy (its context says so). A file unreadable
    here is left to compare."""
    for f in paths:
        ctx = context_of(f)
        if ctx is not None and (INJECTED_PCT in ctx or INJECTED_ROWS in ctx):
            fail(f"{option} {' '.join(pair)}: {f} is an injected copy (its context has {INJECTED_PCT} "
                 f"{ctx.get(INJECTED_PCT)!r}): {why}")


def side_files(side):
    """What a side compares: its files as the file system knows them (a link, another spelling
    or a hard link of one file is that file), in no order."""
    def identity(path):
        try:
            st = os.stat(path)
            return (st.st_dev, st.st_ino)
        except OSError:
            return os.path.realpath(path)
    return frozenset(identity(f) for f in files(side))


def refuse_repeated_pairs(option, pairs):
    """Exit 2 where a pair is given twice: compare gives it the same verdicts again, and
    counting them twice doubles the sample with no new run. The pair swapped (NEW BASE, as
    gate_evaluate.sh gives each A/A pair) is another comparison, with BASE's interval."""
    seen = {}
    for k, (base, new) in enumerate(pairs, 1):
        key = (side_files(base), side_files(new))
        if key in seen:
            fail(f"{option} {base} {new} is given twice (pairs {seen[key]} and {k} compare the same files): "
                 "counted twice, its comparisons would double the sample with no new run; give it once")
        seen[key] = k


def refuse_bad_pairs(aa, injected):
    """Exit 2 on a pair that measures nothing: a side against itself; an injected copy in an
    A/A pair (its slowdown counted as false alarms) or as an injected pair's base (both sides
    slowed: the slowdown to detect is not the one the copy notes); a pair given twice."""
    refuse_repeated_pairs("--aa", aa)
    refuse_repeated_pairs("--injected", injected)
    for pair in aa:
        refuse_self_pair("--aa", pair)
        refuse_injected("--aa", pair, [f for side in pair for f in files(side)], "no A/A pair")
    for pair in injected:
        refuse_self_pair("--injected", pair)
        refuse_injected("--injected", pair, files(pair[0]),
                        "the base must be a run as measured, or the slowdown detected is not the one injected")


def kind(verdict):
    if verdict in ("slower", "faster"):
        return verdict
    return "unsure" if verdict.startswith("unsure") else "same"


def parse_args():
    """(args, the compare options after `--`)."""
    argv = sys.argv[1:]
    passed = []
    if "--" in argv:
        passed = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = cli.ArgumentParser(description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--report", required=True, help="the membench-report binary")
    ap.add_argument("--aa", nargs=2, action="append", default=[], metavar=("BASE", "NEW"), help="an A/A pair")
    ap.add_argument("--injected", nargs=2, action="append", default=[], metavar=("BASE", "COPY"),
                    help="a run and an injected copy of another run of the same commit")
    ap.add_argument("--misses", metavar="PCT", type=number_in(-100, MAX_SLOWDOWN, f"a finite slowdown above -100 and at most {MAX_SLOWDOWN:g} %"),
                    help="also list the injected rows of --misses-from us or more that this slowdown (one of the "
                         "--injected copies') did not find, with their verdicts")
    ap.add_argument("--misses-from", metavar="US", type=number_in(0, math.inf, "a finite duration of 0 us or more", lo_ok=True),
                    help="the shortest row --misses lists (default 20)")
    ap.add_argument("--rows-below", metavar="US", type=number_in(0, math.inf, "a finite duration above 0 us"),
                    help="also list each injected row shorter than this, found / injected at each slowdown")
    args = ap.parse_args(argv)
    if not args.aa and not args.injected:
        ap.error("give at least one --aa or --injected pair")
    # Options about injected rows, given without an --injected pair, would be silently ignored.
    for given, name in ((args.misses, "--misses"), (args.rows_below, "--rows-below"), (args.misses_from, "--misses-from")):
        if given is not None and not args.injected:
            ap.error(f"{name} applies to --injected pairs: give at least one")
    if args.misses_from is not None and args.misses is None:
        ap.error("--misses-from applies to --misses: give it too")
    if args.misses_from is None:
        args.misses_from = 20.0
    return args, passed


def false_alarms(args, passed):
    """The A/A section: false alarms by row duration, and the rows flagged."""
    total, alarms, unsure = defaultdict(int), defaultdict(int), defaultdict(int)
    flagged = []
    for pair, (base, new) in enumerate(args.aa, 1):
        for name, (base_us, verdict, interval) in compare(args.report, base, new, passed).items():
            b = band(base_us)
            total[b] += 1
            alarms[b] += kind(verdict) in ("slower", "faster")
            if kind(verdict) in ("slower", "faster"):
                flagged.append((name, pair, base_us, interval, verdict))
            unsure[b] += kind(verdict) == "unsure"
    n, a, u = sum(total.values()), sum(alarms.values()), sum(unsure.values())
    print(f"## False alarms: {len(args.aa)} A/A pair(s), {n} benchmark comparisons\n")
    print("| row duration | compared | slower or faster | false-alarm rate | unsure |")
    print("|---|---:|---:|---:|---:|")
    for label, _, _ in BANDS + [("all", 0, 0)]:
        t = n if label == "all" else total[label]
        x = a if label == "all" else alarms[label]
        y = u if label == "all" else unsure[label]
        if t:
            print(f"| {label} | {t} | {x} | {100 * x / t:.2f} % | {100 * y / t:.1f} % |")
    print()
    if flagged:
        print("Flagged in the A/A pairs:\n")
        print("| benchmark | pair | base us | interval | verdict |")
        print("|---|---:|---:|---|---|")
        for name, pair, base_us, interval, verdict in sorted(flagged):
            print(f"| `{name}` | {pair} | {base_us:.4g} | {interval} | {verdict} |")
        print()


def detections(args, passed, sides):
    """The detection counts over the --injected pairs (`sides`: each copy side's slowdown and
    rows): found and injected by (band, slowdown), the misses --misses lists, the rows
    --rows-below lists."""
    found, injected = defaultdict(int), defaultdict(int)
    missed = defaultdict(list)
    per_row = defaultdict(lambda: [0.0, defaultdict(int), defaultdict(int)])  # base us, found, injected by level
    for (base, copy), (level, names) in zip(args.injected, sides):
        for name, (base_us, verdict, interval) in compare(args.report, base, copy, passed).items():
            if name not in names:
                continue
            key = (band(base_us), level)
            injected[key] += 1
            hit = kind(verdict) == ("slower" if level > 0 else "faster")
            found[key] += hit
            if not hit and args.misses is not None and level == args.misses and base_us >= args.misses_from:
                missed[name].append(f"{interval} {verdict}")
            if args.rows_below is not None and base_us < args.rows_below:
                row = per_row[name]
                row[0] = base_us
                row[1][level] += hit
                row[2][level] += 1
    return found, injected, missed, per_row


def detection_rates(args, passed, sides):
    """The injected section: detection rates by row duration and slowdown, and the listings."""
    found, injected, missed, per_row = detections(args, passed, sides)
    if not sum(injected.values()):
        fail("no injected row was compared: no detection rate to give")
    levels = sorted({level for level, _ in sides})
    print(f"## Detection: {len(args.injected)} injected cop{'y' if len(args.injected) == 1 else 'ies'}\n")
    print("| row duration | " + " | ".join(f"{l:+g} %" for l in levels) + " |")
    print("|---|" + "---:|" * len(levels))
    for label, _, _ in BANDS + [("all", 0, 0)]:
        cells = []
        for level in levels:
            if label == "all":
                i = sum(v for (b, l), v in injected.items() if l == level)
                f = sum(v for (b, l), v in found.items() if l == level)
            else:
                i, f = injected[(label, level)], found[(label, level)]
            cells.append(f"{f}/{i} ({100 * f / i:.0f} %)" if i else "-")
        print(f"| {label} | " + " | ".join(cells) + " |")
    if per_row:
        print(f"\n## Rows under {args.rows_below:g} us, found / injected\n")
        print("| benchmark | base us | " + " | ".join(f"{l:+g} %" for l in levels) + " |")
        print("|---|---:|" + "---:|" * len(levels))
        for name, (us, hits, n) in sorted(per_row.items(), key=lambda x: (x[1][0], x[0])):
            print(f"| `{name}` | {us:.3g} | " + " | ".join(f"{hits[l]}/{n[l]}" for l in levels) + " |")
    if missed:
        print(f"\n## Missed at {args.misses:+g} %, rows of {args.misses_from:g} us or more: {sum(len(v) for v in missed.values())}\n")
        print("| benchmark | missed | intervals and verdicts |")
        print("|---|---:|---|")
        for name, why in sorted(missed.items(), key=lambda x: (-len(x[1]), x[0])):
            print(f"| `{name}` | {len(why)} | {'<br>'.join(why)} |")


def main():
    args, passed = parse_args()
    # Every input is checked before the first compare: a refusal never follows half a report.
    refuse_bad_pairs(args.aa, args.injected)
    sides = [injected_side(copy) for _, copy in args.injected]
    levels = {level for level, _ in sides}
    if args.misses is not None and args.misses not in levels:
        fail(f"--misses {args.misses:g}: no --injected copy is at that slowdown "
             f"(they are at {', '.join(f'{l:g}' for l in sorted(levels))} %)")
    if args.aa:
        false_alarms(args, passed)
    if args.injected:
        detection_rates(args, passed, sides)


if __name__ == "__main__":
    cli.run_main(main)
