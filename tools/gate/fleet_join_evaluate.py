#!/usr/bin/env python3
"""tools/gate/fleet_join_evaluate.py --report BIN SET... [--slowdowns 5,10] [--new-runs 1,all] [-- FLEET OPTIONS]

How good `membench-report fleet --baseline` is at its common case, "is this node fit to
join?", on SET, healthy runs of one fleet (as tools/gate/fleet_evaluate.py reads them):
each GPU in turn is the newcomer; a baseline is made of the others (`fleet OTHERS
--baseline-out`) and the newcomer is judged against it (`fleet --baseline B NEWCOMER`) with
its first N runs (--new-runs: 1 is a node that ran the suite once, `all` every run it has):
  - false alarms: the healthy newcomer's verdict and its rows called slower or faster; and
    every run of every GPU judged alone (a node that ran the suite once, as often as the set
    has runs), with the reasons of those called;
  - detection: the newcomer made PCT % slower (inject_slowdown.py) on all its rows, then on
    one family at a time: how often it is called an outlier (not fit to join), overall, by
    the family's most telling row, and, for families not always found at the largest
    slowdown, family by family.
A GPU that the whole healthy set already calls an outlier is neither a newcomer nor in any
baseline (it is named): a baseline is made of GPUs that passed.
Fleet options after `--` go to both the baseline and the judging. Prints Markdown tables.
Exit 0; 2 when SET holds no usable fleet (as fleet_evaluate.py) or fewer than 4 GPUs pass
(a baseline of fewer than 3 makes every newcomer unsure).
"""
import os
import shutil
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fleet_evaluate import (FAMILY_CLASSES, Tally, fail, family_class, fleet, folders_of, gpus_of, rate,
                            set_arguments, slowed_copies, verdicts, work_kinds)


def judged(report, baseline, files, options):
    """fleet's JSON (every row) on FILES judged against BASELINE."""
    return fleet(report, files, ["--baseline", str(baseline), *options])


def make_baseline(report, gpus, newcomer, work, options):
    """A baseline of every GPU but NEWCOMER, written below WORK: its path."""
    path = work / f"baseline_{newcomer}.json"
    fleet(report, [f for u, fs in gpus.items() if u != newcomer for f in fs], ["--baseline-out", str(path), *options])
    return path


def families_of(out, uuid):
    """{family: [(row, centre us)]} of the rows compared for UUID."""
    rows = defaultdict(list)
    for r in out["rows"]:
        if r["uuid"] == uuid and r["verdict"] != "left_out":
            rows[r["family"]].append((r["name"], r["centre_us"]))
    return dict(rows)


class Newcomer:
    """One GPU judged as a newcomer with its first N runs: healthy, then slowed."""
    def __init__(self, report, uuid, paths, baseline, options):
        self.report, self.uuid, self.paths, self.baseline, self.options = report, uuid, paths, baseline, options

    def healthy(self):
        return judged(self.report, self.baseline, self.paths, self.options)

    def slowed(self, docs, pct, family, work):
        trial = Path(tempfile.mkdtemp(dir=work))
        out = judged(self.report, self.baseline, slowed_copies(docs, self.paths, pct, family, trial), self.options)
        shutil.rmtree(trial)
        return verdicts(out).get(self.uuid)


def runs_label(n):
    return "all" if n is None else str(n)


def false_alarm_lines(results):
    """Markdown: each healthy newcomer's verdict. RESULTS: [(n, uuid, fleet JSON)]."""
    lines = ["## False alarms: each healthy GPU judged against the baseline of the others", "",
             "| new runs | GPU | runs judged | verdict | rows compared | rows slower | rows faster | beyond the one-row threshold |",
             "|---|---|---:|---|---:|---:|---:|---:|"]
    outliers = defaultdict(int)
    for n, uuid, out in results:
        gpu = next(g for g in out["gpus"] if g["uuid"] == uuid)
        rows = [r for r in out["rows"] if r["uuid"] == uuid]
        outliers[n] += gpu["verdict"] == "outlier"
        lines.append(f"| {runs_label(n)} | {uuid[:12]} | {gpu['runs']} | {gpu['verdict']} | {gpu['compared']} | "
                     f"{gpu['slower']} | {gpu['faster']} | "
                     f"{sum(r.get('one_row_verdict') in ('slower', 'faster') for r in rows)} |")
    lines.append("")
    for n in outliers:
        judged_n = sum(1 for m, _, _ in results if m == n)
        lines.append(f"New runs {runs_label(n)}: healthy GPUs called not fit to join: {outliers[n]} of {judged_n}.")
    return lines + [""]


def each_run_lines(report, passed, baselines, options):
    """Markdown: every run of every healthy GPU judged alone against the baseline of the
    others: a node that ran the suite once, as many times as the set has runs."""
    runs = [(u, path) for u, paths in passed.items() for path in paths]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outs = list(pool.map(lambda r: judged(report, baselines[r[0]], [r[1]], options), runs))
    count, reasons, unsure = Tally(), defaultdict(list), defaultdict(int)
    for (uuid, _), out in zip(runs, outs):
        gpu = next(g for g in out["gpus"] if g["uuid"] == uuid)
        count.add_verdict(gpu["verdict"])
        if gpu["verdict"] == "outlier":
            reasons[uuid].append(gpu["reason"])
        elif gpu["verdict"] == "unsure":
            unsure[gpu["reason"].split(":")[0].split(" (")[0]] += 1
    why_unsure = "; ".join(f"{n} {reason}" for reason, n in sorted(unsure.items(), key=lambda kv: -kv[1]))
    lines = [f"Each run alone (every run of every GPU judged as a node that ran the suite once): "
             f"{count.hit} of {count.n} called not fit to join, {count.other} unsure"
             + (f" ({why_unsure})." if why_unsure else ".")]
    for uuid, why in reasons.items():
        lines.append(f"- {uuid[:12]}: {len(why)} of {len(passed[uuid])} runs; the first: {why[0]}")
    return lines + [""]


