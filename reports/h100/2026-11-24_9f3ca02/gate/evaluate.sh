#!/usr/bin/env bash
# R=membench-report [MISSES=5] [HOSTS=16] [EVERY=N [PHASE=K]] evaluate.sh WORK COMPARE OPTIONS (from the
# repository root): tools/gate/gate_evaluate.sh on this folder (six kernel processes runNN, the
# host-work processes hostNN; host processes in consecutive blocks of HOSTS, wrapping round).
exec tools/gate/gate_evaluate.sh "$(dirname "$0")" "$@"
