#!/usr/bin/env bash
# R=membench-report [MISSES=5] [HOSTS=12] evaluate.sh WORK COMPARE OPTIONS (from the repository
# root): the CI workflow's layout on this folder's fresh runs (six kernel processes runNN,
# and host-work processes hostNN). A side = three kernel processes + HOSTS host-work processes
# (12, the workflow's; 8, its earlier setting). Host processes are cut into consecutive
# blocks of HOSTS, wrapping round (40 processes, 16: 1-16, 17-32, 33-40+1-8, 9-24); three A/A pairs of
# disjoint sides (blocks 1|2, 2|3, 3|4), both orders; and the same pairs with the new side's
# runs made 3, 5 and 10 % slower (tools/inject_slowdown.py: times, intervals and kept samples
# multiplied).
set -euo pipefail
R=$(realpath "${R:?the membench-report binary}"); here=$(cd "$(dirname "$0")" && pwd); work=$1; shift
HOSTS=${HOSTS:-12}
total=$(ls "$here"/host*.json | wc -l)
if [ "$HOSTS" -lt 1 ] || [ $((2 * HOSTS)) -gt "$total" ]; then
  echo "HOSTS must be between 1 and $((total / 2))" >&2; exit 2
fi
mkdir -p "$work"
for s in 3 5 10; do
  mkdir -p "$work/inj$s"
  for f in "$here"/*.json; do
    [ -f "$work/inj$s/$(basename "$f")" ] || python3 tools/inject_slowdown.py "$f" "$work/inj$s/$(basename "$f")" --slowdown $s >/dev/null
  done
done
block() {  # block K: host processes of the K-th block (0-based) of HOSTS, wrapping round
  local i out=""
  for ((i = $1 * HOSTS; i < ($1 + 1) * HOSTS; i++)); do out+="$((i % total + 1)) "; done
  echo "$out"
}
side() {  # side DIR KERNEL_RUNS HOST_RUNS: comma-separated files
  local d=$1 out="" i
  for i in $2; do out+="$d/run$(printf %02d $i).json,"; done
  for i in $3; do out+="$d/host$(printf %02d $i).json,"; done
  echo "$out"
}
# Kernel processes 1-3 | 4-6, odd | even, 1,2,4 | 3,5,6.
ka=("1 2 3" "1 3 5" "1 2 4"); kb=("4 5 6" "2 4 6" "3 5 6")
args=()
for j in 0 1 2; do
  A=$(side "$here" "${ka[$j]}" "$(block $j)"); B=$(side "$here" "${kb[$j]}" "$(block $((j + 1)))")
  args+=(--aa "$A" "$B" --aa "$B" "$A")
  for s in 3 5 10; do
    args+=(--injected "$A" "$(side "$work/inj$s" "${kb[$j]}" "$(block $((j + 1)))")")
    args+=(--injected "$B" "$(side "$work/inj$s" "${ka[$j]}" "$(block $j)")")
  done
done
python3 tools/gate_power.py --report "$R" ${MISSES:+--misses "$MISSES"} "${args[@]}" -- "$@"
