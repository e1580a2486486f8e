#!/usr/bin/env bash
# submit.sh [array|node|srun]: submits a membench run over a fleet's GPUs and, depending on it
# (afterany), the fleet report; prints both job ids and the results folder.
#   array  one job array task per GPU (membench_array.sbatch, MEMBENCH_GPUS tasks)
#   node   one job array task per node, every GPU of it at once (membench_node.sbatch, MEMBENCH_NODES)
#   srun   one allocation of MEMBENCH_GPUS tasks, one GPU each, started by one srun (membench_srun.sbatch)
# Output, one line each: "membench job ID", "fleet job ID", "results DIR".
# Exit: 0 both submitted; 2 a bad mode, an argument after it, or a bad count (MEMBENCH_GPUS,
# MEMBENCH_NODES: 1 to 100000; MEMBENCH_RUNS: 1 to 1000), a blank MEMBENCH_BUILDS or a build
# name with a slash or leading dot or named twice, a MEMBENCH_BASELINE that is not a readable file, a
# MEMBENCH_RESULTS_ROOT that cannot be made a folder, an option in MEMBENCH_SBATCH_ARGS that
# submit.sh sets itself (--array, --ntasks, --output, --dependency, --parsable, --time, --export;
# --partition and --account where MEMBENCH_PARTITION or MEMBENCH_ACCOUNT is set), or sbatch refused
# or printed no job id. The settings reach the jobs in the environment (sbatch --export=ALL).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

# ---- site options: edit here, or set them in the environment -------------------------------
: "${MEMBENCH_PARTITION:=}"                          # sbatch -p; empty: the cluster's default
: "${MEMBENCH_ACCOUNT:=}"                            # sbatch -A; empty: none
: "${MEMBENCH_TIME:=01:00:00}"                       # sbatch -t for each job (quick tier: minutes)
: "${MEMBENCH_GPUS:=8}"                              # array, srun: how many GPUs, one task each
: "${MEMBENCH_NODES:=1}"                             # node: how many nodes, one task each
: "${MEMBENCH_TIER:=quick}"                          # quick | default | full
: "${MEMBENCH_BUILDS:=membench membench_ca membench_cg}"
: "${MEMBENCH_FILTER:=}"                             # a --benchmark_filter regex; empty: the whole tier
: "${MEMBENCH_ARGS:=}"                               # more membench options
: "${MEMBENCH_RUNS:=1}"                              # runs of each build on each GPU (4: see the README)
: "${MEMBENCH_BIN:=$repo/build/suite/bin}"           # the builds' folder (tools/run/suite.sh's, or a bundle)
: "${MEMBENCH_REPORT:=$MEMBENCH_BIN/membench-report}"
: "${MEMBENCH_RESULTS_ROOT:=$repo/results}"          # on a file system every node sees
: "${MEMBENCH_BASELINE:=}"                           # judge against a stored fleet-baseline.json
: "${MEMBENCH_SBATCH_ARGS:=}"                        # more sbatch options (--qos=..., --constraint=...), blank-separated
# ---- end of site options -------------------------------------------------------------------

# count NAME MAX: NAME holds a whole number from 1 to MAX, else exit 2. Checked before any
# arithmetic: bash's $(( )) evaluates a name in it, and runs a $() in an index (x[$(...)]).
count() {
  local value=${!1}
  case $value in
    '' | *[!0-9]* | 0*) ;;
    *) [ "${#value}" -le 6 ] && [ "$value" -le "$2" ] && return 0 ;;
  esac
  echo "submit.sh: $1=$value: a whole number, 1 to $2" >&2
  exit 2
}
# One argument at most: an option it does not know (--dry-run, say) must never be a real
# submission of a fleet's worth of GPU jobs.
if [ $# -gt 1 ]; then
  echo "submit.sh: one argument, the mode; '$2' is not taken (see --help)" >&2
  exit 2
fi
mode=${1:-array}
case $mode in
  array | node | srun) count MEMBENCH_RUNS 1000 ;;
