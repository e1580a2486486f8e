#!/usr/bin/env bash
# R=membench-report [MISSES=5] [HOSTS=12] [EVERY=N [PHASE=K]] evaluate.sh WORK COMPARE OPTIONS (from the repository
# root): the CI workflow's layout on this folder's fresh runs (six kernel processes runNN,
# and host-work processes hostNN). A side = three kernel processes + HOSTS host-work processes
# (16, the workflow's; 8 and 12, earlier settings). Host processes are cut into consecutive
# blocks of HOSTS, wrapping round (40 processes, 16: 1-16, 17-32, 33-40+1-8, 9-24); three A/A pairs of
# disjoint sides (blocks 1|2, 2|3, 3|4), both orders; and the same pairs with the new side's
# runs made 3, 5 and 10 % slower (tools/inject_slowdown.py: times, intervals and kept samples
# multiplied). Every row of a copy is slower, unless EVERY=N: then every N-th row of each file,
# as when a change slows a few benchmarks among many, in N copies of each (phases 0 to N - 1,
# or only PHASE=K) so that every row is slowed in one of them.
set -euo pipefail
R=$(realpath "${R:?the membench-report binary}"); here=$(cd "$(dirname "$0")" && pwd); work=$1; shift
HOSTS=${HOSTS:-12}
total=$(ls "$here"/host*.json | wc -l)
if [ "$HOSTS" -lt 1 ] || [ $((2 * HOSTS)) -gt "$total" ]; then
  echo "HOSTS must be between 1 and $((total / 2))" >&2; exit 2
fi
mkdir -p "$work"
EVERY=${EVERY:-1}
phases=${PHASE:-$(seq 0 $((EVERY - 1)))}
inj() { [ "$EVERY" -eq 1 ] && echo "$work/inj$1" || echo "$work/inj$1_every${EVERY}_phase$2"; }
for p in $phases; do
  for s in 3 5 10; do
    mkdir -p "$(inj $s $p)"
    for f in "$here"/*.json; do
      [ -f "$(inj $s $p)/$(basename "$f")" ] ||
        python3 tools/inject_slowdown.py "$f" "$(inj $s $p)/$(basename "$f")" --slowdown $s --every "$EVERY" --phase "$p" 2>/dev/null
    done
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
  for p in $phases; do
    for s in 3 5 10; do
      args+=(--injected "$A" "$(side "$(inj $s $p)" "${kb[$j]}" "$(block $((j + 1)))")")
      args+=(--injected "$B" "$(side "$(inj $s $p)" "${ka[$j]}" "$(block $j)")")
    done
  done
done
python3 tools/gate_power.py --report "$R" ${MISSES:+--misses "$MISSES"} "${args[@]}" -- "$@"
