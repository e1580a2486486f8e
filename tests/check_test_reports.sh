#!/usr/bin/env bash
# tests/check_test_reports.sh REPORT SOURCE_DIR: the verdicts as test results, validated.
# compare (a benchmark a case), fleet (a GPU and part a case) and fleet --by=level (a GPU and
# level a case, what the node check writes) in JUnit XML and CTRF JSON, each validated against
# its schema (tests/data/schemas/: xmllint for JUnit, Python's jsonschema for CTRF), with the
# counts agreeing with the cases and with the exit code, and names no XML or JSON can hold
# (control characters, markup, invalid UTF-8) written validly. Exit 77 (skipped) without
# xmllint or jsonschema.
set -uo pipefail
report=$(realpath "$1") src=$(realpath "$2")
data="$src/tests/data/report" schemas="$src/tests/data/schemas"
command -v xmllint >/dev/null || { echo "check_test_reports: no xmllint (libxml2-utils): skipped"; exit 77; }
python3 -c 'import jsonschema' 2>/dev/null || { echo "check_test_reports: no jsonschema (python3-jsonschema): skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_test_reports: $*" >&2; exit 1; }

# Check runs of two H100s: one of a stratum the reference judges on every level, one of a
# stratum whose reference lacks L2 far and PCIe d2h (too few of its GPUs ran the check tier).
mkdir "$work/every" "$work/fewer"
tar xJf "$src/reports/fleet/h100/check/2026-12-07_1gpu_865f7762.tar.xz" -C "$work/every"
tar xJf "$src/reports/fleet/h100/check/2026-12-07_1gpu_371611dc.tar.xz" -C "$work/fewer"
# name, expected exit, then the arguments before --format
cases=(
  "compare 0 compare $data/h200_default.json $data/h200_cg.json --filter read_offset"
  "compare_hostile 0 compare $data/hostile_names.json $data/hostile_names.json --all"
  "fleet 1 fleet $data/fleet"
  "by_level 0 fleet $work/every $work/fewer --by=level --allow-mixed --baseline=$src/reference/node_check.json"
)
for line in "${cases[@]}"; do
  read -r -a c <<<"$line"
  name=${c[0]} want=${c[1]}
  for format in junit ctrf; do
    out="$work/$name.$format"
    "$report" "${c[@]:2}" --format="$format" -o "$out" 2>"$work/err"
    rc=$?
    [ "$rc" = "$want" ] || { cat "$work/err" >&2; fail "$name --format=$format exited $rc, not $want"; }
  done
  xmllint --noout --schema "$schemas/junit.xsd" "$work/$name.junit" 2>"$work/xmllint" ||
    { cat "$work/xmllint" >&2; fail "$name: the JUnit XML is not valid"; }
  python3 - "$work/$name.junit" "$work/$name.ctrf" "$schemas/ctrf.schema.json" "$want" "$name" <<'PY' || exit 1
import json, sys, xml.etree.ElementTree as ET
import jsonschema
junit, ctrf, schema, want, name = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
doc = json.load(open(ctrf))
jsonschema.validate(doc, json.load(open(schema)))
tests = doc["results"]["tests"]
summary = doc["results"]["summary"]
for status in ("passed", "failed", "skipped"):
    n = sum(t["status"] == status for t in tests)
    assert summary[status] == n, f"{name}: summary {status} {summary[status]}, cases {n}"
assert summary["tests"] == len(tests) > 0, f"{name}: no cases"
root = ET.parse(junit).getroot()
cases = root.findall("./testsuite/testcase")
failures = len(root.findall("./testsuite/testcase/failure"))
errors = len(root.findall("./testsuite/testcase/error"))
assert int(root.get("tests")) == len(cases) == len(tests), f"{name}: {root.get('tests')} tests, {len(cases)} cases, CTRF {len(tests)}"
assert int(root.get("failures")) == failures and int(root.get("errors")) == errors, f"{name}: counts differ from the cases"
assert failures + errors == summary["failed"], f"{name}: JUnit {failures}+{errors} failed, CTRF {summary['failed']}"
# The exit code and the test results say the same: a verdict that fails is a failed case.
assert (summary["failed"] > 0) == (want != 0), f"{name}: exit {want} with {summary['failed']} failed case(s)"
for t in tests:
    assert isinstance(t["extra"]["reasons"], list), f"{name}: {t['name']} has no reasons list"
print(f"{name}: {len(tests)} cases, {summary['failed']} failed, {summary['skipped']} skipped")
PY
done
# The node check's level cases: one per GPU and level, the levels the reference lacks skipped.
grep -q 'name="DRAM"' "$work/by_level.junit" || fail "no DRAM case in the node check's JUnit"
grep -q '"rawStatus": "not in the reference"' "$work/by_level.ctrf" || fail "a level the reference lacks is not said"
echo "check_test_reports: JUnit and CTRF of compare, fleet and fleet --by=level valid and consistent"
