#!/usr/bin/env bash
# R=membench-report [MISSES=5] [HOSTS=8|12] evaluate.sh WORK COMPARE OPTIONS (from the repository
# root): the CI workflow's layout on this folder's fresh runs (six kernel processes runNN,
# 24 host-work processes hostNN). A side = three kernel processes + HOSTS host-work processes
# (8, the workflow's; 12, what four more a side buy). Three A/A pairs of disjoint sides, both
# orders; and the same pairs with the new side's runs made 3, 5 and 10 % slower
# (tools/inject_slowdown.py: times, intervals and kept samples multiplied).
set -euo pipefail
R=$(realpath "${R:?the membench-report binary}"); here=$(cd "$(dirname "$0")" && pwd); work=$1; shift
HOSTS=${HOSTS:-8}
mkdir -p "$work"
for s in 3 5 10; do
  mkdir -p "$work/inj$s"
  for f in "$here"/*.json; do
    [ -f "$work/inj$s/$(basename "$f")" ] || python3 tools/inject_slowdown.py "$f" "$work/inj$s/$(basename "$f")" --slowdown $s >/dev/null
  done
done
side() {  # side DIR KERNEL_RUNS HOST_RUNS: comma-separated files
  local d=$1 out="" i
  for i in $2; do out+="$d/run$(printf %02d $i).json,"; done
  for i in $3; do out+="$d/host$(printf %02d $i).json,"; done
  echo "$out"
}
# Kernel processes 1-3 | 4-6, odd | even, 1,2,4 | 3,5,6.
ka=("1 2 3" "1 3 5" "1 2 4"); kb=("4 5 6" "2 4 6" "3 5 6")
if [ "$HOSTS" = 8 ]; then  # host processes 1-8 | 9-16, 9-16 | 17-24, 17-24 | 1-8
  ha=("$(seq -s ' ' 1 8)" "$(seq -s ' ' 9 16)" "$(seq -s ' ' 17 24)")
  hb=("$(seq -s ' ' 9 16)" "$(seq -s ' ' 17 24)" "$(seq -s ' ' 1 8)")
elif [ "$HOSTS" = 12 ]; then  # 1-12 | 13-24, odd | even, 1-6,13-18 | 7-12,19-24
  ha=("$(seq -s ' ' 1 12)" "$(seq -s ' ' 1 2 23)" "$(seq -s ' ' 1 6) $(seq -s ' ' 13 18)")
  hb=("$(seq -s ' ' 13 24)" "$(seq -s ' ' 2 2 24)" "$(seq -s ' ' 7 12) $(seq -s ' ' 19 24)")
else
  echo "HOSTS must be 8 or 12" >&2; exit 2
fi
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
