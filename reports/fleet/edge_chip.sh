#!/usr/bin/env bash
# reports/fleet/edge_chip.sh REPORT [OUT]: how far each H100 of board part 695-2G520-0200-000
# sits from its stratum's centre on the constant-cache chase at 64 KiB, the row on which small
# fleets of them judged on their own call a healthy chip (README.md quotes it): membench-report
# fleet over the committed H100 sets, that one row, every scope (--all), as Markdown into OUT
# (default reports/fleet/edge_chip.md). The centre is fleet's: the median of the chips' means.
# OUT is replaced only by a whole, non-empty table (written beside, then moved); exit 2 for an
# empty OUT (an unset variable: never the committed default), one that is a folder or no
# regular file, or REPORT, this script itself or an archive it reads; 1 when fleet gives no table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
say() { echo "edge_chip.sh: $*" >&2; }
[ $# -ge 1 ] && [ $# -le 2 ] && [ -n "$1" ] || { echo "usage: edge_chip.sh REPORT [OUT]" >&2; exit 2; }
[ $# = 1 ] || [ -n "$2" ] || { say "OUT is empty: it names no file (leave it out for $here/edge_chip.md)"; exit 2; }
[ -x "$1" ] && [ -f "$1" ] || { say "REPORT $1 is not an executable file"; exit 2; }
report=$(realpath -- "$1")
out=${2:-$here/edge_chip.md}
[ -d "$(dirname -- "$out")" ] || { say "OUT '$out': no such folder"; exit 2; }
# Moved onto OUT by a rename: a folder would take it inside, a FIFO or device be replaced.
[ ! -e "$out" ] || [ -f "$out" ] || { say "OUT '$out' is no regular file (a folder, FIFO or device): nothing written"; exit 2; }
for own in "$report" "$(realpath -- "$0")"; do
  [ "$(realpath -m -- "$out")" != "$own" ] || { say "OUT '$out' is $own, a program this runs: nothing written"; exit 2; }
done
archives=("$here"/h100/2026-11-2*.tar.xz)
# The table moved over an archive it reads would replace a committed set of runs.
for archive in "${archives[@]}"; do
  [ "$(realpath -m -- "$out")" != "$(realpath -m -- "$archive")" ] ||
    { say "OUT '$out' is $archive, an archive this reads: nothing written"; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for archive in "${archives[@]}"; do
  mkdir -p "$work/$(basename "$archive" .tar.xz)"
  tar xJf "$archive" -C "$work/$(basename "$archive" .tar.xz)"
done
rc=0
"$report" fleet --model-reference=none --allow-mixed --all --format=md --filter='^cache/constant_latency/bytes:64K$' \
  "$work" > "$work/fleet.md" 2> "$work/stderr" || rc=$?
# fleet's verdicts (0, 1, 3, 4) all write the report; 2 and anything else is no report.
case $rc in 0|1|3|4) ;; *) cat "$work/stderr" >&2; say "fleet exited $rc"; exit 1 ;; esac
# An exit of a verdict with nothing written is no table: OUT kept, never emptied.
[ -s "$work/fleet.md" ] || { cat "$work/stderr" >&2; say "fleet exited $rc but wrote no table: $out kept"; exit 1; }
python3 -c 'import sys; w = sys.argv[1] + "/"; sys.stdout.write(open(sys.argv[2]).read().replace(w, ""))' \
  "$work" "$work/fleet.md" > "$work/out.md"
mv -f -T -- "$work/out.md" "$out"
echo "edge_chip.sh: $out"
