#!/usr/bin/env bash
# tools/run/fetch_debs.sh [DIR [PACKAGE...]]: for a GPU machine without package access,
# the Debian packages its build lacks (by default rapidjson-dev, which membench-report reads
# JSON with, and libre2-dev, whose static library matches filters), downloaded on a machine that has apt (apt-get download,
# no root needed) and unpacked into DIR (default the checkout's .deps/prefix; a relative DIR is
# the caller's folder's, as every command reads a path; an empty one is refused, exit 2). Carry
# DIR to that machine: tools/run/suite.sh finds .deps/prefix by itself; a plain cmake takes
# -DCMAKE_PREFIX_PATH=DIR/usr.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# An empty DIR (an unset variable) would unpack into the checkout's default unsaid.
[ $# = 0 ] || [ -n "$1" ] || { echo "fetch_debs.sh: DIR is empty: it names no folder (leave it out for $repo/.deps/prefix)" >&2; exit 2; }
prefix=${1:-$repo/.deps/prefix}
shift $(( $# > 0 ? 1 : 0 ))
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(rapidjson-dev libre2-dev)
# A name starting with - is an option to apt-get (--help downloads nothing and exits 0).
for p in "${packages[@]}"; do
  case $p in
    "" | -*) echo "fetch_debs.sh: package '$p' is not a package name" >&2; exit 2;;
  esac
done
command -v apt-get >/dev/null || { echo "fetch_debs.sh: needs apt-get (Debian or Ubuntu)" >&2; exit 2; }
debs=$(mktemp -d)
chmod 755 "$debs"  # apt-get download fetches as its own user
trap 'rm -rf "$debs"' EXIT
(cd "$debs" && apt-get download "${packages[@]}") ||
  { echo "fetch_debs.sh: apt-get download ${packages[*]} failed (apt-get update first?)" >&2; exit 2; }
# apt-get can end 0 having fetched nothing: without a .deb the loop below would hand dpkg
# the literal pattern.
shopt -s nullglob
fetched=("$debs"/*.deb)
shopt -u nullglob
[ ${#fetched[@]} -gt 0 ] ||
  { echo "fetch_debs.sh: apt-get download ${packages[*]} fetched no .deb" >&2; exit 2; }
mkdir -p "$prefix"
for deb in "${fetched[@]}"; do
  dpkg -x "$deb" "$prefix"
  echo "fetch_debs.sh: $(basename "$deb") -> $prefix"
done
echo "fetch_debs.sh: carry $prefix to the GPU machine; cmake -DCMAKE_PREFIX_PATH=$(cd "$prefix" && pwd)/usr (suite.sh: automatic)"
