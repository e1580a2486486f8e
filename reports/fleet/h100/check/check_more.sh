#!/usr/bin/env bash
# On a warm GPU machine whose build/bench is built: check-tier runs for CHECK_S seconds, packed
# into $OUT/runs.tar.xz (at most 8 files come back), with the machine's info.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
start=$(date +%s); until=$((start + ${CHECK_S:-240}))
nvidia-smi --query-gpu=name,uuid,pci.bus_id,vbios_version,clocks.max.sm,power.limit --format=csv > "$OUT/info.txt" 2>&1
nvidia-smi -q | grep -i "board part" >> "$OUT/info.txt" 2>&1
[ -x build/bench/bin/membench ] || cmake --build build/bench --target membench membench-report -j16 > "$OUT/build.log" 2>&1 || exit 1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
r=0; while [ "$(date +%s)" -lt "$until" ]; do r=$((r + 1)); dir="build/runs/check$r"; mkdir -p "$dir"; t0=$(date +%s%N)
  build/bench/bin/membench --devices=all --peers=none --suite=check --benchmark_out="$dir/membench.json" > "$dir/log.txt" 2>&1
  echo "check$r rc=$? $(ms "$t0") ms" >> "$OUT/info.txt"; done
cp "$OUT/info.txt" build/runs/info.txt; tar cJf "$OUT/runs.tar.xz" -C build runs; ls -la "$OUT"; head -4 "$OUT/info.txt"; tail -2 "$OUT/info.txt"
