#!/usr/bin/env bash
# tests/fault_demo.sh MEMBENCH OUT.json CHECK_ROWS.cmake: a row before the faults, two
# faulting rows, rows after them. Every non-faulting row must have its time in one valid
# JSON (the later ones from fresh processes) and membench must exit 1. 77 without a GPU.
set -u
exe=$1 out=$2 check=$3
rm -f "$out"
"$exe" --suite=full --fault-demo --min-samples=3 --max-time=0.05 --benchmark_out="$out" --benchmark_out_format=json \
  --benchmark_filter='global/(copy/width:16/unroll:4/block:256/style:gridstride/|fault/|memset/|read_offset/type:f32/offset:0/)'
rc=$?
[ $rc -eq 3 ] && exit 77
[ $rc -eq 1 ] || { echo "exit code $rc, expected 1"; exit 1; }
cmake -DFILE="$out" -DERROR_ROWS='^global/fault/' -DERROR_MESSAGES='cudaErrorIllegalAddress|cudaErrorMisalignedAddress' -DMIN_OK=5 \
  -P "$check"
