#!/usr/bin/env bash
# On the GPU machine: build membench and membench-report (sm_90); the node check end to end,
# timed; the Slurm health check (integrations/slurm/membench_healthcheck.sh, the real membench,
# a recording scontrol: no Slurm on this machine); with LOADED=1 once more while a second
# membench process copies DRAM on the same GPU; then check-tier runs until BUDGET seconds from the start.
set -u
# shellcheck source=machine_build.sh
. "$(dirname "$0")/machine_build.sh"
start=$(date +%s); deadline=$((start + ${BUDGET:-470}))
machine_info
build_there membench membench-report || exit 1
echo "built after $(( $(date +%s) - start )) s" >> "$OUT/info.txt"
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
t0=$(date +%s%N)
tools/run/membench-check --bin=build/bench/bin --out=build/runs/e2e > "$OUT/check_e2e.txt" 2> "$OUT/check_e2e.err"
echo "membench-check rc=$? $(ms "$t0") ms (wall, 8 runs and the verdict)" >> "$OUT/info.txt"
# The health check: a recording scontrol on PATH that shows the node drained by membench before.
mkdir -p fake; cat > fake/scontrol <<'SC'
#!/bin/bash
{ printf 'scontrol'; printf ' %q' "$@"; printf '\n'; } >> "$SCONTROL_LOG"
if [ "${1:-}" = show ]; then
  printf 'NodeName=%s Arch=x86_64\n   State=%s ThreadsPerCore=1\n' "${3:-}" "${FAKE_STATE:-IDLE}"
  [ -z "${FAKE_REASON:-}" ] || printf '   Reason=%s [root@2026-12-07T10:00:00]\n' "$FAKE_REASON"
fi
exit 0
SC
chmod +x fake/scontrol
hc() {  # hc NAME: one health check run, its exit code, the scontrol calls and the metrics file
  local t0; t0=$(date +%s%N)
  PATH="$PWD/fake:$PATH" SCONTROL_LOG="$OUT/hc_$1.scontrol" MEMBENCH_NODE=gpunode1 \
    MEMBENCH_CHECK="$PWD/tools/run/membench-check" MEMBENCH_CHECK_ARGS="--bin=$PWD/build/bench/bin --out=$PWD/build/runs/hc_$1" \
    MEMBENCH_METRICS="$OUT/hc_$1.prom" bash integrations/slurm/membench_healthcheck.sh > "$OUT/hc_$1.out" 2> "$OUT/hc_$1.err"
  echo "healthcheck $1 rc=$? $(ms "$t0") ms" >> "$OUT/info.txt"
}
FAKE_STATE=DRAIN FAKE_REASON="membench: GPU-00000000 DRAM slower +20.00 %" hc idle
if [ "${LOADED:-0}" = 1 ]; then  # a second process on the same GPU (DRAM copies, again and again)
  ( while [ ! -e build/runs/stop_load ]; do build/bench/bin/membench --devices=0 --peers=none \
      --benchmark_filter='global/copy' > /dev/null 2>&1; done ) &
  load=$!; sleep 3; FAKE_STATE=IDLE hc loaded; touch build/runs/stop_load; wait "$load"
fi
r=0; while [ $(( $(date +%s) + 12 )) -lt "$deadline" ]; do r=$((r + 1)); dir="build/runs/check$r"; mkdir -p "$dir"; t0=$(date +%s%N)
  build/bench/bin/membench --devices=all --peers=none --suite=check --benchmark_out="$dir/membench.json" > "$dir/log.txt" 2>&1
  echo "check$r rc=$? $(ms "$t0") ms" >> "$OUT/info.txt"; done
mkdir -p build/runs/out; mv "$OUT"/hc_* "$OUT"/check_e2e.* "$OUT/build.log" build/runs/out/; cp "$OUT/info.txt" build/runs/out/
tar cJf "$OUT/runs.tar.xz" -C build runs
o=build/runs/out; cat "$OUT/info.txt"; head -16 $o/check_e2e.txt; tail -2 $o/check_e2e.err
echo "== idle"; cat $o/hc_idle.scontrol; tail -3 $o/hc_idle.err; ls -la "$OUT"
