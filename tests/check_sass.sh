#!/usr/bin/env bash
# check_sass.sh EXE MODE: every global load of the benchmark kernels that use plain loads
# (the probe and the G1-G5 families' kernels) must be the SASS the cache mode promises on
# sm_90: default LDG.E without a scope, ca LDG.E...STRONG.SM, cg LDG.E...STRONG.GPU. Each
# kernel must have at least one load, so the check cannot pass on an empty match; the
# kernels in wide_kernels must load 16 bytes at a time.
# Exits 77 (skipped) where cuobjdump is missing.
set -euo pipefail
exe=$1 mode=$2
command -v cuobjdump >/dev/null || { echo "cuobjdump not found: skipping"; exit 77; }
case $mode in
  default) want='^LDG\.E(\.(64|128|U8|S8|U16|S16))*$' ;;
  ca) want='^LDG\.E(\.(64|128|U8|S8|U16|S16))*\.STRONG\.SM$' ;;
  cg) want='^LDG\.E(\.(64|128|U8|S8|U16|S16))*\.STRONG\.GPU$' ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
kernels="build_probe_kernel read_offset_kernel write_offset_kernel read_stride_kernel read_scatter_kernel
read_reuse_kernel working_set_kernel read_kernel copy_kernel"
# Kernels whose every load must be one 16-byte vector: the compiler once split G5's struct
# load into four 4-byte loads in one instantiation, which the mode check alone let through.
wide_kernels="working_set_kernel"
sass=$(cuobjdump -sass -arch sm_90 "$exe")
status=0
for k in $kernels; do
  # Every instantiation of the kernel (templates: one per type, unroll and style).
  ops=$(awk -v k="$k" '/Function : /{f = index($0, k) > 0; next} f' <<<"$sass" | grep -oE 'LDG\.[A-Z0-9_.]+' || true)
  if [[ -z "$ops" ]]; then
    echo "$mode build: $k: no global load found in the SASS"
    status=1
    continue
  fi
  bad=$(grep -vE "$want" <<<"$ops" | sort | uniq -c | tr '\n' ' ' || true)
  summary=$(sort <<<"$ops" | uniq -c | awk '{printf "%s x%s ", $2, $1}')
  if [[ " $wide_kernels " == *" $k "* ]]; then
    narrow=$(grep -v '\.128' <<<"$ops" | sort | uniq -c | tr '\n' ' ' || true)
    [[ -n "$narrow" ]] && bad="$bad (not 16-byte: $narrow)"
  fi
  if [[ -n "$bad" ]]; then
    echo "$mode build: $k: loads that are not $want: $bad"
    status=1
  else
    echo "$mode build: $k: $summary"
  fi
done
exit $status
