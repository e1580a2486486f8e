#!/usr/bin/env python3
"""tests/python/check_pip_install.py PACKAGE_DIR VERSION RESULTS.json WORK: `pip install` of the
membench package, offline, into WORK/site (from a copy of PACKAGE_DIR, so the source tree
gets no build folders), then, from another folder with only WORK/site on PYTHONPATH, the
installed package: it is the one imported, its version is VERSION (the CMake project's),
its schema.json came with it, and load() reads RESULTS.json.

Exit 0 passed, 1 failed, 77 skipped: no pip, or no setuptools 61+ able to build a wheel
here (setuptools 70.1+, or an older one with the wheel package): offline, pip cannot fetch
them, and its build isolation is off so that it uses this Python's.
"""
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

CHECK = r"""
import sys
from importlib import metadata
from pathlib import Path
import membench
from membench import schema
site, version, results = sys.argv[1:4]
assert Path(membench.__file__).resolve().is_relative_to(Path(site).resolve()), membench.__file__
assert metadata.version("membench") == version, (metadata.version("membench"), version)
assert schema.PATH.is_file() and len(schema.default_metric) > 0
run = membench.load(results)
assert len(run) > 0 and all(r.family for r in run), results
print(f"installed membench {version} in {site}: {len(run)} rows of {results}")
"""


def why_not():
    """Why pip cannot build the package offline here, or None when it can."""
    if importlib.util.find_spec("pip") is None:
        return "no pip for this Python"
    try:
        text = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return "no setuptools for this Python"
    version = tuple(int(p) if p.isdigit() else 0 for p in text.split(".")[:2])
    if version < (61, 0):
        return f"setuptools {text} (61 or newer reads pyproject.toml)"
    if version < (70, 1) and importlib.util.find_spec("wheel") is None:
        return f"setuptools {text} without the wheel package (70.1 or newer needs none)"
    return None


def main(package, version, results, work):
    reason = why_not()
    if reason:
        print(f"skipped: pip install cannot build the package offline here: {reason}")
        return 77
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    source, site = work / "source", work / "site"
    shutil.copytree(package, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    pip = [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
           "--disable-pip-version-check", "--no-cache-dir", "--target", str(site), str(source)]
    done = subprocess.run(pip, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"FAIL: {' '.join(pip)}: exit {done.returncode}\n{done.stdout}{done.stderr}")
        return 1
    with tempfile.TemporaryDirectory() as elsewhere:
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "PYTHONNOUSERSITE": "1"}
        done = subprocess.run([sys.executable, "-c", CHECK, str(site), version, str(Path(results).resolve())],
                              cwd=elsewhere, env=env, capture_output=True, text=True)
    print(done.stdout + done.stderr, end="")
    if done.returncode != 0:
        print("FAIL: the installed package")
        return 1
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
