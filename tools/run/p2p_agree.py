#!/usr/bin/env python3
"""tools/run/p2p_agree.py MEMBENCH_JSON CHECK_CSV: do membench's peer rows agree with the
independent check (membench_p2p_check, tools/run/p2p_check.cu)?

Joins membench's peer rows with the check's lines on (case, src, dst, bytes), the size in
bytes however it is spelt (membench's 1536K is the check's 1572864):
  peer/copy/access:A/dir:D     -> D_A (push_on, pull_off, bidir_on, ...), GB/s
  peer/sm/op:O/dir:D           -> O_D (read_uni, write_bidir, ...), GB/s
  peer/latency                 -> latency, ns per load
  peer/all_to_one/dst:J        -> all_to_one with src -1, GB/s
  peer/one_to_all/src:I        -> one_to_all with dst -1, GB/s
and prints a table: both values and membench's difference in % of the check. Exits 1 when a
joined case differs by more than --tolerance % (default 5), when a case the check measured
failed in membench (an error row other than `skipped: why`), or when no case could be joined;
a check value of 0 or below (no difference in % of it) cannot agree and counts as differing;
other cases only one side has (a row membench skipped) are listed, not counted. Exits 2 on
unreadable input (a value that is NaN, infinite, text or beyond a double's range, a key
given twice in one JSON object, a case given twice in either file, a CSV line with fewer or
more fields than its header, an input that is no regular file or pipe with a writer) or a
--tolerance that is no finite percentage of 0 or more, an option given twice, or one file given
as both inputs (no independent check). Ctrl-C: exit 130, one line.
"""
import argparse
import csv
import io
import math
import sys

import membench
from membench import cli, parse_size
from membench import schema as S

C, R, N = S.counter, S.row, S.name_key


def name_keys(name):
    """{'access': 'on', 'dir': 'push', ...} of `peer/copy/key:value/.../manual_time`."""
    return dict(part.split(":", 1) for part in name.split("/")[2:] if ":" in part)


def case_of(family, k):
    """(case, src, dst, counter) of a membench peer row's name keys, or None."""
    if family == "copy":
        return f"{k.get(N.dir)}_{k.get(N.access)}", int(k[N.src]), int(k[N.dst]), C.gb_per_s
    if family == "sm":
        return f"{k.get(N.op)}_{k.get(N.dir)}", int(k[N.src]), int(k[N.dst]), C.gb_per_s
    if family == "latency":
        return "latency", int(k[N.src]), int(k[N.dst]), C.ns_per_load
    if family == "all_to_one":
        return "all_to_one", -1, int(k[N.dst]), C.gb_per_s
    if family == "one_to_all":
        return "one_to_all", int(k[N.src]), -1, C.gb_per_s
    return None


def membench_cases(path):
    """{(case, src, dst, bytes): value or an error text} from membench's peer rows, read by
    membench.load (a key given twice, NaN, a FIFO, /dev/zero refused). Raises OSError,
    ValueError (not a results file) or KeyError (a name without a key its case needs)."""
    out = {}
    for i, row in enumerate(membench.load(path)):
        name = row.run_name
        if not name.startswith("peer/") or row.run_type != "iteration":
            continue
        k = name_keys(name)
        found = case_of(name.split("/")[1], k)
        if found is None:
            continue
        case, src, dst, counter = found
        key = (case, src, dst, size_bytes(k[N.bytes], f"{path}: {name}"))
        # One value a case, as in the check's CSV: a second row would silently replace the first.
        if key in out:
            raise ValueError(f"{path}: benchmark {i} ({name}): {case} {src} -> {dst} {size_text(key[3])} "
                             "is given twice")
        if row.error is not None:
            out[key] = row.error or "error"
        else:
            out[key] = membench_value(row, counter, f"{path}: {name}")
    return out


def membench_value(row, counter, where):
    """A row's counter as a float; ValueError naming `where` where it is absent or no finite number."""
    try:
        value = membench.number(row.json, counter)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    if value is None:
        raise ValueError(f"{where}: {counter} is not a number")
    return value


def size_bytes(text, where):
    """A size as membench's names ('1536K') or the check ('1572864', a size no whole MiB) write
    it, in bytes: the join's key, so that both spellings of one size meet. ValueError naming `where`."""
    try:
        return parse_size(text)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def size_text(n):
    """Bytes as membench's names write them: 1572864 -> '1536K', 67108864 -> '64M'."""
    for suffix, shift in (("T", 40), ("G", 30), ("M", 20), ("K", 10)):
        if n and n % (1 << shift) == 0:
            return f"{n >> shift}{suffix}"
    return str(n)


