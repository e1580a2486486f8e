#!/usr/bin/env python3
"""tests/check_dockerfile_packages.py SOURCE_DIR: the image installs what the build requires.

The Debian/Ubuntu packages cmake/MembenchDeps.cmake names for the libraries membench and
membench-report need (`apt-get install PKG` in its messages; the test-only ones, which the
image does not build, aside) must be exactly those the Kubernetes image's Dockerfile installs
beside its build tools: an image that lacks one does not build, one it has in excess is
weight the image carries for nothing. Exit 0 when they agree, 1 with the difference.
"""
import pathlib
import re
import sys

TEST_ONLY = {"libgtest-dev"}  # MEMBENCH_BUILD_TESTS=OFF in the image
BUILD_TOOLS = {"cmake", "ninja-build", "g++"}


def required(deps):
    # membench_require(PACKAGE DEBIAN FLOOR) and the literal messages of the libraries found by hand.
    named = re.findall(r"^\s*membench_require\(\S+ ([a-z0-9][a-z0-9.+-]+) ", deps, re.M)
    return (set(named) | set(re.findall(r"apt-get install ([a-z0-9][a-z0-9.+-]+)", deps))) - TEST_ONLY


def installed(dockerfile):
    # The one apt-get install of the image: its packages up to the next && (continuations joined).
    text = dockerfile.replace("\\\n", " ")
    match = re.search(r"apt-get install -y --no-install-recommends ([^&]+)&&", text)
    if not match:
        sys.exit("check_dockerfile_packages: no `apt-get install -y --no-install-recommends` in the Dockerfile")
    return set(match.group(1).split())


def main():
    src = pathlib.Path(sys.argv[1])
    need = required((src / "cmake/MembenchDeps.cmake").read_text())
    have = installed((src / "integrations/kubernetes/Dockerfile").read_text())
    missing, extra = need - have, have - need - BUILD_TOOLS
    if not need:
        sys.exit("check_dockerfile_packages: cmake/MembenchDeps.cmake names no package")
    if missing or extra:
        print(f"check_dockerfile_packages: the Dockerfile lacks {sorted(missing)}; installs beyond the build's needs "
              f"{sorted(extra)}", file=sys.stderr)
        return 1
    print(f"check_dockerfile_packages: the image installs the {len(need)} packages the build requires: {' '.join(sorted(need))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
