#!/usr/bin/env bash
# reports/fleet/edge_chip.sh REPORT [OUT]: how far each H100 of board part 695-2G520-0200-000
# sits from its stratum's centre on the constant-cache chase at 64 KiB, the row on which small
# fleets of them judged on their own call a healthy chip (README.md quotes it): membench-report
# fleet over the committed H100 sets, that one row, every scope (--all), as Markdown into OUT
# (default reports/fleet/edge_chip.md). The centre is fleet's: the median of the chips' means.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] && [ -n "$1" ] || { echo "usage: edge_chip.sh REPORT [OUT]" >&2; exit 2; }
[ -x "$1" ] && [ -f "$1" ] || { echo "edge_chip.sh: REPORT $1 is not an executable file" >&2; exit 2; }
report=$(realpath "$1")
out=${2:-$here/edge_chip.md}
[ -n "$out" ] && [ -d "$(dirname "$out")" ] || { echo "edge_chip.sh: OUT '$out': no such folder" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for archive in "$here"/h100/2026-11-2*.tar.xz; do
  mkdir -p "$work/$(basename "$archive" .tar.xz)"
  tar xJf "$archive" -C "$work/$(basename "$archive" .tar.xz)"
done
rc=0
"$report" fleet --model-reference=none --allow-mixed --all --format=md --filter='^cache/constant_latency/bytes:64K$' \
  "$work" > "$work/fleet.md" 2> "$work/stderr" || rc=$?
# fleet's verdicts (0, 1, 3, 4) all write the report; 2 and anything else is no report.
case $rc in 0|1|3|4) ;; *) cat "$work/stderr" >&2; echo "edge_chip.sh: fleet exited $rc" >&2; exit 1 ;; esac
python3 -c 'import sys; w = sys.argv[1] + "/"; sys.stdout.write(open(sys.argv[2]).read().replace(w, ""))' \
  "$work" "$work/fleet.md" > "$work/out.md"
mv -f "$work/out.md" "$out"
echo "edge_chip.sh: $out"
