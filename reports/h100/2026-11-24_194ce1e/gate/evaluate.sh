#!/usr/bin/env bash
# R=membench-report [MISSES=5] evaluate.sh WORK COMPARE OPTIONS (from the repository root): the CI
# workflow's layout on this folder's fresh runs. A side = three kernel processes (runNN) +
# host-work processes (hostNN). Three A/A pairs of disjoint sides, both orders; and the
# same pairs with the new side's runs made 3, 5 and 10 % slower (tools/inject_slowdown.py).
set -euo pipefail
R=$(realpath "${R:?the membench-report binary}"); here=$(cd "$(dirname "$0")" && pwd); work=$1; shift
mkdir -p "$work"
for s in 3 5 10; do
  mkdir -p "$work/inj$s"
  for f in "$here"/*.json; do
    python3 tools/inject_slowdown.py "$f" "$work/inj$s/$(basename "$f")" --slowdown $s >/dev/null
  done
done
side() {  # side DIR KERNEL_RUNS HOST_RUNS: comma-separated files
  local d=$1 out="" i
  for i in $2; do out+="$d/run$(printf %02d $i).json,"; done
  for i in $3; do out+="$d/host$(printf %02d $i).json,"; done
  echo "$out"
}
# The three pairs: kernel processes 1-3 | 4-6, odd | even, 1,2,4 | 3,5,6; host processes
# 1-8 | 9-15, odd | even, 1-4,9-12 | 5-8,13-15 (fifteen host runs came back, so one side of
# each pair has eight and calibrates, the other seven).
ka=("1 2 3" "1 3 5" "1 2 4"); kb=("4 5 6" "2 4 6" "3 5 6")
ha=("1 2 3 4 5 6 7 8" "1 3 5 7 9 11 13 15" "1 2 3 4 9 10 11 12"); hb=("9 10 11 12 13 14 15" "2 4 6 8 10 12 14" "5 6 7 8 13 14 15")
args=()
for j in 0 1 2; do
  A=$(side "$here" "${ka[$j]}" "${ha[$j]}"); B=$(side "$here" "${kb[$j]}" "${hb[$j]}")
  args+=(--aa "$A" "$B" --aa "$B" "$A")
  for s in 3 5 10; do
    args+=(--injected "$A" "$(side "$work/inj$s" "${kb[$j]}" "${hb[$j]}")")
    args+=(--injected "$B" "$(side "$work/inj$s" "${ka[$j]}" "${ha[$j]}")")
  done
done
python3 tools/gate_power.py --report "$R" ${MISSES:+--misses "$MISSES"} "${args[@]}" -- "$@"
