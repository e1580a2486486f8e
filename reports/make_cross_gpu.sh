#!/usr/bin/env bash
# reports/make_cross_gpu.sh REPORT OUT SUITE_A SUITE_B [G5_A G5_B]: membench-report's
# cross-GPU views (`gpus`: absolute and % of each GPU's own peak) of two GPUs' whole
# suites (membench.json, membench_ca.json, membench_cg.json in SUITE_A and SUITE_B) and,
# optionally, of their G5 working-set runs (working_set.json in G5_A and G5_B), in OUT:
#   suite.md, suite_ca.md, suite_cg.md   every row of each build side by side
#   suite.html                          the default build, one offline file
#   working_set.md                      the G5 sweep side by side
set -euo pipefail
report=$(realpath "$1")
out=$2
mkdir -p "$out"
a=$(realpath --relative-to="$out" "$3")
b=$(realpath --relative-to="$out" "$4")
cd "$out"
"$report" gpus "$a/membench.json" "$b/membench.json" --format md -o suite.md
"$report" gpus "$a/membench_ca.json" "$b/membench_ca.json" --build ca --format md -o suite_ca.md
"$report" gpus "$a/membench_cg.json" "$b/membench_cg.json" --build cg --format md -o suite_cg.md
"$report" gpus "$a/membench.json" "$b/membench.json" --format html -o suite.html
if [ $# -ge 6 ]; then
  cd - >/dev/null
  ga=$(realpath --relative-to="$out" "$5")
  gb=$(realpath --relative-to="$out" "$6")
  cd "$out"
  "$report" gpus "$ga/working_set.json" "$gb/working_set.json" --format md -o working_set.md
fi
