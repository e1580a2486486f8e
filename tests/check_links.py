#!/usr/bin/env python3
"""check_links.py SOURCE_DIR: every relative link of every tracked Markdown file leads to a
tracked file, or to a folder holding one.

Links are `[text](target)`, `![alt](target)` and `[label]: target` outside code blocks and
code spans; a target with a scheme (`https:`, `mailto:`) or only an anchor (`#part`) is not
checked, and an anchor or query after a path is dropped. Prints each broken link as
file:line: target and exits 1 when there is any; exits 77 (a skip) when SOURCE_DIR is not
the top of a git checkout.
"""
import os
import re
import sys
from urllib.parse import unquote

from tracked import tracked_files

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def links(text):
    """(line number, target) for each link of a Markdown text, code left out. A reference
    definition cannot interrupt a paragraph: it follows a blank line or another one."""
    fence, may_define = None, True
    for number, line in enumerate(text.splitlines(), 1):
        opened = FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence, may_define = None, True
            continue
        if opened:
            fence = opened.group(1)
            continue
        found = REFERENCE.match(line) if may_define else None
        if found:
            yield number, found.group(1)
            continue
        may_define = not line.strip()
        for found in INLINE.finditer(CODE_SPAN.sub("", line)):
            yield number, found.group(1)


def broken(root, files):
    """(file, line, target) for each relative link that leads to nothing tracked."""
    known = set(files)
    folders = {os.path.dirname(p) for p in files}
    while "" not in folders:
        folders |= {os.path.dirname(p) for p in folders}
    for md in (p for p in files if p.endswith(".md")):
        path = os.path.join(root, md)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for number, target in links(text):
            if SCHEME.match(target) or target.startswith("#"):
                continue
            plain = unquote(re.split(r"[#?]", target, maxsplit=1)[0])
            if not plain:
                continue
            base = "" if plain.startswith("/") else os.path.dirname(md)
            resolved = os.path.normpath(os.path.join(base, plain.lstrip("/")))
            if resolved == ".":
                resolved = ""
            if resolved.startswith(".."):
                yield md, number, target
            elif resolved not in known and resolved not in folders:
                yield md, number, target


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    files = tracked_files(root)
    if files is None:
        print(f"check_links: {root} is not the top of a git checkout: nothing to check")
        return 77
    bad = list(broken(root, files))
    for md, number, target in bad:
        print(f"{md}:{number}: {target}")
    count = sum(1 for p in files if p.endswith(".md"))
    print(f"check_links: {len(bad)} broken link(s) in {count} tracked Markdown file(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
