#!/usr/bin/env bash
# On a warm GPU machine whose build/bench is built: check-tier runs for CHECK_S seconds, packed
# into $OUT/runs.tar.xz (at most 8 files come back), with the machine's info.
set -u
# shellcheck source=machine_build.sh
. "$(dirname "$0")/machine_build.sh"
start=$(date +%s); until=$((start + ${CHECK_S:-240}))
machine_info
[ -x build/bench/bin/membench ] || build_there membench membench-report || exit 1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
r=0; while [ "$(date +%s)" -lt "$until" ]; do r=$((r + 1)); dir="build/runs/check$r"; mkdir -p "$dir"; t0=$(date +%s%N)
  build/bench/bin/membench --devices=all --peers=none --suite=check --benchmark_out="$dir/membench.json" > "$dir/log.txt" 2>&1
  echo "check$r rc=$? $(ms "$t0") ms" >> "$OUT/info.txt"; done
cp "$OUT/info.txt" build/runs/info.txt; tar cJf "$OUT/runs.tar.xz" -C build runs; ls -la "$OUT"; head -4 "$OUT/info.txt"; tail -2 "$OUT/info.txt"
