# Sourced by the device-call scripts beside it, on the GPU machine in the repository's root:
# the machine's GPU into $OUT/info.txt, and membench's Release build for sm_90 in build/bench.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
machine_info() {
  nvidia-smi --query-gpu=name,uuid,pci.bus_id,vbios_version,clocks.max.sm,power.limit --format=csv > "$OUT/info.txt" 2>&1
  nvidia-smi -q | grep -i "board part\|serial" >> "$OUT/info.txt" 2>&1
}
build_there() {  # build_there TARGET...: configure and build, the log in $OUT/build.log
  cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEMBENCH_BUILD_TESTS=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$PWD/.deps/prefix/usr" > "$OUT/build.log" 2>&1
  local target args=()
  for target in "$@"; do args+=(--target "$target"); done
  cmake --build build/bench "${args[@]}" -j16 >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; return 1; }
}
