#!/usr/bin/env bash
# check_html.sh HTML_FILE PNG_OUT: an HTML report must load in headless Chromium: the DOM
# has a <table>, every <svg> in the file survives parsing, and a screenshot renders to
# PNG_OUT. Exits 77 (skipped) where no chromium binary is installed.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 HTML_FILE PNG_OUT" >&2; exit 2; }
html=$1 png=$2
[ -s "$html" ] || { echo "FAIL: $html is missing or empty"; exit 1; }

browser=
for b in chromium chromium-browser; do
  if command -v "$b" >/dev/null 2>&1; then browser=$(command -v "$b"); break; fi
done
[ -n "$browser" ] || { echo "chromium not found: skipping"; exit 77; }

# Chromium wants a writable profile and home; a private one keeps runs independent.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
url="file://$(realpath "$html")"
run_chromium() {
  HOME=$work timeout -k 5 60 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --no-default-browser-check --disable-extensions --hide-scrollbars --user-data-dir="$work/profile" "$@"
}
count() { grep -o "$1" | wc -l; }
# Chromium's stderr is mostly D-Bus and GPU chatter; show the rest when something fails.
show_log() { grep -vE 'dbus|DBus|gpu_init|viz_main|Fontconfig' "$1" | tail -n 20; }
why() { [ "$1" -eq 124 ] || [ "$1" -eq 137 ] && echo "timed out after 60 s" || echo "exit code $1"; }

# (a) Parse: the DOM goes to stdout; stderr is Chromium's log noise, kept for failures only.
run_chromium --dump-dom "$url" >"$work/dom.html" 2>"$work/dom.log"
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$work/dom.html" ]; then
  echo "FAIL: chromium --dump-dom of $html: $(why $rc), $(wc -c <"$work/dom.html") bytes of DOM"
  show_log "$work/dom.log"
  exit 1
fi
tables=$(count '<table' <"$work/dom.html")
echo "dump-dom: $tables <table> element(s)"
[ "$tables" -ge 1 ] || { echo "FAIL: no <table> in the parsed DOM of $html"; exit 1; }
file_svgs=$(count '<svg' <"$html")
if [ "$file_svgs" -gt 0 ]; then
  dom_svgs=$(count '<svg' <"$work/dom.html")
  echo "dump-dom: $dom_svgs <svg> element(s), file has $file_svgs"
  [ "$dom_svgs" -eq "$file_svgs" ] || { echo "FAIL: $file_svgs <svg> in $html but $dom_svgs after parsing"; exit 1; }
fi

# (b) Render: a non-empty PNG screenshot.
rm -f "$png"
mkdir -p "$(dirname "$png")"
run_chromium --screenshot="$(realpath -m "$png")" --window-size=1280,2000 "$url" >"$work/shot.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || [ ! -f "$png" ] || [ ! -s "$png" ]; then
  echo "FAIL: chromium --screenshot of $html: $(why $rc), $png missing or empty"
  show_log "$work/shot.log"
  exit 1
fi
magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
[ "$magic" = 89504e470d0a1a0a ] || { echo "FAIL: $png is not a PNG"; exit 1; }
echo "screenshot: $png ($(wc -c <"$png") bytes)"
echo "OK: $html"