def detection_lines(trials, outcomes, slowdowns, kinds):
    """Markdown: how often a slowed newcomer is called an outlier. TRIALS: (n, pct, uuid,
    family or None, the family's rows); OUTCOMES: its verdicts."""
    gpu, family = defaultdict(Tally), defaultdict(Tally)
    for (n, pct, uuid, fam, rows), verdict in zip(trials, outcomes):
        scope = "all rows" if fam is None else "one family"
        gpu[(n, pct, scope)].add_verdict(verdict)
        if fam is not None:
            gpu[(n, pct, family_class(rows, kinds))].add_verdict(verdict)
            family[(n, pct, fam)].add_verdict(verdict)
    lines = ["## Detection: the newcomer slowed, called not fit to join", "",
             "| new runs | slowdown | slowed | trials | outlier | unsure |", "|---|---:|---|---:|---:|---:|"]
    counts = sorted({n for n, _, _ in gpu}, key=lambda n: (n is None, n or 0))
    for n in counts:
        for pct in slowdowns:
            for scope in ("all rows", "one family", *FAMILY_CLASSES):
                t = gpu[(n, pct, scope)]
                if t.n:
                    lines.append(f"| {runs_label(n)} | {pct:g} % | {scope} | {t.n} | {rate(t.hit, t.n)} | {t.other} |")
    top = max(slowdowns)
    missed = sorted({(n, f) for (n, p, f), t in family.items() if p == top and t.hit < t.n},
                    key=lambda k: (k[0] is None, k[0] or 0, k[1]))
    lines += ["", f"Families not always found at {top:g} % (newcomers called outlier of those slowed):", "",
              "| new runs | family | " + " | ".join(f"{p:g} %" for p in slowdowns) + " |",
              "|---|---|" + "---:|" * len(slowdowns)]
    for n, fam in missed:
        cells = [f"{family[(n, p, fam)].hit}/{family[(n, p, fam)].n}" for p in slowdowns]
        lines.append(f"| {runs_label(n)} | {fam} | " + " | ".join(cells) + " |")
    return lines + [""]


def evaluate(report, gpus, docs, work, slowdowns, new_runs, options):
    whole = fleet(report, [f for fs in gpus.values() for f in fs], options)
    already = sorted(u for u, v in verdicts(whole).items() if v == "outlier")
    passed = {u: fs for u, fs in gpus.items() if u not in already}
    # A newcomer against fewer than 3 GPUs is unsure whatever it reads: the evaluation would
    # count no false alarm and find nothing by construction.
    if len(passed) < 4:
        fail(f"{len(passed)} GPU(s) pass on the healthy set: a robust baseline of the others needs 4 or more")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        baselines = dict(zip(passed, pool.map(lambda u: make_baseline(report, passed, u, work, options), passed)))
    newcomers = [(n, Newcomer(report, u, passed[u][:n], baselines[u], options)) for n in new_runs for u in passed]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        healthy = list(pool.map(lambda c: c[1].healthy(), newcomers))
    trials = []
    for (n, c), out in zip(newcomers, healthy):
        rows = families_of(out, c.uuid)
        for pct in slowdowns:
            trials.append((n, pct, c, None, [r for rs in rows.values() for r in rs]))
            trials += [(n, pct, c, fam, rows[fam]) for fam in sorted(rows)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outcomes = list(pool.map(lambda t: t[2].slowed(docs, t[1], t[3], work), trials))
    lines = false_alarm_lines([(n, c.uuid, out) for (n, c), out in zip(newcomers, healthy)])
    lines += each_run_lines(report, passed, baselines, options)
    if already:
        lines += ["Called outlier on the whole healthy set, so in no baseline and never a newcomer: "
                  + ", ".join(u[:12] for u in already) + ".", ""]
    trials = [(n, pct, c.uuid, fam, rows) for n, pct, c, fam, rows in trials]
    return lines + detection_lines(trials, outcomes, slowdowns, work_kinds(docs))


def parse_new_runs(text):
    """'1,all' -> [1, None] (None: every run)."""
    counts = []
    for item in (x.strip() for x in text.split(",") if x.strip()):
        if item == "all":
            counts.append(None)
        elif item.isdigit() and int(item) >= 1:
            counts.append(int(item))
        else:
            fail(f"--new-runs {text}: each a whole number 1 or more, or all")
    return counts or fail(f"--new-runs {text}: none given")


def main():
    ap, argv, passed = set_arguments(__doc__)
    ap.add_argument("--new-runs", default="1,all", help="the newcomer's first N runs judged, comma-separated; all: every run (default 1,all)")
    args = ap.parse_args(argv)
    slowdowns = [float(x) for x in args.slowdowns.split(",") if x]
    new_runs = parse_new_runs(args.new_runs)
    unpacked = Path(tempfile.mkdtemp(prefix="fleet_join_set_"))
    work = Path(tempfile.mkdtemp(prefix="fleet_join_"))
    try:
        gpus, docs = gpus_of(folders_of(args.set, unpacked))
        runs = sum(len(f) for f in gpus.values())
        print(f"# fleet --baseline on {' '.join(args.set)}: {len(gpus)} GPU(s), {runs} file(s); "
              f"new runs {', '.join(map(runs_label, new_runs))}; options: {' '.join(passed) or 'defaults'}\n")
        print("\n".join(evaluate(args.report, gpus, docs, work, slowdowns, new_runs, passed)))
    finally:
        shutil.rmtree(unpacked, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
