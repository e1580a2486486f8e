#!/usr/bin/env python3
"""reports/fleet/summarize_evaluation.py EVALUATION.md...: the bars of fleet's evaluation, per
stratum, from membench-fleet-evaluate's Markdown (stdout, Markdown):

- healthy GPU verdicts in every synthetic fleet, and how many were called;
- a GPU 5 % slower on all its GPU rows, and one family 10 % slower: found, per fleet size, with
  one, two and a quarter of the GPUs slowed, and its largest distance from the value at 32 GPUs;
- two slowed GPUs of four: fleets that exited 0, per scope and slowdown.

The README quotes its lines (tests/check_quoted.py keeps them the files').
"""
import math
import re
import sys
from pathlib import Path

CELL = re.compile(r"([0-9.]+) % \((\d+)/(\d+); (\d+) healthy called; (\d+) exit 0\)")


def sections(text):
    """{stratum: its synthetic section's lines} of one evaluation."""
    out, name = {}, None
    for line in text.splitlines():
        found = re.match(r"#### (.+) \((\d+) real GPUs\)$", line)
        if found:
            name = found.group(1)
            out[name] = []
        elif name is not None:
            out[name].append(line)
    return out


def tables(lines):
    """{(slowed kind, scope, pct): [cells per size]} and the sizes."""
    kind, sizes, rows = None, [], {}
    for line in lines:
        found = re.match(r"Detection, (.+?) slowed:", line)
        if found:
            kind = found.group(1)
        elif line.startswith("| slowed | by |"):
            sizes = [int(s.split()[0]) for s in line.strip("|").split("|")[2:]]
        elif kind and line.startswith("| ") and " % |" in line and not line.startswith("| slowed"):
            parts = [p.strip() for p in line.strip().strip("|").split("|")]
            if len(parts) < 3 or not parts[1].endswith("%"):
                continue
            cells = [CELL.search(c).groups() for c in parts[2:] if CELL.search(c)]
            # A cell per fleet size; a row of more or fewer cannot be matched to the sizes.
            if len(cells) != len(sizes):
                raise ValueError(f"a row of {len(cells)} cells under a header of {len(sizes)} sizes: {line.strip()}")
            rows[(kind, parts[0], parts[1])] = cells
    return sizes, rows


def fail(message):
    print(f"summarize_evaluation.py: {message}", file=sys.stderr)
    sys.exit(2)


def main(paths):
    if not paths:
        fail("usage: summarize_evaluation.py EVALUATION.md...")
    # Every file read and parsed before a line is printed: never half a table, then an error.
    healthy, details = [], []
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            fail(f"{path}: not UTF-8 text")
        except OSError as e:
            fail(f"{path}: {e.strerror or e}")
        healthy += re.findall(
            r"Healthy GPU verdicts in every synthetic fleet of (.+): (\d+), called (\d+)\.", text)
        for name, lines in sections(text).items():
            try:
                sizes, rows = tables(lines)
            except ValueError as e:
                fail(f"{path}: {name}: {e}")
            details.append((name, sizes, rows))
    print("| stratum | healthy verdicts | called |")
    print("|---|---:|---:|")
    for name, verdicts, called in healthy:
        print(f"| {name} | {verdicts} | {called} |")
    for name, sizes, rows in details:
        print(f"\n{name}: found, by fleet size ({', '.join(map(str, sizes))} GPUs), and the largest distance from 32 GPUs\n")
        print("| slowed | scope | by | " + " | ".join(f"{s}" for s in sizes) + " | from 32 |")
        print("|---|---|---:|" + "---:|" * len(sizes) + "---:|")
        for kind in ("one GPU", "two GPUs", "a quarter of the GPUs"):
            for scope, pct in (("all GPU rows", "5 %"), ("one family", "10 %"), ("all GPU rows", "3 %"),
                               ("one family", "5 %"), ("one row", "20 %")):
                cells = rows.get((kind, scope, pct))
                if not cells:
                    continue
                rates = [float(c[0]) for c in cells]
                at32 = rates[sizes.index(32)] if 32 in sizes else float("nan")
                # Two slowed GPUs of four are half the fleet: no majority, undecided by design.
                # With only the excluded size (or no 32), there is no distance to take: shown as none.
                gaps = [abs(r - at32) for i, r in enumerate(rates) if sizes[i] != 4 or kind != "two GPUs"]
                spread = f"{max(gaps):.1f} points" if gaps and not math.isnan(at32) else "none"
                shown = " | ".join(f"{c[1]}/{c[2]}" for c in cells)
                print(f"| {kind} | {scope} | {pct} | {shown} | {spread} |")
        print(f"\n{name}: two slowed GPUs of four, fleets that exited 0 (of the trials)\n")
        print("| scope | 3 % | 5 % | 10 % | 20 % |")
        print("|---|---:|---:|---:|---:|")
        for scope in ("all GPU rows", "one family", "one row"):
            cells = [rows.get(("two GPUs", scope, p)) for p in ("3 %", "5 %", "10 %", "20 %")]
            if all(cells):
                print(f"| {scope} | " + " | ".join(f"{c[0][4]}" for c in cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
