#!/usr/bin/env python3
"""tests/python/check_no_sys_path.py ROOT: no Python script of the repository reaches a module
by its path. Scripts import the membench package (python/), found on PYTHONPATH or installed,
and a module beside them by the script's own folder; none edits the module search path or
loads a file as a module. Looks at every file git tracks or would track (outside a git
checkout, every file below ROOT but build folders): .py files and those whose first line is a
Python shebang, and CMake and shell files (which run `python3 -c`). Prints file:line of each
one found and exits 1 when there is any."""
import re
import subprocess
import sys
from pathlib import Path

# Spelt apart so that this file does not find itself.
FORBIDDEN = re.compile(r"\bsys\s*\.\s*" + "path" + r"\b|spec_from_file_" + "location|site\\.addsitedir")
SCRIPTS = (".py", ".cmake", ".sh", ".sbatch")


def files(root):
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout
        return [root / p for p in out.split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in root.rglob("*") if not any(part.startswith(("build", ".git")) for part in
                                                      p.relative_to(root).parts)]


def is_script(path):
    if path.suffix in SCRIPTS or path.name == "CMakeLists.txt":
        return True
    if path.suffix or not path.is_file():
        return False
    with open(path, "rb") as f:
        return re.match(rb"#!.*python", f.readline()) is not None


def main(root):
    root = Path(root).resolve()
    found = 0
    for path in sorted(files(root)):
        if not path.is_file() or path.resolve() == Path(__file__).resolve() or not is_script(path):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if FORBIDDEN.search(line):
                print(f"{path.relative_to(root)}:{number}: {line.strip()}")
                found += 1
    print(f"{found} line(s) reaching a module by its path" if found else "no script reaches a module by its path")
    return 1 if found else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
