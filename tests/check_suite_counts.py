#!/usr/bin/env python3
"""tests/check_suite_counts.py [--write]: the row counts per suite that README.md and
docs/guide.md quote are the golden lists' (tests/data/benchmark_list*.txt).

Without --write: exit 1 with a line per count that differs. With --write (the golden_lists
target runs it after rewriting the lists): the counts are rewritten in place, so that a new
family changes no document by hand. Exit 2 on a bad option or a file that cannot be read
(missing, not UTF-8), said; Ctrl-C: one line, exit 130.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
from membench import cli

PROG = "check_suite_counts.py"


def read(path):
    """The UTF-8 text of ROOT/`path`; exit 2 naming it where it cannot be read."""
    try:
        return ROOT.joinpath(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"{PROG}: {path}: cannot be read: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        sys.exit(2)
LISTS = {"check": "benchmark_list_check.txt", "quick": "benchmark_list_quick.txt",
         "default": "benchmark_list_default.txt", "full": "benchmark_list.txt"}


def counts():
    """Per suite: its rows (two GPUs, as the lists name them) and those of one GPU (no peer rows)."""
    out = {}
    for suite, name in LISTS.items():
        rows = [l for l in read(f"tests/data/{name}").splitlines() if l.strip()]
        out[suite] = (len(rows), sum(1 for l in rows if not l.startswith("peer/")))
    return out


def quotes(n):
    """(file, pattern, the text it must read, what it is): each place a count is quoted."""
    out = [("README.md", r"`--suite=check` \(\d+ rows", f"`--suite=check` ({n['check'][0]} rows", "check")]
    for suite in ("quick", "default", "full"):
        out.append(("README.md", rf"`{suite}` \(\d+ rows", f"`{suite}` ({n[suite][0]} rows", suite))
        out.append(("docs/guide.md", rf"\| `{suite}` \| \d+ \|", f"| `{suite}` | {n[suite][0]} |", suite))
    one = ", ".join(str(n[s][1]) for s in ("quick", "default", "full"))
    out.append(("docs/guide.md", r"one GPU has no peer rows \(\d+, \d+, \d+\)", f"one GPU has no peer rows ({one})",
                "quick, default and full on one GPU"))
    return out


def main(write):
    texts = {}
    bad = 0
    for path, pattern, want, what in quotes(counts()):
        text = texts.setdefault(path, read(path))
        found = re.findall(pattern, text)
        if len(found) != 1:
            print(f"{path}: the {what} count is quoted {len(found)} times (once expected: /{pattern}/)")
            bad += 1
        elif found[0] != want:
            if write:
                texts[path] = text.replace(found[0], want)
            else:
                print(f"{path}: '{found[0]}' should read '{want}' (tests/data/benchmark_list*.txt)")
                bad += 1
    if write and not bad:
        for path, text in texts.items():
            if read(path) != text:
                ROOT.joinpath(path).write_text(text, encoding="utf-8")
                print(f"check_suite_counts.py: {path}: counts rewritten")
    return 1 if bad else 0


def parse_args():
    ap = cli.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite the counts in place")
    return ap.parse_args()


if __name__ == "__main__":
    cli.run_main(lambda: main(parse_args().write), PROG)
