#!/usr/bin/env bash
# reports/fleet/judge_newcomers.sh REPORT [OUT]: each committed GPU of a single- or two-GPU
# host judged against the committed baseline of its model and board part (made from GPUs of
# 2- and 4-GPU hosts: another host shape), the verdict tables as Markdown into OUT (default
# reports/fleet/newcomers.md); then the fresh single-GPU H100s of a board part no baseline has
# (692-2G520-0202-000), as a fleet of their own. Extracts the archives into a temporary folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] && [ -n "$1" ] || { echo "usage: judge_newcomers.sh REPORT [OUT]" >&2; exit 2; }
# A REPORT that is no program would make every fleet call exit 127, and OUT a page of those.
[ -x "$1" ] && [ -f "$1" ] || { echo "judge_newcomers.sh: REPORT $1 is not an executable file" >&2; exit 2; }
report=$(realpath "$1")
out=${2:-$here/newcomers.md}
[ -d "$(dirname "$out")" ] || { echo "judge_newcomers.sh: OUT $out: No such folder $(dirname "$out")" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# fleet's own exit codes (0 within, 1 a GPU slow, 2 refused, 3 undecided, 4); anything else is a crash.
check_rc() {
  [ "$1" -le 4 ] || { echo "judge_newcomers.sh: fleet exited $1 on $2" >&2; exit 1; }
}
# archive baseline: the newcomers and what judges them
pairs=(
  "h200/newcomers/2026-11-28_dd39d85_1gpu_80f518e5.tar.xz h200/baseline_board000.json"
  "h200/newcomers/2026-11-28_dd39d85_1gpu_8e0b628c.tar.xz h200/baseline_board001.json"
  "h200/newcomers/2026-11-28_dd39d85_1gpu_f8a8bfb5.tar.xz h200/baseline_board001.json"
  "h100/2026-11-27_931553e_1gpu_3a58cae0.tar.xz h100/baseline_board695-000.json"
  "h100/2026-11-27_931553e_1gpu_c5dba753.tar.xz h100/baseline_board695-000.json"
  "h100/2026-11-27_88f9977_2gpu.tar.xz h100/baseline_board695-000.json"
  "h100/newcomers/2026-12-07_1gpu_8def4dde.tar.xz h100/baseline_board695-000.json"
  "h100/newcomers/2026-12-07_1gpu_371611dc.tar.xz h100/baseline_board692-0200-000.json"
  "h100/newcomers/2026-12-07_1gpu_e5f1ca74.tar.xz h100/baseline_board692-0202-000.json"
)
# The single-GPU H100s of board part 692-2G520-0202-000 that h100/baseline_board692-0202-000.json
# was made from (fleet --baseline-out over these four).
fresh_gpus=(8def4dde ec89b614 f9db2863 865f7762)
{
  echo "# Newcomers judged against the committed baselines"
  echo
  echo "Made by \`reports/fleet/judge_newcomers.sh\`: each archive's GPUs against the baseline of their"
  echo "model and board part, written from GPUs of 2- and 4-GPU hosts (another host shape than theirs)."
  for pair in "${pairs[@]}"; do
    read -r archive baseline <<<"$pair"
    dir="$work/$(basename "$archive" .tar.xz)"
    mkdir -p "$dir"
    tar xJf "$here/$archive" -C "$dir"
    echo
    echo "## \`$archive\` against \`$baseline\`"
    echo
    rc=0
    (cd "$here" && "$report" fleet --baseline "$baseline" "$dir" --format md >"$dir.md" 2>"$dir.err") || rc=$?
    # The GPUs' table, with the folder's temporary path taken out; without one, why not.
    sed -n '/^### GPUs, worst first/,/^### /p' "$dir.md" | sed '1d;$d' | sed "s|$work/||g"
    [ "$rc" != 2 ] || sed "s|$here/||g; s|^membench-report: |no verdict: |" "$dir.err"
    check_rc "$rc" "$archive"
    echo "exit $rc"
  done
  # The fresh single-GPU H100s of a board part no baseline has: a fleet of their own.
  fresh="$work/fresh"
  for gpu in "${fresh_gpus[@]}"; do
    mkdir -p "$fresh/$gpu"
    tar xJf "$here"/h100/newcomers/2026-12-07_1gpu_"$gpu".tar.xz -C "$fresh/$gpu"
  done
  echo
  echo "## \`h100/newcomers/\` as a fleet of their own (no baseline of their board part)"
  echo
  rc=0
  "$report" fleet "$fresh"/* --format md >"$fresh.md" 2>/dev/null || rc=$?
  check_rc "$rc" "h100/newcomers/"
  sed -n '/^### GPUs, worst first/,/^### /p' "$fresh.md" | sed '1d;$d' | sed "s|$work/||g"
  echo "exit $rc"
} >"$work/out.md"
# Written whole into the temporary folder first, so a failure never leaves OUT truncated.
mv -f "$work/out.md" "$out"
echo "judge_newcomers.sh: $out"
