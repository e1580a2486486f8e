#!/usr/bin/env bash
# On the GPU machine: build membench (sm_90), run the check tier again and again for CHECK_S
# seconds, then the quick tier until BUDGET seconds have passed since the start. Runs, logs
# and timings go to $OUT.
set -u
# shellcheck source=machine_build.sh
. "$(dirname "$0")/machine_build.sh"
start=$(date +%s); deadline=$((start + ${BUDGET:-470})); check_until=$((start + ${CHECK_S:-250}))
machine_info
build_there membench || exit 1
echo "built after $(( $(date +%s) - start )) s" >> "$OUT/info.txt"
run() {  # tier index
  local dir="runs/$1$2"; mkdir -p "$dir"; local t0; t0=$(date +%s%N)
  build/bench/bin/membench --devices=all --peers=none --suite="$1" --benchmark_out="$dir/membench.json" > "$dir/log.txt" 2>&1
  local rc=$?; echo "$1$2 rc=$rc $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$OUT/info.txt"
}
r=0; while [ "$(date +%s)" -lt "$check_until" ]; do r=$((r + 1)); run check "$r"; done
r=0; while [ $(( $(date +%s) + 35 )) -lt "$deadline" ]; do r=$((r + 1)); run quick "$r"; done
tar cJf "$OUT/runs.tar.xz" runs
cat "$OUT/info.txt"
