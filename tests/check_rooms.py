#!/usr/bin/env python3
"""check_rooms.py TOOL_DIR: membench-report's rooms stay a stack. Every C++ source lives in a
room (a folder of TOOL_DIR) named below, and includes the tool's headers one way, as
"room/file.hpp", only from its own room or one listed before it: the shared stages at the
bottom, one room per command above them, the command line and the fuzz target on top.
Prints each offending include as file:line and exits 1 when there is any."""
import pathlib
import re
import sys

ROOMS = ["core", "read", "stats", "render", "views",                # shared stages
         "compare", "history", "p2p", "fleet", "profile", "clock",  # one room per command
         "cli", "fuzz"]                                             # the command line, fuzzing
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def problems(root):
    rank = {room: i for i, room in enumerate(ROOMS)}
    headers = {p.relative_to(root).as_posix() for p in root.rglob("*.hpp")}
    for source in sorted(root.rglob("*.[ch]pp")):
        rel = source.relative_to(root)
        if len(rel.parts) < 2 or rel.parts[0] not in rank:
            yield f"{rel}: in no room (rooms: {', '.join(ROOMS)})"
            continue
        own = rank[rel.parts[0]]
        for n, line in enumerate(source.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m or m.group(1).startswith("common/"):
                continue
            target = m.group(1)
            if "/" not in target and any(h.endswith("/" + target) for h in headers):
                yield f"{rel}:{n}: \"{target}\": include the tool's headers as \"room/file.hpp\""
            elif target.split("/")[0] in rank and rank[target.split("/")[0]] > own:
                yield f"{rel}:{n}: \"{target}\": room {rel.parts[0]} includes the higher room {target.split('/')[0]}"


def main():
    root = pathlib.Path(sys.argv[1])
    found = list(problems(root))
    for p in found:
        print(p)
    print(f"check_rooms: {len(found)} problem(s) in {root}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
