#!/usr/bin/env bash
# run_local.sh [GPU...] | --help: the array without Slurm, on this machine. Runs membench_array.sbatch
# once per GPU (default: every GPU nvidia-smi lists), one after another, each with only its
# GPU visible (CUDA_VISIBLE_DEVICES=N) as a Slurm task would be, then membench_fleet.sbatch
# over the run's folder. The same variables as submit.sh (MEMBENCH_BIN, MEMBENCH_BUILDS,
# MEMBENCH_TIER, MEMBENCH_FILTER, MEMBENCH_ARGS, MEMBENCH_RUNS, MEMBENCH_RESULTS_ROOT,
# MEMBENCH_REPORT).
# GPU: an index as nvidia-smi numbers them (0, 1, ...), each once.
# Output: the folder, $MEMBENCH_RESULTS_ROOT/membench-local-<date>_<time>/.
# Exit: 0 for --help; 2 a GPU argument that is no index, before anything runs; else the
# fleet report's (0 no outlier, 1 an outlier, 2 unusable input), or the worst
# task's when a task failed; 130 or 143 when a signal (Ctrl-C, SIGTERM) stopped it: no
# further GPU is run and no fleet report is made.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
: "${MEMBENCH_BIN:=$repo/build/suite/bin}"
: "${MEMBENCH_RESULTS_ROOT:=$repo/results}"
export MEMBENCH_BIN MEMBENCH_RESULTS_ROOT

usage="usage: run_local.sh [GPU...] (GPU: an index as nvidia-smi numbers them; none: every GPU)"
case ${1:-} in -h | --help) echo "$usage"; exit 0 ;; esac
gpus=("$@")
if [ ${#gpus[@]} -eq 0 ]; then
  mapfile -t gpus < <(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null)
  [ ${#gpus[@]} -gt 0 ] || { echo "run_local.sh: nvidia-smi lists no GPU; name them: run_local.sh 0 1" >&2; exit 2; }
fi
# Each GPU a whole number, once, checked before anything runs: anything else would reach
# CUDA_VISIBLE_DEVICES (an option as a device list) and name a task folder.
declare -A seen=()
for gpu in "${gpus[@]}"; do
  case $gpu in
    [0-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;;
    *) echo "run_local.sh: '$gpu' is no GPU index; $usage" >&2; exit 2 ;;
  esac
  [ -z "${seen[$gpu]:-}" ] || { echo "run_local.sh: GPU $gpu named twice; $usage" >&2; exit 2; }
  seen[$gpu]=1
done
export CUDA_DEVICE_ORDER=PCI_BUS_ID  # indices as nvidia-smi numbers them
MEMBENCH_RUN_ID="local-$(date +%Y%m%d_%H%M%S)"
export MEMBENCH_RUN_ID
# A task stopped by a signal exits 130 or 143 itself, which bash alone takes as one task's
# exit code and goes on to the next GPU: the traps and the codes end the run.
stop() { echo "run_local.sh: stopped by a signal (exit $1); nothing further is run" >&2; exit "$1"; }
trap 'stop 130' INT
trap 'stop 143' TERM
rc=0
for gpu in "${gpus[@]}"; do
  CUDA_VISIBLE_DEVICES=$gpu MEMBENCH_TASK=$gpu bash "$here/membench_array.sbatch"
  code=$?
  case $code in 130 | 143) stop "$code" ;; esac
  [ "$code" -gt "$rc" ] && rc=$code
done
MEMBENCH_RESULTS="$MEMBENCH_RESULTS_ROOT/membench-$MEMBENCH_RUN_ID" bash "$here/membench_fleet.sbatch"
fleet=$?
case $fleet in 130 | 143) stop "$fleet" ;; esac
echo "run_local.sh: results in $MEMBENCH_RESULTS_ROOT/membench-$MEMBENCH_RUN_ID (tasks: worst exit $rc; fleet: exit $fleet)"
[ "$rc" -ne 0 ] && exit "$rc"
exit "$fleet"
