#!/usr/bin/env python3
"""tests/ci_host_rows.py LIST GOLDEN RUN.json: the CI gate's list of host-work rows is true.

Every name in LIST (tools/gate/quick_host_rows.txt) is a quick-tier row (GOLDEN, the quick
tier's golden list), and the rows of RUN.json (a committed quick-tier run) labelled
work:host or work:copy are exactly the listed rows that RUN.json has. Exit 1 otherwise.
"""
import json
import sys

from membench import schema as S


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    listed = {l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")}
    golden = {l.strip().removesuffix("/manual_time") for l in open(sys.argv[2]) if l.strip()}
    rows = json.load(open(sys.argv[3]))[S.file.benchmarks]
    names = {r[S.row.name].removesuffix("/manual_time") for r in rows}
    labelled = {r[S.row.name].removesuffix("/manual_time") for r in rows
                if {"host", "copy"} & set(S.label.values(r.get(S.row.label, ""), S.label.work))}
    bad = [f"{n}: not in the quick tier" for n in sorted(listed - golden)]
    bad += [f"{n}: labelled host or copy work but not listed" for n in sorted(labelled - listed)]
    bad += [f"{n}: listed but labelled kernel work" for n in sorted((listed & names) - labelled)]
    for b in bad:
        print(b)
    print(f"{len(listed)} listed, {len(labelled)} labelled host or copy work in {sys.argv[3]}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
