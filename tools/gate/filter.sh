#!/usr/bin/env bash
# tools/gate/filter.sh host|kernel|runs: the --benchmark_filter of the quick tier's host-work rows
# (tools/gate/quick_host_rows.txt), of every other row (Google Benchmark's negative filter), or
# of the host-work rows a fleet needs many runs of: all but those of the families below, whose
# kernel rows find a slowed GPU from a few runs (host/managed's resident row, transcendental's
# kernel-only rows), and whose host rows take half of a host-row run's time (their CPU
# references and 64 MiB of faults: 9 s of 19 s on an H100).
set -euo pipefail
list=$(dirname "$0")/quick_host_rows.txt
found_by_kernel_rows='^(host/managed|compute/transcendental)/'
rows() { grep -v '^#' "$list" | grep -v '^$'; }
alternatives() { sed 's/[.[\*^$()+?{}]/\\&/g' | paste -sd'|'; }
usage() { echo "usage: tools/gate/filter.sh host|kernel|runs" >&2; exit 2; }
# One kind only: a second (a filter of both meant) would be ignored unsaid.
[ $# -eq 1 ] || usage
case $1 in
  host) echo "^($(rows | alternatives))/" ;;
  kernel) echo "-^($(rows | alternatives))/" ;;
  runs) echo "^($(rows | grep -Ev "$found_by_kernel_rows" | alternatives))/" ;;
  *) usage ;;
esac
