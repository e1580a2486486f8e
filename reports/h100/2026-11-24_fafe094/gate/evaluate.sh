#!/usr/bin/env bash
# R=membench-report [MISSES=5] [HOSTS=16] [EVERY=N [PHASE=K]] evaluate.sh WORK COMPARE OPTIONS (from the
# repository root): tools/gate/gate_evaluate.sh on this folder (six kernel processes runNN, the
# host-work processes hostNN, kept in runs.tar.xz; host processes in consecutive blocks of HOSTS,
# wrapping round).
set -e
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
tar xJf "$(dirname "$0")/runs.tar.xz" -C "$runs"
tools/gate/gate_evaluate.sh "$runs" "$@"
