#!/usr/bin/env bash
# R=membench-report [MISSES=5] [HOSTS=8|12] evaluate.sh WORK COMPARE OPTIONS (from the repository
# root): tools/gate/gate_evaluate.sh on this folder (six kernel processes runNN, 24 host-work
# processes hostNN), host processes 1-8 | 9-16, 9-16 | 17-24, 17-24 | 1-8 at HOSTS=8 (the
# workflow's then), or 1-12 | 13-24, odd | even, 1-6,13-18 | 7-12,19-24 at HOSTS=12.
set -euo pipefail
case ${HOSTS:-8} in
  8) pairs="$(seq -s ' ' 1 8)/$(seq -s ' ' 9 16)|$(seq -s ' ' 9 16)/$(seq -s ' ' 17 24)|$(seq -s ' ' 17 24)/$(seq -s ' ' 1 8)" ;;
  12) pairs="$(seq -s ' ' 1 12)/$(seq -s ' ' 13 24)|$(seq -s ' ' 1 2 23)/$(seq -s ' ' 2 2 24)|$(seq -s ' ' 1 6) $(seq -s ' ' 13 18)/$(seq -s ' ' 7 12) $(seq -s ' ' 19 24)" ;;
  *) echo "HOSTS must be 8 or 12" >&2; exit 2 ;;
esac
PAIRS=$pairs exec tools/gate/gate_evaluate.sh "$(dirname "$0")" "$@"
