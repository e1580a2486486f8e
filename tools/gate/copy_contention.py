#!/usr/bin/env python3
"""tools/gate/copy_contention.py --gpu UUID [--filter REGEX] NAME=SET...

How much of a row's run-to-run spread one GPU's neighbours cause: for each NAME=SET (a folder
or a .tar.xz archive of runs, as run_sets.py reads them; for example the GPU alone and
the GPU beside the others of its host), the GPU's runs of every row the filter keeps (default
the copy and host rows, ^(host|alloc)/): how many, the median of their medians (real_time)
and its run-to-run coefficient of variation, and the same for their fastest samples
(t_min_us), the figure fleet judges copies on. Prints a Markdown table. Exit 2 on a set that
cannot be read (a time beyond a double's range included) or holds no run of the GPU, on a
--gpu that is the first characters of several GPUs' UUIDs (their runs would be pooled as one
GPU's), and on a label given twice (one set would hide the other).
"""
import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from membench import schema as S

import run_sets  # tools/gate/run_sets.py, beside this script
from run_sets import bare, folders_of


def fail(message):
    print(f"copy_contention: {message}", file=sys.stderr)
    sys.exit(2)


# folders_of reports an unreadable set through run_sets.fail: say it as this script.
run_sets.fail = fail


def runs_of(folder, gpu, keep):
    """{row: [(median, fastest), ...]}: one pair per file of the GPU below FOLDER; and the
    gpu_uuids the GPU's files give (more than one: --gpu is the prefix of several GPUs)."""
    rows, uuids = defaultdict(list), set()
    for path in sorted(folder.rglob("*.json")):
        try:
            doc = json.loads(path.read_text())
        except RecursionError:  # nested deeper than Python's parser goes: no results file
            fail(f"{path}: not readable JSON (nested too deeply)")
        except (OSError, ValueError) as error:
            fail(f"{path}: not readable JSON ({error})")
        # Every shape this reads is checked: a file of another shape is unreadable, not a crash.
        context = doc.get(S.file.context, {}) if isinstance(doc, dict) else None
        if not isinstance(context, dict) or not isinstance(doc.get(S.file.benchmarks, []), list):
            fail(f"{path}: not a membench results file (an object with a context object and a benchmarks array)")
        uuid = context.get("gpu_uuid", "")
        if not isinstance(uuid, str) or not uuid.startswith(gpu):
            continue
        uuids.add(uuid)
        for i, row in enumerate(doc.get(S.file.benchmarks, [])):
            if not isinstance(row, dict) or not isinstance(row.get(S.row.name, ""), str):
                fail(f"{path}: benchmark {i} is not an object with a string name")
            name = bare(row.get(S.row.name, ""))
            usable = row.get(S.row.run_type) == "iteration" and not row.get(S.row.error_occurred)
            if usable and keep.search(name) and number(row.get(S.row.real_time)) > 0:
                fastest = row.get(S.counter.t_min_us)
                # JSON spells integers of any length; one a double cannot hold is no time.
                for key, value in ((S.row.real_time, row[S.row.real_time]), (S.counter.t_min_us, fastest)):
                    if not in_range(value):
                        fail(f"{path}: benchmark {i} ({name}): {key} is a number beyond a double's range")
                rows[name].append((row[S.row.real_time], fastest if number(fastest) else None))
    return rows, uuids


def number(value):
    """A JSON number as it is, anything else (a string, null, true) 0."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def in_range(value):
    """Not a number a double cannot hold (an integer of hundreds of digits overflows float())."""
    try:
        float(number(value))
    except OverflowError:
        return False
    return True


def cv(values):
    """The coefficient of variation in per cent, NaN for fewer than two values."""
    return 100 * statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else float("nan")


def table(sets):
    """Markdown: a line per row and set."""
    lines = ["| row | set | runs | median us | run-to-run cv | fastest us | run-to-run cv |", "|---|---|---:|---:|---:|---:|---:|"]
    names = sorted({name for rows in sets.values() for name in rows})
    for name in names:
        for label, rows in sets.items():
            pairs = rows.get(name, [])
            if not pairs:
                continue
            medians = [m for m, _ in pairs]
            fastest = [f for _, f in pairs if f is not None and f > 0]
            fast = f"{statistics.median(fastest):.4g} | {cv(fastest):.2f} %" if fastest else "- | -"
            lines.append(f"| {name} | {label} | {len(pairs)} | {statistics.median(medians):.4g} | {cv(medians):.2f} % | {fast} |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpu", required=True, help="the GPU's gpu_uuid, or its first characters")
    ap.add_argument("--filter", default=r"^(host|alloc)/", help="the rows to show (a regular expression)")
    ap.add_argument("sets", nargs="+", metavar="NAME=SET", help="a label and a folder or .tar.xz of runs")
    args = ap.parse_args()
    try:
        keep = re.compile(args.filter)
    except re.error as error:
        fail(f"--filter: {error}")
    labels, members = [], []
    for given in args.sets:
        label, sep, member = given.partition("=")
        if not sep or not label or not member:
            fail(f"{given}: not NAME=SET")
        if label in labels:  # the table keys its sets by label: the second would hide the first
            fail(f"{given}: the label {label} is given twice")
        labels.append(label)
        members.append(member)
    work = Path(tempfile.mkdtemp(prefix="copy_contention_"))
    try:
        folders = folders_of(members, work)
        sets, uuids = {}, set()
        for label, member in zip(labels, members):
            sets[label], found = runs_of(folders[member], args.gpu, keep)
            uuids |= found
            if not sets[label]:
                fail(f"{member}: no run of {args.gpu} with a row the filter keeps")
        # Several GPUs' runs pooled as one GPU's would make the spread between GPUs look
        # like run-to-run spread.
        if len(uuids) > 1:
            fail(f"--gpu {args.gpu!r} is ambiguous: the first characters of {len(uuids)} GPUs "
                 f"({', '.join(sorted(uuids))}); give more of the UUID")
        print("\n".join(table(sets)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
