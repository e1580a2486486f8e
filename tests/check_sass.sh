#!/usr/bin/env bash
# check_sass.sh EXE MODE: the probe kernel's global load must be the SASS the cache mode
# promises on sm_90 (default LDG.E, ca LDG.E.STRONG.SM, cg LDG.E.STRONG.GPU).
# Exits 77 (skipped) where cuobjdump is missing.
set -euo pipefail
exe=$1 mode=$2
command -v cuobjdump >/dev/null || { echo "cuobjdump not found: skipping"; exit 77; }
sass=$(cuobjdump -sass -arch sm_90 "$exe" | awk '/Function : .*build_probe_kernel/{f=1;next} /Function :/{f=0} f')
ldg=$(grep -oE 'LDG\.E[A-Z0-9_.]*' <<<"$sass" | head -1)
case $mode in
  default) want='LDG.E' ;;
  ca) want='LDG.E.STRONG.SM' ;;
  cg) want='LDG.E.STRONG.GPU' ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "$mode build: probe kernel load is '$ldg' (want '$want')"
[[ "$ldg" == "$want" ]]
