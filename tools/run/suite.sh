#!/usr/bin/env bash
# tools/run/suite.sh [--tier=quick|default|full] [--devices=all|0,2] [--out=DIR] [--build=DIR]:
# from a fresh clone to a report on a Linux machine with NVIDIA GPUs and the CUDA toolkit.
# Gets what is missing (apt-get when it may; header-only libraries unpacked into .deps/
# without root; otherwise it says exactly what to do), builds the three cache-mode builds
# for the GPUs it finds, runs the tier (quick by default) of each on every GPU at once
# (membench --devices), and writes the Markdown and HTML reports: each GPU's three builds and its
# memory profile on one page,
# and with several GPUs the GPUs side by side, the peer matrix and the fleet's verdict.
# Libraries installed elsewhere are found through CMAKE_PREFIX_PATH, and a .deps/prefix
# that tools/run/fetch_debs.sh made on a machine with apt (for one without package access)
# is used as it is. membench writes <build>.gpu<N>-<UUID>.partial, renamed to .json when it
# ran to its end (exit 0, or 1: a row failed): a run stopped half-way never replaces a whole one
# in the same --out, and a .partial an earlier run of it left never becomes a .json.
# Exit: 0 every row verified; 1 a row failed (or a build did not run to its end); 2 something to
# install or a bad option (also no build measuring anything: no CUDA device or driver, say);
# 130 or 143 a signal (Ctrl-C, SIGTERM) stopped it: no further build runs.
# A relative --out or --build is the caller's folder's, as any command-line tool reads it; the
# defaults, results/<date>_<time> and build/suite, are in the checkout.
set -uo pipefail
# Taken before the script moves to the checkout: the caller's folder, and this script by a path
# that still holds from there (--help and the messages name it).
caller=$PWD
here=$(cd "$(dirname "$0")" && pwd) || exit 2
script="$here/$(basename "$0")"
repo=$(cd "$here/../.." && pwd) || exit 2
tier=quick devices=all out="$repo/results/$(date +%Y%m%d_%H%M%S)" build="$repo/build/suite"
declare -A given=()
for arg in "$@"; do
  # An option given twice: which one the caller meant is unknown (a full run of hours where a
  # quick one was asked, or the results in the other folder), so neither is taken.
  case $arg in
    --*=*) [ -z "${given[${arg%%=*}]:-}" ] || { echo "suite.sh: ${arg%%=*} given twice: give it once" >&2; exit 2; }
      given[${arg%%=*}]=1 ;;
  esac
  case $arg in
    --tier=*) tier=${arg#*=} ;;
    --devices=*) devices=${arg#*=} ;;
    --out=*) out=${arg#*=} ;;
    --build=*) build=${arg#*=} ;;
    -h|--help) sed -n '2,18p' "$script"; exit 0 ;;
    *) echo "suite.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done
case $tier in quick|default|full) ;; *) echo "suite.sh: --tier must be quick, default or full" >&2; exit 2 ;; esac
# An empty value (an unset variable in a job script) names no folder: the logs, results and build
# would land in whatever folder the caller is in, unsaid.
[ -n "$out" ] || { echo "suite.sh: --out= names no folder (--out=DIR)" >&2; exit 2; }
[ -n "$build" ] || { echo "suite.sh: --build= names no folder (--build=DIR)" >&2; exit 2; }
# all or indices such as 0,2: an empty --devices= (an unset variable) is a bad option, not a
# run whose every row then fails.
[[ $devices == all || $devices =~ ^[0-9]+(,[0-9]+)*$ ]] ||
  { echo "suite.sh: --devices=$devices: all or GPU indices such as 0,2" >&2; exit 2; }
