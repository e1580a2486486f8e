#!/usr/bin/env python3
"""Rewrites committed result files smaller without touching a value: one benchmark row a
line (the whitespace membench's pretty printer puts between tokens, every kept sample on a
line of its own, is most of a gate set's size), and with --drop-samples the `samples_us`
arrays removed (for files whose samples nothing reads). Every other token stays byte for
byte as membench wrote it (a JSON round trip would reprint its 17-digit numbers); the
script checks that each file parses to the same data, less the samples it was asked to drop.

  python3 reports/slim_results.py [--drop-samples] FILE...
"""
import json
import re
import sys

# One row's array, with the whitespace before it; the comma that follows it, if any.
SAMPLES = re.compile(r'\s*"samples_us":\s*\[[^\]]*\](,?)')


def drop_samples(text):
    # The last key of a row leaves the comma before it dangling: marked, then removed.
    out = SAMPLES.sub(lambda m: "" if m.group(1) else "\0", text)
    return re.sub(r",\s*\0", "", out)


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


def expected(text, without_samples):
    data = json.loads(text)
    if without_samples and isinstance(data, dict):
        for row in data.get("benchmarks", []):
            if isinstance(row, dict):
                row.pop("samples_us", None)
    return data


def main():
    args = sys.argv[1:]
    without_samples = "--drop-samples" in args
    paths = [a for a in args if a != "--drop-samples"]
    if not paths or any(a.startswith("-") for a in paths):  # an option misspelt is no file
        print(f"usage: slim_results.py [--drop-samples] FILE... (not: {' '.join(args)})", file=sys.stderr)
        sys.exit(2)
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            expect = expected(text, without_samples)
        except (OSError, ValueError) as e:  # missing, a folder, not UTF-8, not JSON: left as it is
            sys.exit(f"slim_results: {path}: cannot be read as JSON: {e}")
        out = compact(drop_samples(text) if without_samples else text)
        try:
            same = "\0" not in out and json.loads(out) == expect
        except ValueError:
            same = False
        if not same:
            sys.exit(f"slim_results: {path}: not the same data after rewriting it")
        if out != text:
            with open(path, "w") as f:
                f.write(out)


if __name__ == "__main__":
    main()