def check_cases(path):
    """{(case, src, dst, bytes): value} from the check's CSV, read as membench.read_input
    reads a file (a FIFO that no one writes, /dev/zero refused). Raises OSError, ValueError,
    KeyError (a column missing) or csv.Error."""
    try:
        text = membench.read_input(path).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8: {e}") from None
    out = {}
    reader = csv.DictReader(io.StringIO(text, newline=""))
    # Said as the file's fault, not as the bare KeyError text of the first column looked up.
    missing = [c for c in ("case", "src", "dst", "bytes") if c not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(f"{path}: no CSV of the check: its header lacks the column(s) {', '.join(missing)}")
    for line, row in enumerate(reader, 2):
        # A short line leaves its last columns None: as unusable as a missing column.
        if any(v is None for v in row.values()):
            raise ValueError(f"{path}:{line}: fewer columns than its header")
        # A long line's extra fields (DictReader's None key) leave which one is the value unknown.
        if None in row:
            raise ValueError(f"{path}:{line}: more fields than its header's {len(row) - 1} columns")
        size = size_bytes(row["bytes"], f"{path}:{line}")
        key = (row["case"], int(row["src"]), int(row["dst"]), size)
        # One value a case: a second would silently replace the first, and with it a difference.
        if key in out:
            raise ValueError(f"{path}:{line}: {row['case']} {row['src']} -> {row['dst']} {row['bytes']} is given twice")
        # gb_per_s: the column before the check had other units
        out[key] = float(row.get("value") or row["gb_per_s"])
    return out


def tolerance(text):
    """--tolerance: a finite percentage, 0 or more (every comparison with NaN is false, so a NaN
    tolerance would call perfect agreement a difference; inf would call none)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is no finite percentage of 0 or more")
    return value


def compared(key, m, c, tol):
    """(the table's line, whether the two differ) of a case both sides measured."""
    case, src, dst, size = key
    # A check value of 0 or below has no difference in % of it: the case cannot agree.
    if c > 0 and math.isfinite(c):
        diff = 100.0 * (m - c) / c
        flag, shown = "" if abs(diff) <= tol else "  <-- differs", f"{diff:+7.1f}"
    else:
        flag, shown = f"  <-- check value {c:g}: cannot agree", f"{'':>7}"
    return f"{case:11} {src:>3} {dst:>3} {size_text(size):>5} {m:10.1f} {c:10.1f} {shown}{flag}", bool(flag)


def one_sided(key, m, c):
    """(the table's line, whether it fails) of a case one side has no value of. A row membench
    skipped (`skipped: why`, no failure) beside a check value is listed; one that failed
    beside a check value fails: the check ran the case, membench could not."""
    case, src, dst, size = key
    left = "absent" if m is None else (f"{m:.1f}" if isinstance(m, float) else "error")
    right = "absent" if c is None else f"{c:.1f}"
    failed = isinstance(m, str) and c is not None and not m.startswith("skipped:")
    note = ""
    if isinstance(m, str):
        note = f"  <-- membench failed: ({m})" if failed else f"  ({m})"
    return f"{case:11} {src:>3} {dst:>3} {size_text(size):>5} {left:>10} {right:>10} {'':>7}{note}", failed


def main():
    ap = cli.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("membench_json")
    ap.add_argument("check_csv")
    ap.add_argument("--tolerance", type=tolerance, default=5.0, help="largest difference allowed, %% (default 5)")
    a = ap.parse_args()
    # membench's own output as the check would agree with itself: no independent check at all.
    if cli.same_file(a.membench_json, a.check_csv):
        print(f"p2p_agree: {a.check_csv} is {a.membench_json} itself: CHECK_CSV must be the independent "
              "check's CSV, not membench's JSON", file=sys.stderr)
        return 2
    try:
        mine, theirs = membench_cases(a.membench_json), check_cases(a.check_csv)
    except (OSError, ValueError, KeyError, csv.Error) as e:
        print(f"p2p_agree: cannot read the inputs: {e}", file=sys.stderr)
        return 2
    print(f"{'case':11} {'src':>3} {'dst':>3} {'bytes':>5} {'membench':>10} {'check':>10} {'diff %':>7}")
    joined, bad, failed = 0, 0, 0
    for key in sorted(set(mine) | set(theirs), key=lambda k: (k[0], k[3], k[1], k[2])):
        m, c = mine.get(key), theirs.get(key)
        if isinstance(m, float) and c is not None:
            joined += 1
            line, differs = compared(key, m, c, a.tolerance)
            bad += differs
        else:
            line, differs = one_sided(key, m, c)
            failed += differs
        print(line)
    print(f"{joined} case(s) compared, {bad} differ by more than {a.tolerance:g} %")
    if failed:
        print(f"{failed} case(s) the check measured failed in membench: they do not agree")
    return 1 if bad or failed or joined == 0 else 0


if __name__ == "__main__":
    cli.run_main(main)