# A GPU named twice (0,0 or 0,00) is a bad option membench refuses: said here, before the build.
if [ "$devices" != all ]; then
  declare -A listed=()
  for index in ${devices//,/ }; do
    while [[ $index == 0?* ]]; do index=${index#0}; done  # 00 is 0; no arithmetic to overflow
    [ -z "${listed[$index]:-}" ] || { echo "suite.sh: --devices=$devices names GPU $index twice" >&2; exit 2; }
    listed[$index]=1
  done
fi
callers() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$caller/$1" ;; esac; }
out=$(callers "$out") build=$(callers "$build")
cd "$repo" || exit 2
say() { printf 'suite.sh: %s\n' "$*" >&2; }
stop() { say "$*"; exit 2; }
# membench stops at a signal and exits 130 or 143 itself, which bash alone takes as one
# build's exit code and goes on to the next build: the traps and the codes end the suite.
interrupted() { say "stopped by a signal (exit $1); nothing further is run"; exit "$1"; }
trap 'interrupted 130' INT
trap 'interrupted 143' TERM

[ "$(uname -s)" = Linux ] || stop "membench runs on Linux only."
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null || stop "nvcc not found: install the CUDA toolkit (12.0 or newer) and put its bin/ on PATH."
nvidia-smi -L >/dev/null 2>&1 || stop "nvidia-smi finds no GPU: membench needs an NVIDIA GPU and its driver."
command -v cmake >/dev/null || stop "cmake not found: apt-get install cmake, or python3 -m pip install --user cmake (3.25 or newer)."
cmake_version=$(cmake --version | awk 'NR == 1 {print $3}')
if [ "$(printf '%s\n3.25\n' "$cmake_version" | sort -V | head -n 1)" != 3.25 ]; then
  stop "CMake $cmake_version is too old (3.25 or newer): python3 -m pip install --user cmake, or apt.kitware.com."
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
mkdir -p "$out"
prefix="$PWD/.deps/prefix"
[ -d "$prefix/usr" ] && export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
configure() {
  cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DMEMBENCH_BUILD_TESTS=OFF >"$out/configure.log" 2>&1
}
# CMake says what is missing (and the Debian/Ubuntu package of each); get those, then again.
if ! configure; then
  missing=$(grep -oE "apt-get install [a-z0-9.+-]+" "$out/configure.log" | awk '{print $3}' | sort -u | tr '\n' ' ')
  if [ -n "$missing" ] && command -v apt-get >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
      say "installing: $missing"
      timeout 600 apt-get install -y -qq $missing >/dev/null 2>&1 ||
        { timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq $missing; }
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      say "installing with sudo: $missing"
      sudo DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq $missing
    else
      # Without root, header-only libraries unpack into a private prefix.
      mkdir -p .deps/debs "$prefix"
      for p in $missing; do
        case $p in libcli11-dev|nlohmann-json3-dev|rapidjson-dev|libre2-dev) ;; *) continue ;; esac
        (cd .deps/debs && timeout 120 apt-get download "$p" >/dev/null 2>&1) && say "unpacking $p into .deps/ (no root)"
      done
      for deb in .deps/debs/*.deb; do [ -e "$deb" ] && dpkg -x "$deb" "$prefix"; done
      [ -d "$prefix/usr" ] && export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    fi
  fi
  if ! configure; then
    grep -E "membench needs|CMake Error|not NN-real|nvidia-smi" "$out/configure.log" | head -n 20 >&2
    say "configure failed (full log: $out/configure.log). A library missing here and not installable: on a"
    say "machine with apt, tools/run/fetch_debs.sh .deps/prefix NAME... (rapidjson-dev and libre2-dev by default) unpacks it;"
    say "carry .deps/ here and run $script again (or unpack it anywhere and run: CMAKE_PREFIX_PATH=DIR/usr $script $*)"
    exit 2
  fi
fi
grep -E "membench: SASS for" "$out/configure.log" >&2
say "building (a few minutes: three builds of every family)"
cmake --build "$build" --target membench membench_ca membench_cg membench-report >"$out/build.log" 2>&1 || {
  tail -n 30 "$out/build.log" >&2; say "build failed (full log: $out/build.log)"; exit 2; }

# why_unmeasured CODE: what membench's exit CODE says when no build measured anything.
why_unmeasured() {
  case $1 in
    3) echo "found no CUDA device or driver" ;;
    4) echo "was given a GPU index out of range" ;;
    5) echo "was not compiled as it claims (rebuild it)" ;;
    *) echo "exited $1" ;;
  esac
}
rc=0 part=0 measured=0 last=""
for exe in membench membench_ca membench_cg; do
  part=$((part + 1))
  # An earlier run's stopped files in the same --out are never taken for this one's.
  rm -f "$out/$exe.partial" "$out/$exe".gpu*.partial "$out/$exe".peers.partial
  # One process per GPU, all at once; each writes $exe.gpu<N>-<UUID>.partial, made .json once
  # membench ran to its end. The log gets everything; the terminal the progress lines and
  # membench's own messages.
  MEMBENCH_SUITE_PART="$part/3" "$build/bin/$exe" --devices="$devices" --suite="$tier" --progress=always \
    --keep-samples=100 --benchmark_out="$out/$exe.partial" --benchmark_out_format=json >"$out/$exe.log" \
    2> >(tee -a "$out/$exe.log" | grep --line-buffered -E '^(\[gpu[0-9]+\] )?(\[[0-9]+/[0-9]+\]|membench:)' >&2)
  code=$?
  case $code in 130 | 143) interrupted "$code" ;; esac
  # 2: membench refused an option (a GPU index out of range, say); every build would refuse it.
  [ "$code" != 2 ] || stop "$exe refused its options (exit 2, see $out/$exe.log): nothing further is run"
  [ "$code" -gt 1 ] || measured=$((measured + 1))
  [ "$code" -le 1 ] || last="$exe:$code"
  # Ran to its end (0, or 1: a row failed): the files are whole.
  if [ "$code" -le 1 ]; then
    for f in "$out/$exe.partial" "$out/$exe".gpu*.partial "$out/$exe".peers.partial; do
      [ -e "$f" ] && mv -f "$f" "${f%.partial}.json"
    done
  fi
  say "$exe: exit $code"
  [ $code -ne 0 ] && rc=1
done
# No build ran to its end (every one exited 3, no CUDA device, say): nothing was measured and no
# row failed, so not 1 ("a row failed") but 2, something to install or fix, said with the last
# build's exit (membench's own words are above, from its log).
[ "$measured" -gt 0 ] || stop "no build measured anything: ${last%%:*} $(why_unmeasured "${last##*:}") (exit ${last##*:}, see $out/${last%%:*}.log)"
report="$build/bin/membench-report"
# Each GPU's three builds side by side; with several GPUs, the GPUs side by side too.
gpus=()
for f in "$out"/membench.gpu*.json; do
  [ -e "$f" ] || continue
  tag=${f#"$out"/membench.}
  tag=${tag%.json}
  gpus+=("$tag")
  for format in md html; do
    "$report" builds "$out/membench.$tag.json" "$out/membench_ca.$tag.json" "$out/membench_cg.$tag.json" \
      --format "$format" -o "$out/report.${tag%%-*}.$format" || rc=1
  done
done
[ ${#gpus[@]} -gt 0 ] || { say "no result file in $out (see $out/membench.log)"; exit 1; }
# Each GPU on one page of one document, its three builds side by side (the peer rows' file
# joins the GPUs it names); the Markdown's charts are written beside it,
# report.profile.gpu<N>.svg and report.profile.gpu<N>.builds.svg.
peers=()
[ -e "$out/membench.peers.json" ] && peers=("$out/membench.peers.json")
for format in md html; do
  "$report" profile "$out"/membench{,_ca,_cg}.gpu*.json "${peers[@]}" --format "$format" -o "$out/report.profile.$format" || rc=1
done
if [ ${#gpus[@]} -gt 1 ]; then
  for format in md html; do
    "$report" gpus "$out"/membench.gpu*.json --format "$format" -o "$out/report.gpus.$format" || rc=1
    # The peer matrix, run alone after the GPUs (membench.peers.json).
    [ -e "$out/membench.peers.json" ] &&
      { "$report" p2p "$out/membench.peers.json" --format "$format" -o "$out/report.p2p.$format" || rc=1; }
    # Which GPU is slow: fleet exits 1 for an outlier (a finding, said below, not a failed row).
    "$report" fleet "$out"/membench.gpu*.json --format "$format" -o "$out/report.fleet.$format"
    fleet=$?
    [ $fleet -eq 2 ] && rc=1
  done
fi
say "results: $out/membench{,_ca,_cg}.gpu<N>-<UUID>.json (${#gpus[@]} GPU(s))"
say "report:  $out/report.gpu<N>.md (Markdown) and .html (open in a browser), one per GPU"
say "profile: $out/report.profile.html (each GPU's memory hierarchy on one page) and .md (its charts: .gpu<N>.svg beside it)"
if [ ${#gpus[@]} -gt 1 ]; then
  say "         $out/report.gpus.{md,html}: the GPUs side by side; report.fleet.{md,html}: which GPU is slow"
  [ -e "$out/report.p2p.md" ] && say "         $out/report.p2p.{md,html}: the peer matrix"
  [ "$fleet" -eq 1 ] && say "fleet: a GPU is an outlier (report.fleet.md)"
fi
exit $rc
