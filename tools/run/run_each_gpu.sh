#!/usr/bin/env bash
# tools/run/run_each_gpu.sh EXE [RESULTS_DIR] [-- MEMBENCH_ARGS...]: runs one membench build on
# every GPU of this host, one device after another (--device=N), each into its own JSON,
# RESULTS_DIR/<exe>.dev<N>.json (RESULTS_DIR defaults to results). Example:
#   tools/run/run_each_gpu.sh build/bench/bin/membench results -- --benchmark_filter=^peer/
# GPUs are counted with nvidia-smi. Every GPU stays visible to every run (no
# CUDA_VISIBLE_DEVICES): the peer/ rows pair --device with the next device. CUDA numbers
# devices fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID, which this script sets (when it
# is not set already) so that device N is nvidia-smi's GPU N; each JSON's context names the
# device it ran on (name, PCI bus id).
# Exit: 0 when every run succeeded; 2 bad usage; 3 no GPU; 128+N when a run was stopped by
# signal N (the remaining devices are not run); otherwise the first failing run's code.
set -u

usage() {
  echo "usage: $0 EXE [RESULTS_DIR] [-- MEMBENCH_ARGS...]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
exe=$1
shift
results=results
if [ $# -ge 1 ] && [ "$1" != "--" ]; then
  results=$1
  shift
fi
if [ $# -ge 1 ]; then
  [ "$1" = "--" ] || usage
  shift
fi
for arg in "$@"; do
  case $arg in
    --device | --device=* | --benchmark_out | --benchmark_out=* | --benchmark_out_format*)
      echo "run_each_gpu: $arg is set per device by this script; leave it out" >&2
      exit 2
      ;;
  esac
done
if [ ! -x "$exe" ] || [ -d "$exe" ]; then
  echo "run_each_gpu: $exe is not an executable" >&2
  exit 2
fi

if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "run_each_gpu: no GPU found: nvidia-smi is not installed (no NVIDIA driver?)" >&2
  exit 3
fi
if ! listing=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>&1); then
  echo "run_each_gpu: no GPU found: nvidia-smi failed: $listing" >&2
  exit 3
fi
indices=$(printf '%s\n' "$listing" | tr -d ' \r' | grep -E '^[0-9]+$')
if [ -z "$indices" ]; then
  echo "run_each_gpu: no GPU found: nvidia-smi lists none${listing:+ ($listing)}" >&2
  exit 3
fi
count=$(printf '%s\n' "$indices" | wc -l)

export CUDA_DEVICE_ORDER=${CUDA_DEVICE_ORDER:-PCI_BUS_ID}
mkdir -p "$results" || exit 2
name=$(basename "$exe")
rc=0
for idx in $indices; do
  out="$results/$name.dev$idx.json"
  echo "run_each_gpu: device $idx ($count GPUs, CUDA_DEVICE_ORDER=$CUDA_DEVICE_ORDER) -> $out" >&2
  "$exe" --device="$idx" --benchmark_out="$out" --benchmark_out_format=json "$@"
  code=$?
  if [ "$code" -gt 128 ]; then
    echo "run_each_gpu: device $idx stopped by signal $((code - 128)); later devices not run" >&2
    exit "$code"
  fi
  if [ "$code" -ne 0 ]; then
    echo "run_each_gpu: device $idx: $name exited with $code (see $out)" >&2
    [ "$rc" -eq 0 ] && rc=$code
  fi
done
exit "$rc"
