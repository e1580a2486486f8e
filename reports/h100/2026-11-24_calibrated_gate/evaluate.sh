#!/usr/bin/env bash
# R=membench-report WORK=folder [MISSES=5] evaluate.sh COMPARE OPTIONS: the CI layout on real runs: kernel rows
# three runs a side, host-work rows eight a side (tools/gate/gate_power.py over twelve A/A pairs and
# eighteen injected copies).
R=$(realpath "${R:?the membench-report binary}"); tools=$(cd "$(dirname "$0")/../../../tools" && pwd); cd "${WORK:?the folder prepare.sh filled}"
opts=("$@")
kp=("1 2" "3 4" "5 6" "1 3" "2 4" "5 1")
aa=(); inj3=(); inj5=(); inj10=()
trip(){ local t=$1 pre=$2; for r in $(( 3*t-2 )) $(( 3*t-1 )) $(( 3*t )); do printf "k/${pre}run%02d.json," $r; done; }
for j in 0 1 2 3 4 5; do
  set -- ${kp[$j]}; ka=$1; kb=$2
  b=(); n=(); for k in 0 1 2 3 4 5 6 7; do b+=($(( (3*j+k)%18+1 ))); n+=($(( (3*j+8+k)%18+1 ))); done
  B=$(trip $ka "")$(for i in ${b[@]}; do printf "h/hc%02d.json," $i; done)
  N=$(trip $kb "")$(for i in ${n[@]}; do printf "h/hc%02d.json," $i; done)
  aa+=(--aa $B $N --aa $N $B)
  for s in 3 5 10; do
    NI=$(trip $kb "inj$s/")$(for i in ${n[@]}; do printf "h/inj$s/hc%02d.json," $i; done)
    eval "inj$s+=(--injected $B $NI)"
  done
done
python3 "$tools/gate/gate_power.py" --report $R ${MISSES:+--misses $MISSES} "${aa[@]}" "${inj3[@]}" "${inj5[@]}" "${inj10[@]}" -- "${opts[@]}"
