#!/usr/bin/env python3
"""tools/gate/inject_slowdown.py IN.json OUT.json --slowdown PCT [--filter REGEX] [--every N [--phase K]]

Writes a copy of a membench (or any Google Benchmark) JSON file in which chosen rows are
PCT % slower, to measure what `membench-report compare` detects (tools/gate/gate_power.py).
PCT is a finite number above -100 (a time stays positive) and at most 10000; any other is
refused with exit 2, and a file that would hold NaN or Infinity (which JSON cannot spell)
is never written (exit 1). An input that cannot be read as a results file (not JSON, a key
given twice in one object, not a regular file or a pipe with a writer, a top level, row or
context that is no object, a sample, time or rate to scale that is no number, an
error_occurred that is no boolean, a number beyond a double's range) is refused with exit 1,
nothing written. OUT.json is written to a temporary
file beside it and renamed over it once whole, so a write that fails (a full disk) leaves an
earlier OUT.json as it was (exit 1); an OUT.json that is not a regular file (a FIFO, a folder)
is refused, exit 1, never opened; an OUT.json that is IN.json by another name (a symbolic
link, '..', a hard link) is refused, exit 2, IN.json kept. An option given twice is refused,
exit 2; Ctrl-C says `interrupted`, exit 130, an earlier OUT.json kept. A --filter that finds no row that could be changed is
refused, exit 2, nothing written (the copy would be noted as an injection that changed nothing).

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
import copy
import json
import os
import re
import stat
import sys
import tempfile

from membench import cli, read_document
from membench.slowdown import inject


# Beyond a hundred and one times the time there is no gate question to ask, and every scaled
# number stays far inside a double's range.
MAX_SLOWDOWN = 10000.0


def slowdown_pct(text):
    """--slowdown's value: a finite percentage above -100 and at most MAX_SLOWDOWN."""
    try:
        pct = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if pct != pct or pct in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
    if not -100 < pct <= MAX_SLOWDOWN:
        raise argparse.ArgumentTypeError(f"{text} is out of range: above -100 (a time stays positive) and at most "
                                         f"{MAX_SLOWDOWN:g}")
    return pct


def row_filter(text):
    """--filter's value: a regular expression Python compiles."""
    try:
        re.compile(text)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"'{text}' is not a valid regular expression ({e})") from None
    return text


def write_whole(path, text):
    """`text` into `path` whole or not at all: written to a temporary file in the same folder
    and renamed over `path`. A path that is there but no regular file (a FIFO, whose open()
    waits for a reader, or a folder) raises OSError, untouched; a symbolic link is written
    through, as open() does."""
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError("not a regular file; left as it is")
    if st is not None:
        mode = stat.S_IMODE(st.st_mode)
    else:  # as open() would make it
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def finds_nothing(doc, args):
    """Whether --filter finds no row inject() could change, --every and --phase aside: with
    them, a copy may rightly change none (N copies change each row once), with the filter alone
    never. Asked of a copy where needed: inject() changes what it chooses."""
    return args.every == 1 or not inject(copy.deepcopy(doc), args.slowdown, args.filter)


def main():
    ap = cli.ArgumentParser(description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--slowdown", type=slowdown_pct, required=True,
                    help=f"percent slower (negative: faster), above -100 and at most {MAX_SLOWDOWN:g}")
    ap.add_argument("--filter", type=row_filter, default="", help="regular expression searched in row names")
    ap.add_argument("--every", type=int, default=1, help="change every N-th matching row")
    ap.add_argument("--phase", type=int, default=0, help="the first matching row changed (0 to N - 1)")
    args = ap.parse_args()
    if args.every < 1:
        ap.error("--every must be at least 1")
    if not 0 <= args.phase < args.every:
        ap.error("--phase must be between 0 and --every - 1")
    # Before anything is read: OUT.json written over IN.json would replace the measured run
    # with its slowed copy.
    cli.refuse_output_is_input("inject_slowdown", args.output, [args.input])
    try:  # read as membench.load reads it: a key given twice, a FIFO, /dev/zero refused
        doc = read_document(args.input)
    except (OSError, ValueError) as e:  # missing, a folder, not UTF-8, not JSON
        sys.exit(f"{args.input}: cannot be read as JSON: {e}; {args.output} not written")
    try:
        chosen = inject(doc, args.slowdown, args.filter, args.every, args.phase)
        if not chosen and finds_nothing(doc, args):
            print(f"{args.input}: --filter {args.filter!r} finds no timed row: nothing would be made slower; "
                  f"{args.output} not written", file=sys.stderr)
            sys.exit(2)
    except ValueError as e:
        sys.exit(f"{args.input}: {e}; {args.output} not written")
    try:
        text = json.dumps(doc, indent=2, allow_nan=False)
    except ValueError as e:  # a NaN or Infinity, read from the input: json.load takes them
        sys.exit(f"{args.input}: {e}: JSON has no NaN or Infinity; {args.output} not written")
    try:
        write_whole(args.output, text)
    except OSError as e:
        sys.exit(f"{args.output}: cannot be written: {e}")
    print(f"{args.output}: {len(chosen)} benchmark(s) {args.slowdown:+g} %", file=sys.stderr)


if __name__ == "__main__":
    cli.run_main(main)
