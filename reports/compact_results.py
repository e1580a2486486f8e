#!/usr/bin/env python3
"""Rewrites result files with one benchmark row a line: the whitespace membench's pretty
printer puts between tokens (every kept sample on a line of its own) is most of a gate
set's size. Every token stays byte for byte as membench wrote it (a JSON round trip would
reprint its 17-digit numbers); the script checks that the file parses to the same data.

  python3 reports/compact_results.py FILE...
"""
import json
import sys


def compact(text):
    out, depth, in_string, escaped = [], 0, False, False
    for c in text:
        if in_string:
            out.append(c)
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            continue
        if c in " \t\r\n":
            continue
        out.append(c)
        if c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth <= 2:
                out.append("\n")  # the top-level keys and the rows start a line each
        elif c in "]}":
            depth -= 1
        elif c == "," and depth <= 2:
            out.append("\n")
    return "".join(out) + "\n"


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            text = f.read()
        out = compact(text)
        if json.loads(out) != json.loads(text):
            sys.exit(f"compact_results: {path}: not the same data after compacting")
        if out != text:
            with open(path, "w") as f:
                f.write(out)


if __name__ == "__main__":
    main()
