#!/usr/bin/env python3
"""Drops the `samples_us` arrays from result files whose samples nothing reads, leaving every
other byte as membench wrote it (a JSON round trip would reprint its 17-digit numbers), and
checks that the file parses to the same rows less their samples.

  python3 reports/drop_samples.py FILE...
"""
import json
import re
import sys

# One row's array, with the line it sits on; the comma that follows it, if any.
SAMPLES = re.compile(r'\n *"samples_us": \[[^\]]*\](,?)')


def drop(text):
    # The last key of a row leaves the comma before it dangling: marked, then removed.
    out = SAMPLES.sub(lambda m: "" if m.group(1) else "\0", text)
    return out.replace(",\0", "")


def main():
    for path in sys.argv[1:]:
        text = open(path).read()
        out = drop(text)
        want = json.loads(text)
        for row in want.get("benchmarks", []):
            row.pop("samples_us", None)
        if json.loads(out) != want or "\0" in out:
            sys.exit(f"drop_samples: {path}: not the same rows after dropping the samples")
        if out != text:
            with open(path, "w") as f:
                f.write(out)


if __name__ == "__main__":
    main()
