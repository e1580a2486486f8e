#!/usr/bin/env python3
"""tests/adding_family.py: docs/adding-an-experiment.md, taken at its word.

  adding_family.py extract DOC SRC OUT   the page's example files into OUT: each code block
                                         after `<!-- example: PATH new -->` is PATH, one after
                                         `<!-- example: PATH append -->` is SRC's PATH with the
                                         block appended, `<!-- example: CURRICULUM.md row -->`
                                         a row of the families table (checked, kept as
                                         OUT/CURRICULUM.row.md); a file is rewritten only
                                         when it changes, so a configure does not rebuild it;
                                         SRC's other kernel spaces linked beside them
  adding_family.py count DOC             the page's table of hand-written files (new or edited):
                                         at most 4, and one example block for each
  adding_family.py listing MEMBENCH      the membench built from the example files alone lists
                                         the family and its rows, in the tiers the page says

Exit 0 when it holds, 1 with a line per fault (an example PATH outside OUT, absolute, through
.. or through a link, is one: nothing is written for it; so is a second `new` block for one
PATH, and a listing that is no UTF-8 text), 2 on bad arguments (a DOC, SRC or OUT that cannot
be read or written, said; a DOC that is a device, a FIFO no one writes or over 512 MiB).
Several append blocks for one PATH are appended in page order. An earlier extract's link to
SRC's kernel space is replaced by OUT's own folder where the page now writes in that space.
Ctrl-C: one line, exit 130; standard output that cannot be written: one line, exit 2.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys

from membench import cli

PROG = "adding_family.py"

MARKER = re.compile(r"<!-- example: (\S+) (new|append|row) -->\n```[a-z]*\n(.*?)\n```", re.S)
MOST_FILES = 4
FAMILY = "global/read_reverse"
# The example's grid (step 2): f32 and f64 at 4M and 1G; quick has f32 at 1G alone.
FULL_ROWS = {f"{FAMILY}/type:{t}/l2:cold/bytes:{b}/manual_time" for t in ("f32", "f64") for b in ("4M", "1G")}
QUICK_ROWS = {f"{FAMILY}/type:f32/l2:cold/bytes:1G/manual_time"}
ROW = re.compile(r"^\| [A-Z]\d+ \| `[a-z0-9_]+/[a-z0-9_]+`[^|]* \| [^|]+ \|$")


def fail(message):
    cli.fail(PROG, message)


def read(path):
    """The UTF-8 text of `path`; exit 2 naming it where it cannot be read."""
    return cli.read_text(PROG, path)


def examples(doc):
    return [(m.group(1), m.group(2), m.group(3) + "\n") for m in MARKER.finditer(read(doc))]


def write_if_changed(path, text):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.isfile(path) and read(path) == text:
            return
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        fail(f"{path}: cannot be written: {e.strerror or e}")


def inside(path):
    """Whether an example's PATH stays below the folder it is joined to: an absolute one or one
    through .. would write (or read) beside OUT (or SRC)."""
    return bool(path) and not os.path.isabs(path) and ".." not in path.split("/")


def example_files(doc, src):
    """({OUT path: text}, faults) of the page's examples: every block for one file kept, in
    page order (a second append adds to the first's text, never replaces it); a second new
    block for a file already given is a fault, not a silent replacement."""
    files, faults = {}, []
    for path, how, text in examples(doc):
        if how == "row":
            if not ROW.match(text.strip()):
                faults.append(f"{path}: the example row is no row of the families table: {text.strip()}")
            files["CURRICULUM.row.md"] = files.get("CURRICULUM.row.md", "") + text
        elif not inside(path):
            faults.append(f"{path}: an example file outside OUT (absolute or through ..): not written")
        elif how == "append":
            files[path] = (files[path] if path in files else read(os.path.join(src, path))) + "\n" + text
        elif path in files:
            faults.append(f"{path}: a second new block for a file the page gives already: not written")
        else:
            files[path] = text
    return files, faults


def writable_in(src, out, path):
    """Whether OUT/path is written in OUT itself. A folder on its way that is a link is not
    OUT's: an earlier extract's link to SRC's kernel space (this page now writes in that
    space) is taken away, so the space is OUT's own as a first extract makes it; any other
    link, or a PATH that resolves outside OUT, is refused: nothing is written through it."""
    parts = path.split("/")
    for depth in range(1, len(parts) + 1):
        here = os.path.join(out, *parts[:depth])
        if not os.path.islink(here):
            continue
        ours = os.path.join(os.path.abspath(src), *parts[:depth])
        if depth == 2 and parts[0] == "kernels" and depth < len(parts) and os.readlink(here) == ours:
            os.unlink(here)
            continue
        return False
    base = os.path.realpath(out)
    return os.path.realpath(os.path.join(out, path)).startswith(base + os.sep)


def extract(doc, src, out):
    files, faults = example_files(doc, src)
    for path, text in files.items():
        try:
            ok = writable_in(src, out, path)
        except OSError as e:
            fail(f"{e.filename}: cannot be written: {e.strerror or e}")
        if not ok:
            faults.append(f"{path}: an example file outside OUT (through a link): not written")
            continue
        write_if_changed(os.path.join(out, path), text)
    link_kernel_spaces(src, out)
    return faults


def link_kernel_spaces(src, out):
    """OUT/kernels/<space> for each space the examples did not write, a link to SRC's: a kernel
    header includes its neighbours by relative path (../common/hd.hpp), as in the tree."""
    try:
        for space in sorted(os.listdir(os.path.join(src, "kernels"))):
            here = os.path.join(out, "kernels", space)
            if os.path.isdir(os.path.join(src, "kernels", space)) and not os.path.lexists(here):
                os.makedirs(os.path.dirname(here), exist_ok=True)
                os.symlink(os.path.join(os.path.abspath(src), "kernels", space), here)
    except OSError as e:
        fail(f"{e.filename}: kernel spaces not linked: {e.strerror or e}")


def hand_written(doc):
    """The table's files marked new or edited (the rows of step 1 onwards, not 'only if')."""
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \| (new|edited) \|$", read(doc), re.M)
    return [path for _, path, _ in rows]


