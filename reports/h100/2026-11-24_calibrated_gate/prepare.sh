#!/usr/bin/env bash
# reports/h100/2026-11-24_calibrated_gate/prepare.sh WORK: the evaluation's inputs in WORK
# (run from the repository root): the 18 quick-tier runs without their host-work rows
# (k/, as the CI's kernel processes run them), the 18 host-work-only runs (h/), and copies
# of each with every row made 3, 5 and 10 % slower (tools/gate/inject_slowdown.py).
set -euo pipefail
work=$1
mkdir -p "$work/k" "$work/h"
# The quick runs are kept as one archive a session: extracted into WORK first.
for s in ae324df b77efe3; do
  mkdir -p "$work/quick_$s"
  tar -xJf "reports/h100/2026-11-24_$s/quick_aa.tar.xz" -C "$work/quick_$s"
done
python3 - "$work" <<'PY'
import glob, json, re, shutil, sys
work = sys.argv[1]
quick = sorted(glob.glob(f"{work}/quick_ae324df/quick_aa/run*.json")) + \
        sorted(glob.glob(f"{work}/quick_b77efe3/quick_aa/run*.json"))
gone = re.compile(r"local/spill/storage:(local|registers)/elems:8/")  # no longer in the quick tier
for i, f in enumerate(quick):
    d = json.load(open(f))
    d["benchmarks"] = [b for b in d["benchmarks"]
                       if not re.search(r"work:(host|copy)", b.get("label", "")) and not gone.match(b["name"])]
    json.dump(d, open(f"{work}/k/run{i + 1:02d}.json", "w"))
host = []
for k in ("free", "core3", "core12"):
    host += sorted(glob.glob(f"reports/h100/2026-11-24_d18f974/hostcopy_spread/hc_{k}_*.json"))
for i, f in enumerate(host):
    shutil.copy(f, f"{work}/h/hc{i + 1:02d}.json")
PY
for s in 3 5 10; do
  for f in "$work"/k/*.json "$work"/h/*.json; do
    mkdir -p "$(dirname "$f")/inj$s"
    python3 tools/gate/inject_slowdown.py "$f" "$(dirname "$f")/inj$s/$(basename "$f")" --slowdown $s >/dev/null 2>&1
  done
done
