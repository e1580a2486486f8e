#!/usr/bin/env bash
# tools/gate/filter.sh host|kernel: the --benchmark_filter of the quick tier's host-work rows
# (tools/gate/quick_host_rows.txt), or of every other row (Google Benchmark's negative filter).
set -euo pipefail
list=$(dirname "$0")/quick_host_rows.txt
alternatives=$(grep -v '^#' "$list" | grep -v '^$' | sed 's/[.[\*^$()+?{}]/\\&/g' | paste -sd'|')
case ${1:-} in
  host) echo "^($alternatives)/" ;;
  kernel) echo "-^($alternatives)/" ;;
  *) echo "usage: tools/gate/filter.sh host|kernel" >&2; exit 2 ;;
esac
