#!/usr/bin/env python3
"""The README's row counts per suite are the golden lists' (tests/data/benchmark_list*.txt)."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
lists = {"check": "benchmark_list_check.txt", "quick": "benchmark_list_quick.txt",
         "default": "benchmark_list_default.txt", "full": "benchmark_list.txt"}
readme = root.joinpath("README.md").read_text()
bad = 0
for suite, name in lists.items():
    rows = sum(1 for line in root.joinpath("tests/data", name).read_text().splitlines() if line.strip())
    said = re.search(r"`(?:--suite=)?%s` \((\d+) rows" % suite, readme)
    if said is None or int(said.group(1)) != rows:
        print(f"README.md: the {suite} suite has {rows} rows (tests/data/{name}); README says "
              f"{said.group(1) if said else 'nothing'}")
        bad += 1
sys.exit(1 if bad else 0)
