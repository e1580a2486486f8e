#!/usr/bin/env python3
"""check_tree_size.py SOURCE_DIR [--limit-mb N]: the files git tracks in SOURCE_DIR take at
most N MB (40; decimal, 40 000 000 bytes, as the project states its limit) together, as `git ls-files -z | xargs -0 du -cb` counts them. Prints the
total and the ten largest tracked files; exits 1 when the total is over the limit, 77 (a
skip) when SOURCE_DIR is not the top of a git checkout. GPU results beyond what something
cites live in git history (reports/README.md), not in the tree.
"""
import argparse
import os
import sys

from tracked import tracked_files


def tracked_sizes(root):
    """(bytes, path) of each tracked file of the checkout at root, or None when root is not
    its top. A tracked path missing from the working tree counts 0; a link counts itself."""
    paths = tracked_files(root)
    if paths is None:
        return None
    sizes = []
    for path in paths:
        full = os.path.join(root, path)
        sizes.append((os.lstat(full).st_size if os.path.lexists(full) and not os.path.isdir(full) else 0, path))
    return sizes


def mb(n):
    return f"{n / 1e6:.2f} MB"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--limit-mb", type=float, default=40)
    args = parser.parse_args()
    sizes = tracked_sizes(args.root)
    if sizes is None:
        print(f"check_tree_size: {args.root} is not the top of a git checkout: nothing to check")
        return 77
    limit = int(args.limit_mb * 1e6)
    total = sum(size for size, _ in sizes)
    verdict = "over" if total > limit else "within"
    print(f"check_tree_size: {len(sizes)} tracked files, {total} bytes ({mb(total)}), "
          f"{verdict} the limit of {limit} bytes ({mb(limit)})")
    print("the ten largest:")
    for size, path in sorted(sizes, reverse=True)[:10]:
        print(f"  {size:>10}  {path}")
    return 1 if total > limit else 0


if __name__ == "__main__":
    sys.exit(main())
