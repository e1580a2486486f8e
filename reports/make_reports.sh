#!/usr/bin/env bash
# reports/make_reports.sh REPORT DIR: membench-report's views of the three builds in DIR
# (membench.json, membench_ca.json, membench_cg.json), written next to them:
#   builds.md                 every benchmark, default / ca / cg, GB/s and ratios
#   views.md                  the lessons' curves: G1 offset, G2 stride, G5 working set (GB/s)
#   offset.html, stride.html, working_set.html
#                             the same curves as tables and SVG charts, each one file, offline
set -euo pipefail
report=$(realpath "$1")
cd "$2"
b=(membench.json membench_ca.json membench_cg.json)
"$report" builds "${b[@]}" --format md -o builds.md
offset=(table "${b[@]}" --rows offset --cols build --filter '^global/read_offset/.*bytes:1G')
stride=(table "${b[@]}" --rows stride --cols build --filter '^global/read_stride/')
working_set=(table "${b[@]}" --rows bytes --cols build --filter '^global/working_set/')
{
  "$report" "${offset[@]}" --format md
  "$report" "${stride[@]}" --format md
  "$report" "${working_set[@]}" --format md
} > views.md
"$report" "${offset[@]}" --format html -o offset.html
"$report" "${stride[@]}" --format html -o stride.html
"$report" "${working_set[@]}" --format html -o working_set.html
