#!/usr/bin/env bash
# tests/interrupt_demo.sh MEMBENCH OUT.json CHECK_ROWS.cmake: SIGINT in the middle of a
# sweep must leave valid JSON with the rows completed before it, exit 130. 77 without a GPU.
set -u
exe=$1 out=$2 check=$3
rm -f "$out"
"$exe" --benchmark_filter='global/(read|working_set)/' --benchmark_out="$out" --benchmark_out_format=json &
pid=$!
# Interrupt after INTERRUPT_AFTER seconds, unless it ended first (no GPU: at once).
for _ in $(seq $(( ${INTERRUPT_AFTER:-6} * 10 ))); do
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 3 ] && exit 77
[ $rc -eq 130 ] || { echo "exit code $rc, expected 130"; exit 1; }
cmake -DFILE="$out" -DALLOWED_ERRORS='.' -DERROR_MESSAGES='interrupted by signal 2' -DMIN_OK=1 -DMIN_ERRORS=1 \
  -P "$check"
