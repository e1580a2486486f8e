#!/usr/bin/env bash
# R=membench-report [MISSES=5] [ROWS_BELOW=20] [HOSTS=16 | PAIRS=...] [EVERY=N [PHASE=K]] tools/gate/gate_evaluate.sh SET WORK [COMPARE OPTIONS]
# (from the repository root): the CI workflow's layout on a folder SET of fresh runs of one
# commit (six kernel processes runNN.json, host-work processes hostNN.json), measured with
# tools/gate/gate_power.py; WORK keeps the injected copies (reused when there).
#   A side = three kernel processes + host-work processes. Three A/A pairs of disjoint
#   sides, both orders: kernel processes 1-3 | 4-6, odd | even, 1,2,4 | 3,5,6; host
#   processes in consecutive blocks of HOSTS (default 16, the workflow's), wrapping round
#   (40 processes, 16: 1-16 | 17-32, 17-32 | 33-40+1-8, 33-40+1-8 | 9-24), or the three
#   pairs PAIRS="A/B|A/B|A/B" (A, B: host process numbers separated by spaces).
#   Injected: the same pairs with the new side's runs made 3, 5 and 10 % slower
#   (tools/gate/inject_slowdown.py: times, intervals and kept samples multiplied). Every row of
#   a copy is slower, unless EVERY=N: then every N-th row of each file, as when a change
#   slows a few benchmarks among many, in N copies (phases 0 to N - 1, or only PHASE=K) so
#   that every row is slowed in one of them.
# R not an executable file, WORK not a folder that can be made: exit 2, said, nothing made.
# HOSTS and PAIRS together: exit 2, said. HOSTS, EVERY, PHASE and PAIRS' numbers are whole
# numbers (else exit 2, said); MISSES and ROWS_BELOW are gate_power.py's to check. A run of
# SET that inject_slowdown.py cannot use (cut short, not JSON) stops it, exit 2, with the file
# and inject_slowdown.py's error.
set -euo pipefail
say() { echo "gate_evaluate.sh: $*" >&2; }
[ $# -ge 2 ] || { echo "usage: R=membench-report tools/gate/gate_evaluate.sh SET WORK [COMPARE OPTIONS]" >&2; exit 2; }
[ -n "${R:-}" ] || { say "R: set it to the membench-report binary"; exit 2; }
# Checked here, said, exit 2: under set -e a failing realpath or mkdir would end it with 1,
# which its callers read as gate_power's "compare fails on a pair".
[ -f "$R" ] && [ -x "$R" ] || { say "R=$R: no membench-report there (not an executable file)"; exit 2; }
R=$(realpath -- "$R"); here=$(cd -- "$1" 2>/dev/null && pwd) || { say "$1: no such folder"; exit 2; }; work=$2; shift 2
[ -n "$work" ] || { say "WORK names no folder"; exit 2; }
[ ! -e "$work" ] || [ -d "$work" ] || { say "WORK=$work: not a folder (the injected copies go there); nothing made"; exit 2; }
tools=$(cd "$(dirname "$0")/.." && pwd)  # the tools folder
export PYTHONPATH="$tools/../python${PYTHONPATH:+:$PYTHONPATH}"  # the membench package the scripts import
# whole NAME VALUE: VALUE is a whole number (no sign, no leading zero, at most 6 digits), else
# exit 2. Checked before any test or arithmetic: [ -lt ] meets a word with a bash error, $(( ))
# evaluates a name in it and runs a $() in an index, and 08 is no octal number.
whole() {
  case $2 in
    0 | [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9][0-9]) ;;
    *) say "$1: '$2' is not a whole number"; exit 2 ;;
  esac
}
# One or the other: with both, PAIRS would make the HOSTS asked for moot, unsaid.
[ -z "${HOSTS:-}" ] || [ -z "${PAIRS:-}" ] || { say "HOSTS=$HOSTS and PAIRS=$PAIRS: give one or the other"; exit 2; }
total=$(find "$here" -maxdepth 1 -name 'host*.json' | wc -l)
if [ -n "${PAIRS:-}" ]; then
  IFS='|' read -r -a pairs <<< "$PAIRS"
  [ ${#pairs[@]} -eq 3 ] || { say "PAIRS must give three pairs A/B|A/B|A/B"; exit 2; }
  for j in 0 1 2; do
    [[ ${pairs[$j]} == */* ]] || { say "PAIRS: '${pairs[$j]}' is no pair A/B"; exit 2; }
    ha[$j]=${pairs[$j]%/*}; hb[$j]=${pairs[$j]#*/}
    [ -n "${ha[$j]// /}" ] && [ -n "${hb[$j]// /}" ] || { say "PAIRS: '${pairs[$j]}' leaves a side empty"; exit 2; }
    # Disjoint sides: a process on both (1/1, a run compared with itself) has no false alarm
    # by construction, and one named twice on a side counts twice.
    declare -A in_pair=()
    for i in ${ha[$j]} ${hb[$j]}; do
      whole PAIRS "$i"
      [ "$i" -ge 1 ] && [ "$i" -le "$total" ] || { say "PAIRS: host process $i: not between 1 and $total"; exit 2; }
      [ -z "${in_pair[$i]:-}" ] || { say "PAIRS: '${pairs[$j]}' names host process $i twice: the sides must be disjoint"; exit 2; }
      in_pair[$i]=1
    done
    unset in_pair
  done
else
  HOSTS=${HOSTS:-16}
  whole HOSTS "$HOSTS"
  if [ "$HOSTS" -lt 1 ] || [ $((2 * HOSTS)) -gt "$total" ]; then
    say "HOSTS=$HOSTS: must be between 1 and $((total / 2)) ($total host processes)"; exit 2
  fi
  block() {  # block K: host processes of the K-th block (0-based) of HOSTS, wrapping round
    local i out=""
    for ((i = $1 * HOSTS; i < ($1 + 1) * HOSTS; i++)); do out+="$((i % total + 1)) "; done
    echo "$out"
  }
  for j in 0 1 2; do ha[$j]=$(block $j); hb[$j]=$(block $((j + 1))); done
fi
EVERY=${EVERY:-1}
whole EVERY "$EVERY"
[ "$EVERY" -ge 1 ] || { say "EVERY=$EVERY: must be 1 or more"; exit 2; }
if [ -n "${PHASE:-}" ]; then
  whole PHASE "$PHASE"
  [ "$PHASE" -lt "$EVERY" ] || { say "PHASE=$PHASE: must be between 0 and EVERY - 1 ($((EVERY - 1)))"; exit 2; }
fi
mkdir -p -- "$work" 2>/dev/null || { say "WORK=$work: cannot make the folder"; exit 2; }
phases=${PHASE:-$(seq 0 $((EVERY - 1)))}
inj() { [ "$EVERY" -eq 1 ] && echo "$work/inj$1" || echo "$work/inj$1_every${EVERY}_phase$2"; }
for p in $phases; do
  for s in 3 5 10; do
    mkdir -p -- "$(inj $s $p)"
    for f in "$here"/*.json; do
      [ -f "$(inj $s $p)/$(basename "$f")" ] && continue
      # Its line for each copy made is noise; its error is the one thing to say.
      if ! err=$(python3 "$tools/gate/inject_slowdown.py" "$f" "$(inj $s $p)/$(basename "$f")" --slowdown $s \
                   --every "$EVERY" --phase "$p" 2>&1 >/dev/null); then
        say "$f: no injected copy: ${err:-inject_slowdown.py failed}"; exit 2
      fi
    done
  done
done
side() {  # side DIR KERNEL_RUNS HOST_RUNS: comma-separated files
  local d=$1 out="" i
  for i in $2; do out+="$d/run$(printf %02d $i).json,"; done
  for i in $3; do out+="$d/host$(printf %02d $i).json,"; done
  echo "$out"
}
ka=("1 2 3" "1 3 5" "1 2 4"); kb=("4 5 6" "2 4 6" "3 5 6")
args=()
for j in 0 1 2; do
  A=$(side "$here" "${ka[$j]}" "${ha[$j]}"); B=$(side "$here" "${kb[$j]}" "${hb[$j]}")
  args+=(--aa "$A" "$B" --aa "$B" "$A")
  for p in $phases; do
    for s in 3 5 10; do
      args+=(--injected "$A" "$(side "$(inj $s $p)" "${kb[$j]}" "${hb[$j]}")")
      args+=(--injected "$B" "$(side "$(inj $s $p)" "${ka[$j]}" "${ha[$j]}")")
    done
  done
done
python3 "$tools/gate/gate_power.py" --report "$R" ${MISSES:+--misses "$MISSES"} ${ROWS_BELOW:+--rows-below "$ROWS_BELOW"} "${args[@]}" -- "$@"
