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
Writes NODE_CHECK and EVALUATION, both or neither; exit 2 with a line when an input is not
what it should be (missing, not a regular file or a pipe, not UTF-8, not JSON, a key given
twice, no fleet baseline, a build or stratum value that is no text) or an output is one of
the inputs, or both outputs one file, or an output cannot be written (nothing changed then).
Ctrl-C: one line, exit 130.
"""
import json
import sys

from membench import cli

MIN_GPUS = 4
PROG = "check_strata.py"


def fail(message):
    cli.fail(PROG, message)


def read_text(path):
    """The UTF-8 text of `path`; exit 2 naming it where it cannot be read."""
    return cli.read_text(PROG, path)


def read_reference(path):
    """A fleet baseline's JSON (a key given twice refused, as membench reads JSON); an empty
    file is one of no strata. Each fleet's model and build are texts and its stratum each
    field's values as texts, as fleet writes them: strata are told apart and titled by them."""
    text = read_text(path)
    if not text.strip():
        return None
    ref = cli.read_json(PROG, path, text)
    if not isinstance(ref, dict) or not isinstance(ref.get("fleets"), list):
        fail(f"{path}: no fleet baseline (no fleets)")
    for k, fleet in enumerate(ref["fleets"]):
        if not (isinstance(fleet, dict) and isinstance(fleet.get("gpu_name"), str) and "build" in fleet
                and isinstance(fleet.get("stratum"), dict) and isinstance(fleet.get("gpus"), list)):
            fail(f"{path}: fleets[{k}] is no stratum (gpu_name, build, stratum, gpus)")
        if not isinstance(fleet["build"], str):
            fail(f"{path}: fleets[{k}]: the build is {json.dumps(fleet['build'])[:60]}, not a text")
        for field, values in fleet["stratum"].items():
            if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
                fail(f"{path}: fleets[{k}]: stratum {field} is {json.dumps(values)[:60]}, not a list of texts")
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
    lines = read_text(path).splitlines()
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
        fail("the two references were made at different thresholds")
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
        fail(f"{eval_checked} has no section for {sorted(missing)}")
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


def parse_args():
    ap = cli.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    for name in ("SHARED", "CHECKED", "EVAL_SHARED", "EVAL_CHECKED", "NODE_CHECK", "EVALUATION"):
        ap.add_argument(name.lower(), metavar=name)
    args = ap.parse_args()
    inputs = [args.shared, args.checked, args.eval_shared, args.eval_checked]
    # Writing an output over an input replaces what it is made from; both outputs one file
    # would keep only the second.
    for output in (args.node_check, args.evaluation):
        cli.refuse_output_is_input(PROG, output, inputs)
    cli.refuse_output_is_input(PROG, args.evaluation, [args.node_check])
    return args


def main():
    args = parse_args()
    shared, checked = read_reference(args.shared), read_reference(args.checked)
    if shared is None:
        fail(f"{args.shared} is empty: no reference")
    reference, full = merged_reference(shared, checked)
    evaluation = merged_evaluation(args.eval_shared, args.eval_checked, full)
    # Both or neither: a new reference beside no evaluation of it (or the last one's) misleads.
    cli.write_outputs(PROG, {args.node_check: json.dumps(reference, indent=1, ensure_ascii=False) + "\n",
                             args.evaluation: evaluation})
    return 0


if __name__ == "__main__":
    cli.run_main(main, PROG)