def count(doc):
    files = hand_written(doc)
    shown = [path for path, _, _ in examples(doc)]
    faults = []
    if not files:
        faults.append(f"{doc}: no table of hand-written files (| step | `file` | new or edited |)")
    if len(files) > MOST_FILES:
        faults.append(f"{doc}: a family takes {len(files)} hand-written files, more than {MOST_FILES}: {files}")
    for pattern in files:
        glob = re.sub(r"<[^>]+>", "*", pattern)
        if not any(fnmatch.fnmatch(path, glob) for path in shown):
            faults.append(f"{doc}: the table names {pattern}, but no example block is that file")
    if len(shown) != len(files):
        faults.append(f"{doc}: {len(files)} hand-written files in the table, {len(shown)} example blocks")
    print(f"adding_family.py: {len(files)} hand-written files: {', '.join(files)}")
    return faults


def listed(membench, *args):
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    try:
        run = subprocess.run([membench, *args], capture_output=True, env=env, timeout=120)
    except OSError as e:  # missing, not executable, a folder
        return None, f"{membench}: cannot be run: {e.strerror or e}"
    except subprocess.TimeoutExpired:
        return None, f"{membench} {' '.join(args)}: no answer within 120 s"
    if run.returncode != 0:
        said = run.stderr.decode("utf-8", "replace").strip()[:300]
        return None, f"{membench} {' '.join(args)}: exit {run.returncode}: {said}"
    # Another program's bytes: a listing that is no UTF-8 text is its fault, said, not a traceback.
    try:
        return run.stdout.decode("utf-8").splitlines(), None
    except UnicodeDecodeError as e:
        return None, f"{membench} {' '.join(args)}: its output is not UTF-8 text ({e.reason} at byte {e.start})"


def listing(membench):
    # A program that is not there is a bad argument, said once, not a fault of each listing.
    if not (os.path.isfile(membench) and os.access(membench, os.X_OK)):
        fail(f"{membench}: no program there (not an executable file)")
    faults = []
    families, fault = listed(membench, "--list-families")
    if fault or not any(line.split()[:1] == [FAMILY] for line in families):
        faults.append(fault or f"--list-families does not name {FAMILY}")
    for tier, want in (("full", FULL_ROWS), ("quick", QUICK_ROWS)):
        rows, fault = listed(membench, f"--suite={tier}", "--benchmark_list_tests", f"--benchmark_filter=^{FAMILY}/")
        if fault or set(rows) != want:
            faults.append(fault or f"--suite={tier}: rows {sorted(rows)}, the page's grid gives {sorted(want)}")
    if not faults:
        print(f"adding_family.py: {FAMILY} listed, {len(FULL_ROWS)} rows in full, {len(QUICK_ROWS)} in quick")
    return faults


def parse_args():
    ap = cli.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                            epilog=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = ap.add_subparsers(dest="command", required=True, metavar="extract|count|listing")
    one = commands.add_parser("extract", help="the page's example files into OUT")
    for name in ("doc", "src", "out"):
        one.add_argument(name, metavar=name.upper())
    commands.add_parser("count", help="the page's table of hand-written files").add_argument("doc", metavar="DOC")
    commands.add_parser("listing", help="the example membench lists the family").add_argument("membench", metavar="MEMBENCH")
    return ap.parse_args()


def main():
    args = parse_args()
    if args.command == "extract":
        faults = extract(args.doc, args.src, args.out)
    elif args.command == "count":
        faults = count(args.doc)
    else:
        faults = listing(args.membench)
    for f in faults:
        print(f"{PROG}: {f}")
    return 1 if faults else 0


if __name__ == "__main__":
    cli.run_main(main, PROG)
