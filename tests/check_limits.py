#!/usr/bin/env python3
"""check_limits.py PATH... [--file-lines N] [--function-lines N]: every C++ source in each
folder PATH (and each file PATH, whatever it holds) has at most N lines (400), and every
function body in a C++ source at most N lines (80), from its opening to its closing brace,
lambdas and local types counted with the function they are in. Prints file:line and the
count of each one over, and exits 1 when there is any."""
import argparse
import pathlib
import re
import sys

SOURCES = (".cpp", ".hpp", ".h", ".cc", ".cu", ".cuh")


def blank_literals(text):
    """The text with comments, string and character literals blanked (newlines kept), so
    that braces inside them are not counted."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delim = text[i + 2:open_paren]
            j = text.find(")" + delim + '"', open_paren)
            j = n if j < 0 else j + len(delim) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator (1'000)
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TYPE_OR_NAMESPACE = re.compile(r"^(template\s*<.*>\s*)?(namespace|struct|class|union|enum)\b|^extern\s*$", re.S)


def functions(text):
    """(first line of the header, lines from the opening to the closing brace) per function."""
    code = blank_literals(text)
    stack = []  # per open brace: 'function' or 'scope' (namespace, type, initializer)
    header_start = 0  # where the text before the next brace at this level starts
    body_start_line = {}
    line = 1
    found = []
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c in ";}" and "function" not in stack:
            if c == "}":
                stack.pop()
            header_start = i + 1
        elif c == "{":
            if "function" in stack:
                stack.append("block")
                continue
            header = code[header_start:i].strip()
            is_function = "(" in header and not TYPE_OR_NAMESPACE.search(header) and not header.endswith("=")
            stack.append("function" if is_function else "scope")
            if is_function:
                first = header_start + len(code[header_start:i]) - len(code[header_start:i].lstrip())
                body_start_line[len(stack)] = (code.count("\n", 0, first) + 1, line)
            header_start = i + 1
        elif c == "}":
            kind = stack.pop()
            if kind == "function":
                start, open_line = body_start_line.pop(len(stack) + 1)
                found.append((start, line - open_line + 1))
                header_start = i + 1
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--file-lines", type=int, default=400)
    ap.add_argument("--function-lines", type=int, default=80)
    args = ap.parse_args()
    files = []
    for p in map(pathlib.Path, args.paths):
        files += sorted(f for f in p.rglob("*") if f.suffix in SOURCES) if p.is_dir() else [p]
    over = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > args.file_lines:
            over.append(f"{path}:1: {lines} lines in the file (at most {args.file_lines})")
        for start, length in functions(text) if path.suffix in SOURCES else []:
            if length > args.function_lines:
                over.append(f"{path}:{start}: {length} lines in a function body (at most {args.function_lines})")
    for o in over:
        print(o)
    where = " ".join(args.paths)
    if over:
        print(f"check_limits: {len(over)} over the limits in {where}", file=sys.stderr)
        return 1
    print(f"check_limits: {len(files)} files in {where}: each within {args.file_lines} lines, "
          f"each function within {args.function_lines}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
