#!/usr/bin/env bash
# R=membench-report [MISSES=5] evaluate.sh WORK COMPARE OPTIONS (from the repository root):
# tools/gate/gate_evaluate.sh on this folder's fresh runs. Host processes 1-8 | 9-15, odd | even,
# 1-4,9-12 | 5-8,13-15 (fifteen host runs came back, so one side of each pair has eight and
# calibrates, the other seven).
PAIRS="1 2 3 4 5 6 7 8/9 10 11 12 13 14 15|1 3 5 7 9 11 13 15/2 4 6 8 10 12 14|1 2 3 4 9 10 11 12/5 6 7 8 13 14 15" \
  exec tools/gate/gate_evaluate.sh "$(dirname "$0")" "$@"
