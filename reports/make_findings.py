#!/usr/bin/env python3
"""Renders reports/findings.md.in into reports/FINDINGS.md: every measured number in the
findings is a reference into a JSON file under reports/, resolved here, so none is typed
by hand.

  python3 reports/make_findings.py reports/findings.md.in > reports/FINDINGS.md

Template syntax:
  <!-- alias NAME = <path under reports/> -->        a JSON file, named once
  {{NAME#<benchmark run_name>@<counter>|<format>}}    one value (counter `time` = real_time, us)
  {{A#row@counter / B#row@counter|<format>}}          the ratio of two values
  {{NAME$<context key>|<format>}}                     a value of the file's context (gpu_l2_bytes)
An operand may also be a number (`{{A$gpu_l2_bytes / 1048576|.0f}}`); without a format a
context value is copied as it is (`{{A$gpu_name}}`).
Format is a Python format spec (`.0f`, `.2f`). A missing file, row or counter is an error
(exit 1), never a blank. The rendered file ends with the list of files and their context.
"""
import json
import re
import sys
from pathlib import Path

ALIAS = re.compile(r"<!--\s*alias\s+(\w+)\s*=\s*(\S+)\s*-->\n?")
REF = re.compile(r"\{\{([^{}]+)\}\}")
ONE = re.compile(r"^\s*(\w+)#([^@]+)@(\S+)\s*$")
CTX = re.compile(r"^\s*(\w+)\$(\w+)\s*$")


def main():
    template = Path(sys.argv[1])
    root = template.parent
    text = template.read_text()
    aliases = {name: path for name, path in ALIAS.findall(text)}
    text = ALIAS.sub("", text)
    files, rows = {}, {}
    for name, path in aliases.items():
        j = json.load(open(root / path))
        files[name] = (path, j["context"])
        rows[name] = {b["run_name"].removesuffix("/manual_time"): b for b in j["benchmarks"]
                      if b.get("run_type", "iteration") == "iteration"}
    errors = []

    def context(expr):
        m = CTX.match(expr)
        name, key = m.groups()
        if name not in files:
            raise KeyError(f"unknown alias {name}")
        if key not in files[name][1]:
            raise KeyError(f"{files[name][0]} has no context key '{key}'")
        return files[name][1][key]

    def value(expr):
        if CTX.match(expr):
            return float(context(expr))
        if re.fullmatch(r"\s*[0-9.]+\s*", expr):
            return float(expr)
        m = ONE.match(expr)
        if not m:
            raise KeyError(f"not ALIAS#row@counter: '{expr}'")
        name, row, counter = m.groups()
        if name not in rows:
            raise KeyError(f"unknown alias {name}")
        r = rows[name].get(row)
        if r is None:
            raise KeyError(f"{files[name][0]} has no row '{row}'")
        if r.get("error_occurred"):
            raise KeyError(f"{files[name][0]}: '{row}' is an error row")
        key = "real_time" if counter == "time" else counter
        if key not in r:
            raise KeyError(f"{files[name][0]}: '{row}' has no counter '{counter}'")
        return float(r[key])

    def render(m):
        body = m.group(1)
        expr, _, fmt = body.rpartition("|") if "|" in body else (body, "", None)
        try:
            if fmt is None and CTX.match(expr):
                return str(context(expr))
            fmt = fmt or ".3g"
            parts = expr.split(" / ")
            v = value(parts[0]) if len(parts) == 1 else value(parts[0]) / value(parts[1])
            return format(v, fmt)
        except (KeyError, ValueError, ZeroDivisionError) as e:
            errors.append(f"{{{{{body}}}}}: {e}")
            return "??"

    out = REF.sub(render, text)
    if errors:
        for e in errors:
            print(f"make_findings: {e}", file=sys.stderr)
        sys.exit(1)
    out += "\n## Files behind the numbers\n\n| alias | file | GPU | driver | commit | date |\n|---|---|---|---|---|---|\n"
    for name, (path, ctx) in files.items():
        out += (f"| {name} | `reports/{path}` | {ctx.get('gpu_name', '?')} | {ctx.get('nvml_driver_version', '?')} | "
                f"{ctx.get('membench_git_commit', '?')} | {ctx.get('date', '?')[:10]} |\n")
    sys.stdout.write(out)


if __name__ == "__main__":
    main()
