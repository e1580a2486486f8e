#!/usr/bin/env python3
"""check_quoted.py README...: every block a README quotes from a committed file is still in it.

A block starts with `<!-- quoted from PATH -->` (PATH relative to the README) and ends with
`<!-- /quoted -->`; each non-empty line between them must be a line of PATH, word for word.
So a README's numbers are the committed evaluation's, not typed by hand. Exit 0 when every
block holds; 1 naming each line that is not in its file; 2 when a file is missing or a block
is not closed.
"""
import re
import sys
from pathlib import Path

START = re.compile(r"<!-- quoted from (\S+) -->")
END = "<!-- /quoted -->"


def blocks(text):
    """(path, [lines]) for each quoted block; raises ValueError for a block not closed."""
    out, current, lines = [], None, []
    for line in text.splitlines():
        found = START.search(line)
        if found:
            if current is not None:
                raise ValueError(f"a block quoted from {current} is not closed")
            current, lines = found.group(1), []
        elif line.strip() == END and current is not None:
            out.append((current, lines))
            current = None
        elif current is not None and line.strip():
            lines.append(line.rstrip())
    if current is not None:
        raise ValueError(f"a block quoted from {current} is not closed")
    return out


def main(readmes):
    bad = 0
    for readme in map(Path, readmes):
        try:
            quoted = blocks(readme.read_text())
        except (OSError, ValueError) as error:
            print(f"check_quoted: {readme}: {error}", file=sys.stderr)
            return 2
        for path, lines in quoted:
            source = readme.parent / path
            if not source.is_file():
                print(f"check_quoted: {readme}: quotes {path}, which is not there", file=sys.stderr)
                return 2
            have = {line.rstrip() for line in source.read_text().splitlines()}
            for line in lines:
                if line not in have:
                    print(f"check_quoted: {readme}: not in {path}: {line}", file=sys.stderr)
                    bad += 1
        print(f"check_quoted: {readme}: {len(quoted)} block(s), {sum(len(l) for _, l in quoted)} line(s) checked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
