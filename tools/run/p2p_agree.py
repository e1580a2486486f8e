#!/usr/bin/env python3
"""tools/run/p2p_agree.py MEMBENCH_JSON CHECK_CSV: do membench's peer rows agree with the
independent check (membench_p2p_check, tools/run/p2p_check.cu)?

Joins membench's peer rows with the check's lines on (case, src, dst, bytes):
  peer/copy/access:A/dir:D     -> D_A (push_on, pull_off, bidir_on, ...), GB/s
  peer/sm/op:O/dir:D           -> O_D (read_uni, write_bidir, ...), GB/s
  peer/latency                 -> latency, ns per load
  peer/all_to_one/dst:J        -> all_to_one with src -1, GB/s
  peer/one_to_all/src:I        -> one_to_all with dst -1, GB/s
and prints a table: both values and membench's difference in % of the check. Exits 1 when a
joined case differs by more than --tolerance % (default 5) or when no case could be joined;
cases only one side has are listed, not counted. Exits 2 on unreadable input.
"""
import argparse
import csv
import json
import sys
from pathlib import Path

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
    """{(case, src, dst, bytes): value or an error text} from membench's peer rows."""
    doc = json.loads(Path(path).read_text())
    out = {}
    for r in doc[S.file.benchmarks]:
        name = r.get(R.run_name, r.get(R.name, ""))
        if not name.startswith("peer/") or r.get(R.run_type, "iteration") != "iteration":
            continue
        k = name_keys(name)
        found = case_of(name.split("/")[1], k)
        if found is None:
            continue
        case, src, dst, counter = found
        key = (case, src, dst, k[N.bytes])
        out[key] = r.get(R.error_message, "error") if r.get(R.error_occurred) else float(r[counter])
    return out


def size_bytes(text):
    """'64M' -> 67108864 (the suffixes of membench's names), for sorting."""
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    return int(text.rstrip("KMG") or 0) * scale


def check_cases(path):
    with open(path, newline="") as f:
        return {(row["case"], int(row["src"]), int(row["dst"]), row["bytes"]): float(row.get("value") or row["gb_per_s"])
                for row in csv.DictReader(f)}  # gb_per_s: the column before the check had other units


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("membench_json")
    ap.add_argument("check_csv")
    ap.add_argument("--tolerance", type=float, default=5.0, help="largest difference allowed, %% (default 5)")
    a = ap.parse_args()
    try:
        mine, theirs = membench_cases(a.membench_json), check_cases(a.check_csv)
    except (OSError, ValueError, KeyError) as e:
        print(f"p2p_agree: cannot read the inputs: {e}", file=sys.stderr)
        return 2
    print(f"{'case':11} {'src':>3} {'dst':>3} {'bytes':>5} {'membench':>10} {'check':>10} {'diff %':>7}")
    joined, bad = 0, []
    for key in sorted(set(mine) | set(theirs), key=lambda k: (k[0], size_bytes(k[3]), k[1], k[2])):
        m, c = mine.get(key), theirs.get(key)
        case, src, dst, size = key
        if isinstance(m, float) and c is not None:
            diff = 100.0 * (m - c) / c
            joined += 1
            flag = "" if abs(diff) <= a.tolerance else "  <-- differs"
            if flag:
                bad.append(key)
            print(f"{case:11} {src:>3} {dst:>3} {size:>5} {m:10.1f} {c:10.1f} {diff:+7.1f}{flag}")
        else:
            left = "absent" if m is None else (f"{m:.1f}" if isinstance(m, float) else "error")
            right = "absent" if c is None else f"{c:.1f}"
            note = f"  ({m})" if isinstance(m, str) else ""
            print(f"{case:11} {src:>3} {dst:>3} {size:>5} {left:>10} {right:>10} {'':>7}{note}")
    print(f"{joined} case(s) compared, {len(bad)} differ by more than {a.tolerance:g} %")
    return 1 if bad or joined == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
