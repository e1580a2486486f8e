#!/usr/bin/env bash
# On the GPU machine: build membench and membench-report (sm_90); the node check end to end
# (tools/run/membench-check against reference/node_check.json), timed; then check-tier runs
# for CHECK_S seconds and quick-tier runs until BUDGET seconds from the start.
set -u
# shellcheck source=machine_build.sh
. "$(dirname "$0")/machine_build.sh"
start=$(date +%s); deadline=$((start + ${BUDGET:-470})); check_until=$((start + ${CHECK_S:-250}))
machine_info
build_there membench membench-report || exit 1
echo "built after $(( $(date +%s) - start )) s" >> "$OUT/info.txt"
t0=$(date +%s%N)
tools/run/membench-check --bin=build/bench/bin --out=runs/e2e > "$OUT/check_e2e.txt" 2> "$OUT/check_e2e.err"
echo "membench-check rc=$? $(( ($(date +%s%N) - t0) / 1000000 )) ms (wall, 8 runs and the verdict)" >> "$OUT/info.txt"
build/bench/bin/membench-report fleet runs/e2e --by=level --baseline=reference/node_check.json --format=json > "$OUT/check_e2e.json" 2>/dev/null
run() {
  local dir="runs/$1$2"; mkdir -p "$dir"; local t0; t0=$(date +%s%N)
  build/bench/bin/membench --devices=all --peers=none --suite="$1" --benchmark_out="$dir/membench.json" > "$dir/log.txt" 2>&1
  local rc=$?; echo "$1$2 rc=$rc $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$OUT/info.txt"
}
r=0; while [ "$(date +%s)" -lt "$check_until" ]; do r=$((r + 1)); run check "$r"; done
r=0; while [ $(( $(date +%s) + 35 )) -lt "$deadline" ]; do r=$((r + 1)); run quick "$r"; done
tar cJf "$OUT/runs.tar.xz" runs
cat "$OUT/info.txt"; cat "$OUT/check_e2e.txt" | head -20; cat "$OUT/check_e2e.err"