esac
# membench's own tiers: another name would start every task only for each to refuse it.
case $mode:$MEMBENCH_TIER in
  array:* | node:* | srun:*)
    case $MEMBENCH_TIER in
      check | quick | default | full) ;;
      *) echo "submit.sh: MEMBENCH_TIER=$MEMBENCH_TIER is none of check, quick, default, full" >&2; exit 2 ;;
    esac ;;
esac
case $mode in
  array) count MEMBENCH_GPUS 100000; script=membench_array.sbatch shape=(--array="0-$((MEMBENCH_GPUS - 1))") ;;
  node) count MEMBENCH_NODES 100000; script=membench_node.sbatch shape=(--array="0-$((MEMBENCH_NODES - 1))") ;;
  srun) count MEMBENCH_GPUS 100000; script=membench_srun.sbatch shape=(--ntasks="$MEMBENCH_GPUS") ;;
  -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
  *) echo "submit.sh: mode must be array, node or srun (see --help)" >&2; exit 2 ;;
esac
# Checked here, not an hour later in every task: blank builds would have each task refuse
# them, and a name with a slash or a leading dot is refused there too.
read -r -a builds <<<"$MEMBENCH_BUILDS"
if [ "${#builds[@]}" -eq 0 ]; then
  echo "submit.sh: MEMBENCH_BUILDS names no build; nothing submitted" >&2
  exit 2
