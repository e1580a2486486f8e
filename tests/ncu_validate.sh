#!/usr/bin/env bash
# tests/ncu_validate.sh BINDIR OUT: tools/ncu/ncu_validate.py where ncu and a GPU exist; 77 (skipped) otherwise.
set -u
command -v ncu >/dev/null || { echo "ncu not found: skipping"; exit 77; }
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipping"; exit 77; }
export PYTHONPATH="$(dirname "$0")/../python${PYTHONPATH:+:$PYTHONPATH}"  # the membench package
exec python3 "$(dirname "$0")/../tools/ncu/ncu_validate.py" "$1" "$2"
