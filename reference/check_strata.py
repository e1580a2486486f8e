#!/usr/bin/env python3
"""reference/check_strata.py SHARED CHECKED EVAL_SHARED EVAL_CHECKED NODE_CHECK EVALUATION:
the node check's reference per stratum, from the runs that judge every level where there are
enough of them (make_reference.sh runs it).

SHARED is fleet's reference of the rows the quick tier shares with the check tier, from the
quick-tier and check runs together; CHECKED that of every check row, from the check runs
alone (or an empty file: no stratum had three GPUs of check runs). A stratum of CHECKED with
at least MIN_GPUS GPUs replaces SHARED's: every level judged (L2 far, DSM bandwidth, PCIe
d2h too), against GPUs measured as a node is, each of which the evaluation can leave out with
three others left. The evaluations (membench-check-evaluate's Markdown, one section a
stratum) are taken alike: EVAL_CHECKED's section for a stratum replaced, EVAL_SHARED's else.
Writes NODE_CHECK and EVALUATION; exit 1 with a line when an input is not what it should be.
"""
import json
import sys

MIN_GPUS = 4


def read_reference(path):
    """A fleet baseline's JSON; an empty file is one of no strata."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not text.strip():
        return None
    ref = json.loads(text)
    if not isinstance(ref, dict) or not isinstance(ref.get("fleets"), list):
        sys.exit(f"check_strata.py: {path}: no fleet baseline (no fleets)")
    return ref


def stratum_key(fleet):
    """What tells strata apart: the model, its build and each stratum field's values."""
    return (fleet["gpu_name"], fleet["build"], json.dumps(fleet["stratum"], sort_keys=True))


def title_of(fleet):
    """The evaluation's section title of a stratum: the model, then each field and its value."""
    fields = ", ".join(f"{k} {'|'.join(v)}" for k, v in fleet["stratum"].items())
    return f"### {fleet['gpu_name']}, {fields}"


def sections(path):
    """The evaluation's preamble, and its sections by title (each with its lines)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    preamble, out, current = [], {}, None
    for line in lines:
        if line.startswith("### "):
            current = line
            out[current] = [line]
        elif current is None:
            preamble.append(line)
        else:
            out[current].append(line)
    return preamble, out


def merged_reference(shared, checked):
    """SHARED with each stratum CHECKED holds on MIN_GPUS GPUs or more replaced; those strata."""
    full = {stratum_key(f): f for f in (checked or {}).get("fleets", []) if len(f["gpus"]) >= MIN_GPUS}
    if checked is not None and checked.get("thresholds_pct") != shared.get("thresholds_pct"):
        sys.exit("check_strata.py: the two references were made at different thresholds")
    fleets = [full.get(stratum_key(f), f) for f in shared["fleets"]]
    known = {stratum_key(f) for f in shared["fleets"]}
    fleets += [f for key, f in full.items() if key not in known]
    return dict(shared, fleets=fleets), [f for f in fleets if stratum_key(f) in full]


def merged_evaluation(eval_shared, eval_checked, full):
    preamble, shared = sections(eval_shared)
    _, checked = sections(eval_checked) if full else ([], {})
    titles = {title_of(f) for f in full}
    missing = titles - set(checked)
    if missing:
        sys.exit(f"check_strata.py: {eval_checked} has no section for {sorted(missing)}")
    out = list(preamble)
    if full:
        out += [f"Every level, the check runs alone (strata with {MIN_GPUS} GPUs or more of check runs): "
                + "; ".join(t[4:] for t in sorted(titles)) + ". The other strata: the levels the quick tier "
                "shares, from quick-tier and check runs together.", ""]
    for title, lines in shared.items():
        out += checked[title] if title in titles else lines
    for title in sorted(titles - set(shared)):
        out += checked[title]
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__.split("\n\n")[0])
    shared, checked = read_reference(argv[0]), read_reference(argv[1])
    if shared is None:
        sys.exit(f"check_strata.py: {argv[0]} is empty: no reference")
    reference, full = merged_reference(shared, checked)
    evaluation = merged_evaluation(argv[2], argv[3], full)
    with open(argv[4], "w", encoding="utf-8") as f:
        f.write(json.dumps(reference, indent=1, ensure_ascii=False) + "\n")
    with open(argv[5], "w", encoding="utf-8") as f:
        f.write(evaluation)


if __name__ == "__main__":
    main(sys.argv[1:])