fi
for build in "${builds[@]}"; do
  [[ $build =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] ||
    { echo "submit.sh: MEMBENCH_BUILDS: build '$build': letters, digits, . _ - (a program of MEMBENCH_BIN); nothing submitted" >&2; exit 2; }
done
# A build named twice would run twice in every task, the second file over the first's result.
twice=$(printf '%s\n' "${builds[@]}" | sort | uniq -d | head -n 1)
[ -z "$twice" ] || { echo "submit.sh: MEMBENCH_BUILDS names build '$twice' twice: give it once; nothing submitted" >&2; exit 2; }
# The fleet job reads the baseline after the whole run: a missing one would fail it only then.
# The nodes see this file system (the results root is on it too), so it is checked here.
if [ -n "$MEMBENCH_BASELINE" ] && { [ ! -f "$MEMBENCH_BASELINE" ] || [ ! -r "$MEMBENCH_BASELINE" ]; }; then
  echo "submit.sh: MEMBENCH_BASELINE=$MEMBENCH_BASELINE: not a readable file; nothing submitted" >&2
  exit 2
fi
export MEMBENCH_TIER MEMBENCH_BUILDS MEMBENCH_FILTER MEMBENCH_ARGS MEMBENCH_RUNS MEMBENCH_BIN \
  MEMBENCH_REPORT MEMBENCH_RESULTS_ROOT MEMBENCH_BASELINE
export MEMBENCH_SLURM_DIR=$here
logs="$MEMBENCH_RESULTS_ROOT/slurm-logs"
if ! err=$(mkdir -p "$logs" 2>&1); then
  echo "submit.sh: MEMBENCH_RESULTS_ROOT=$MEMBENCH_RESULTS_ROOT: cannot make its slurm-logs folder (${err##*: }); nothing submitted" >&2
  exit 2
fi

# The settings above reach the jobs only through the environment: --export=ALL, over a site's
# SBATCH_EXPORT=NONE, else each task would run its defaults (the quick tier) unsaid.
site=(--parsable --export=ALL -t "$MEMBENCH_TIME")
[ -n "$MEMBENCH_PARTITION" ] && site+=(-p "$MEMBENCH_PARTITION")
[ -n "$MEMBENCH_ACCOUNT" ] && site+=(-A "$MEMBENCH_ACCOUNT")
# More sbatch options word by word, never expanded as file names (read reaches the end: 1).
read -r -d '' -a more <<<"$MEMBENCH_SBATCH_ARGS" || true
# The options this script sets itself, as long name:short letter:what sets it. Given in
# MEMBENCH_SBATCH_ARGS as well, sbatch would take whichever came last: one of the two passed
# over unsaid (the site's --array, or the run's shape). Partition and account only when set.
owned=("array:a:the mode and MEMBENCH_GPUS or MEMBENCH_NODES" "ntasks:n:the mode and MEMBENCH_GPUS"
  "output:o:the logs go to MEMBENCH_RESULTS_ROOT/slurm-logs" "dependency:d:the fleet job's, on the run"
  "parsable::this script reads the job id" "time:t:MEMBENCH_TIME"
  "export::the settings reach the jobs through the environment, all of it")
[ -n "$MEMBENCH_PARTITION" ] && owned+=("partition:p:MEMBENCH_PARTITION")
[ -n "$MEMBENCH_ACCOUNT" ] && owned+=("account:A:MEMBENCH_ACCOUNT")
# refuse_owned WORD: exit 2 where WORD is one of those options: long (sbatch takes any
# unambiguous start of a long name, --arr=0-3 too) or short (-a0-3, -a 0-3).
refuse_owned() {
  local entry name short why given=${1%%=*}
  for entry in "${owned[@]}"; do
    IFS=: read -r name short why <<<"$entry"
    if { [[ $given == --?* ]] && [[ $name == "${given#--}"* ]]; } ||
       { [ -n "$short" ] && [[ $1 == -"$short"* ]]; }; then
      echo "submit.sh: MEMBENCH_SBATCH_ARGS: $1 is an option submit.sh sets itself (--$name: $why); nothing submitted" >&2
      exit 2
    fi
  done
}
for word in "${more[@]}"; do refuse_owned "$word"; done
site+=("${more[@]}")

out="$logs/%x-%A_%a.out"
[ "$mode" = srun ] && out="$logs/%x-%j.out"
# job_id TEXT: the job id sbatch printed, as --parsable does ("id" or "id;cluster") or as a
# wrapper that drops --parsable does ("Submitted batch job id"); none: empty.
job_id() {
  local line id=''
  while IFS= read -r line; do
    line=${line%%;*}
    [[ $line =~ ^[[:space:]]*([0-9]+)[[:space:]]*$ || $line =~ ^Submitted\ batch\ job\ ([0-9]+) ]] && id=${BASH_REMATCH[1]}
  done <<<"$1"
  printf '%s' "$id"
}
# sbatch may refuse without a word of its own: the refusal is said here, with its exit code.
printed=$(sbatch "${site[@]}" "${shape[@]}" --output="$out" "$here/$script") ||
  { echo "submit.sh: sbatch $script exited $?: the membench job was not submitted" >&2; exit 2; }
job=$(job_id "$printed")
# No id, no dependency: a fleet job on "afterany:" would run at once, on no results.
if [ -z "$job" ]; then
  echo "submit.sh: sbatch printed no job id for the membench job (it printed: '$(printf '%s' "$printed" | head -n 1 | head -c 100 | iconv -c -f UTF-8 -t UTF-8 2>/dev/null)'); no fleet job submitted" >&2
  exit 2
fi
export MEMBENCH_RESULTS="$MEMBENCH_RESULTS_ROOT/membench-$job"
printed=$(sbatch "${site[@]}" --dependency="afterany:$job" --output="$logs/%x-%j.out" \
  "$here/membench_fleet.sbatch") ||
  { echo "submit.sh: sbatch membench_fleet.sbatch exited $?: the fleet job was refused; run $job goes on" >&2; exit 2; }
fleet=$(job_id "$printed")
[ -n "$fleet" ] || { echo "submit.sh: sbatch printed no job id for the fleet job; run $job goes on" >&2; exit 2; }
echo "membench job ${job}"
echo "fleet job ${fleet}"
echo "results $MEMBENCH_RESULTS"
