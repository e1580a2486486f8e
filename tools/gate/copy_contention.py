#!/usr/bin/env python3
"""tools/gate/copy_contention.py --gpu UUID [--filter REGEX] NAME=SET...

How much of a row's run-to-run spread one GPU's neighbours cause: for each NAME=SET (a folder
or a .tar.xz archive of runs, as run_sets.py reads them; for example the GPU alone and
the GPU beside the others of its host), the GPU's runs of every row the filter keeps (default
the copy and host rows, ^(host|alloc)/): how many, the median of their medians (real_time)
and its run-to-run coefficient of variation, and the same for their fastest samples
(t_min_us), the figure fleet judges copies on, all in us (a run's time_unit converted).
Prints a Markdown table. Exit 2 on a set that cannot be read as membench.load reads a file
(a time that is text, NaN or beyond a double's range, a key given twice, a FIFO no one
writes; and a time_unit none of ns, us, ms, s) or that holds no run of the GPU, on a --gpu
that is the first characters of several GPUs' UUIDs (their runs would be pooled as one
GPU's), on a label given twice (one set would hide the other), on one set under two labels
(one measurement shown as two conditions) and on an option given twice. Ctrl-C: exit 130;
a reader that has gone (`| head`): exit 141, quietly.
"""
import argparse
import re
import shutil
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import membench
from membench import cli
from membench import schema as S

import run_sets  # tools/gate/run_sets.py, beside this script
from run_sets import bare, folders_of


def fail(message):
    print(f"copy_contention: {message}", file=sys.stderr)
    sys.exit(2)


# folders_of reports an unreadable set through run_sets.fail: say it as this script.
run_sets.fail = fail


def runs_of(folder, gpu, keep):
    """{row: [(median us, fastest us), ...]}: one pair per file of the GPU below FOLDER; and
    the gpu_uuids the GPU's files give (more than one: --gpu is the prefix of several GPUs)."""
    rows, uuids = defaultdict(list), set()
    for path in sorted(folder.rglob("*.json")):
        try:  # as membench.load reads it: a key given twice, a time as text, a FIFO refused
            run = membench.load(path)
        except (OSError, ValueError) as error:
            fail(f"not a readable results file: {error}")  # the error names the path
        uuid = run.context.get("gpu_uuid", "")
        if not isinstance(uuid, str) or not uuid.startswith(gpu):
            continue
        uuids.add(uuid)
        for i, row in enumerate(run):
            name = bare(row.name)
            if row.run_type == "iteration" and row.error is None and keep.search(name):
                pair = timed_pair(row, f"{path}: benchmark {i} ({name})")
                if pair is not None:
                    rows[name].append(pair)
    return rows, uuids


def timed_pair(row, where):
    """(median us, fastest us or None) of a timed row, None for a row without a time above 0;
    exit 2 naming `where` for a time_unit this cannot convert or a t_min_us that is no number."""
    if row.time is None or row.time <= 0:
        return None
    # The table is in us: a run written in ms pooled as if in us would be a thousand times off.
    if row.time_us is None:
        fail(f"{where}: {S.row.time_unit} {row.time_unit!r} is no unit this converts (ns, us, ms, s)")
    try:
        fastest = membench.number(row.json, S.counter.t_min_us)
    except ValueError as error:
        fail(f"{where}: {error}")
    return row.time_us, fastest


def cv(values):
    """The coefficient of variation in per cent, NaN for fewer than two values."""
    return 100 * statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else float("nan")


def cell(text):
    """`text` as one Markdown table cell: a pipe would split it into two columns and a line
    break end the row."""
    return " ".join(text.splitlines()).replace("|", "\\|")


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
            lines.append(f"| {cell(name)} | {cell(label)} | {len(pairs)} | {statistics.median(medians):.4g} | {cv(medians):.2f} % | {fast} |")
    return lines


def main():
    ap = cli.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
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
    # One folder under two labels would show one measurement as two conditions.
    cli.refuse_same_input("copy_contention", "NAME=SET", members)
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
    cli.run_main(main)
