#!/usr/bin/env python3
"""tools/gate/fleet_evaluate.py --report BIN SET... [--work DIR] [--slowdowns 5,10] [-- FLEET OPTIONS]

How good `membench-report fleet` is at finding a slow GPU, on SET, healthy runs of one fleet
(several GPUs of one model and build, ideally two runs or more each): folders and `.tar.xz`
archives of folders (each extracted to a temporary folder, removed at the end), every .json
below each, the GPUs told apart by their gpu_uuid; several members are one set:
  - false alarms: fleet on the whole set and on every set without one GPU (leave one out):
    the GPUs called outliers, and the rows called slower or faster;
  - detection: each GPU in turn (but those the healthy set already calls outliers) made PCT % slower (tools/gate/inject_slowdown.py: times,
    intervals and samples scaled) on all its rows, then on one family of rows at a time,
    each family in turn: how often fleet calls that GPU an outlier, overall, by the family's
    size, by its most telling row (a kernel row of 5 us or more; kernel rows under 5 us
    only; copy and host rows only) and family by family; and how many of the slowed rows it
    calls slower (and slower beyond --one-row-threshold), by row duration (the healthy
    fleet's centre: < 5 us, 5-20 us, 20-1000 us, > 1 ms) and work kind (the label's work:);
  - --runs N keeps each GPU's first N files (in the set's order), to see what more runs
    buy on one set;
  - why: for every family not found in all its trials at the largest slowdown, its rows'
    run-to-run spread measured within the GPUs (pooled over them), the healthy GPUs'
    deviations from the centre and the half-width of their intervals.
Fleet options after `--` (for example --threshold 5) are passed on. Prints Markdown tables.
Exit 0; 2 when SET holds no usable fleet (a member that is neither a folder nor a readable
.tar.xz, an archive member outside its folder or not a plain file, a member without .json,
a file without gpu_uuid, one run given twice) or fleet refuses it.
"""
import argparse
import copy
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import membench_schema as S  # noqa: E402
from inject_slowdown import inject  # noqa: E402

BUCKETS = [("< 5 us", 0, 5), ("5-20 us", 5, 20), ("20-1000 us", 20, 1000), ("> 1 ms", 1000, float("inf"))]


def bucket(us):
    return next(label for label, lo, hi in BUCKETS if lo <= us < hi)


def fail(message):
    print(f"{Path(sys.argv[0]).stem}: {message}", file=sys.stderr)
    sys.exit(2)


def unpack(archive, folder):
    """Extracts ARCHIVE (.tar.xz) into FOLDER. Only plain files and folders inside it are
    accepted (a committed set is data, nothing else)."""
    try:
        with tarfile.open(archive, "r:xz") as tar:
            for member in tar.getmembers():
                name = Path(member.name)
                if name.is_absolute() or ".." in name.parts or not (member.isfile() or member.isdir()):
                    fail(f"{archive}: {member.name}: not a plain file or folder inside the archive")
            tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    except (tarfile.TarError, OSError, EOFError) as error:  # EOFError: xz data cut short
        fail(f"{archive}: not a readable .tar.xz ({error})")


def folders_of(members, into):
    """{member: the folder to read} for each SET member in order: a folder as given, a .tar.xz
    extracted into a folder of its own below INTO."""
    folders = {}
    for k, member in enumerate(members):
        if Path(member).is_dir():
            folders[member] = Path(member)
        elif member.endswith(".tar.xz") and Path(member).is_file():
            folders[member] = into / f"{k}_{Path(member).name}"
            unpack(member, folders[member])
        else:
            fail(f"{member}: neither a folder nor a .tar.xz file")
    return folders


def natural(path):
    """A sort key that puts run2/ before run10/: the digits of each part of the path as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(path))]


def gpus_of(folders):
    """{uuid: [paths]} of every .json below the folders ({SET member: folder}, in the members'
    order, each folder's files in natural order: run2/ before run10/), and each path's loaded
    document."""
    gpus, docs, runs = defaultdict(list), {}, {}
    for member, folder in folders.items():
        paths = sorted(folder.rglob("*.json"), key=natural)
        if not paths:
            fail(f"{member}: no .json file")
        for path in paths:
            where = str(path) if folder == Path(member) else f"{member}:{path.relative_to(folder)}"
            uuid, date = read_run(path, where, docs)
            if date and (uuid, date) in runs:  # a run twice would count as two and narrow its GPU's interval
                fail(f"{where} and {runs[(uuid, date)]}: one run of {uuid} (date {date}) given twice")
            runs[(uuid, date)] = where
            gpus[uuid].append(str(path))
    return dict(gpus), docs


def read_run(path, where, docs):
    """Loads PATH into DOCS; its GPU's uuid and the run's date (WHERE names it in errors)."""
    try:
        docs[str(path)] = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        fail(f"{where}: not JSON ({error})")
    context = docs[str(path)].get(S.file.context, {})
    uuid = context.get(S.context.gpu_uuid)
    if not uuid:
        fail(f"{where}: no {S.context.gpu_uuid} in its context")
    return uuid, context.get(S.gbench_context.date)


def fleet(report, files, options):
    """fleet's JSON (every row) on these files."""
    cmd = [report, "fleet", *files, "--format", "json", "--all", *options]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        print(f"fleet_evaluate: {' '.join(cmd)} exited {run.returncode}:\n{run.stderr}", file=sys.stderr)
        sys.exit(2)
    return json.loads(run.stdout)


def verdicts(out):
    return {g["uuid"]: g["verdict"] for g in out["gpus"]}


def called(out, uuid, verdict):
    return {r["name"] for r in out["rows"] if r["uuid"] == uuid and r["verdict"] == verdict}


def false_alarms(report, gpus, options):
    """Markdown: fleet on the whole set and without each GPU in turn."""
    sets = [("all GPUs", list(gpus))] + [(f"without {u[:12]}", [v for v in gpus if v != u]) for u in gpus]
    lines = ["## False alarms: the healthy set, and each GPU left out", "",
             "| set | GPUs | outlier | unsure | rows compared | rows slower | rows faster | beyond the one-row threshold |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    total = outliers = 0
    for label, members in sets:
        out = fleet(report, [f for u in members for f in gpus[u]], options)
        v = list(verdicts(out).values())
        rows = out["rows"]
        total += len(v)
        outliers += v.count("outlier")
        lines.append(f"| {label} | {len(v)} | {v.count('outlier')} | {v.count('unsure')} | {len(rows)} | "
                     f"{sum(r['verdict'] == 'slower' for r in rows)} | {sum(r['verdict'] == 'faster' for r in rows)} | "
                     f"{sum(r.get('one_row_verdict') in ('slower', 'faster') for r in rows)} |")
    lines += ["", f"GPU verdicts that were outlier: {outliers} of {total}.", ""]
    return lines


def slowed_copies(docs, paths, pct, family, folder):
    """Copies of the runs PATHS in FOLDER, PCT % slower on all rows (FAMILY None) or on one
    family's: their paths."""
    copies = []
    for k, path in enumerate(paths):
        doc = copy.deepcopy(docs[path])
        inject(doc, pct, "" if family is None else "^" + family.replace(".", r"\.") + "/")
        copies.append(folder / f"run{k}.json")
        copies[-1].write_text(json.dumps(doc))
    return [str(c) for c in copies]


def injected_run(report, gpus, docs, uuid, pct, family, work, options):
    """fleet with one GPU's files slowed (all rows, or one family's): that GPU's verdict, its
    rows called slower, and those called slower at the one-row threshold."""
    trial = Path(tempfile.mkdtemp(dir=work))
    files = [f for u, fs in gpus.items() if u != uuid for f in fs]
    out = fleet(report, files + slowed_copies(docs, gpus[uuid], pct, family, trial), options)
    shutil.rmtree(trial)
    alone = {r["name"] for r in out["rows"] if r["uuid"] == uuid and r.get("one_row_verdict") == "slower"}
    return verdicts(out).get(uuid), called(out, uuid, "slower"), alone


def bare(name):
    """A row's name as fleet names it (without Google Benchmark's time suffix)."""
    return re.sub(r"/(manual_time|real_time|process_time)$", "", name)


def work_kinds(docs):
    """{row name as fleet names it: its work kind (kernel, copy, host)} from the files' labels."""
    kinds = {}
    for doc in docs.values():
        for row in doc.get("benchmarks", []):
            name = bare(row.get("name", ""))
            found = re.search(r"\bwork:(\w+)", row.get("label", ""))
            kinds.setdefault(name, found.group(1) if found else "kernel")
    return kinds


UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def run_spreads(gpus, docs):
    """{(row, figure): (sd, df)}: the spread of a run's log figure about its GPU's mean (the runs
    fleet uses: converged, not errors), pooled over the GPUs with two runs or more of the row;
    figure "single" is the run's median (real_time), "fastest" its fastest sample (t_min_us),
    what fleet judges copies on, "batch" a short row's batch figure (batch_us)."""
    ss, df = defaultdict(float), defaultdict(int)
    for paths in gpus.values():
        logs = defaultdict(list)
        for path in paths:
            for row in docs[path].get(S.file.benchmarks, []):
                usable = row.get(S.row.run_type) == "iteration" and not row.get(S.row.error_occurred)
                if not usable or row.get(S.counter.converged, 1) == 0 or not row.get(S.row.real_time, 0) > 0:
                    continue
                us = row[S.row.real_time] * UNIT_US.get(row.get(S.row.time_unit, "ns"), 1e-3)
                logs[(bare(row[S.row.name]), "single")].append(math.log(us))
                for figure, counter in (("fastest", S.counter.t_min_us), ("batch", S.counter.batch_us)):
                    if row.get(counter, 0) > 0:
                        logs[(bare(row[S.row.name]), figure)].append(math.log(row[counter]))
        for key, x in logs.items():
            if len(x) >= 2:
                mean = sum(x) / len(x)
                ss[key] += sum((v - mean) ** 2 for v in x)
                df[key] += len(x) - 1
    return {key: (math.sqrt(ss[key] / df[key]), df[key]) for key in df}


def family_class(members, kinds):
    """What the family's most telling row is: a kernel row of 5 us or more (a 10 % change clears
    --resolution), kernel rows under 5 us only, or copy and host rows only."""
    kernel = [c for n, c in members if kinds.get(n, "kernel") == "kernel"]
    if any(c >= 5 for c in kernel):
        return FAMILY_CLASSES[0]
    return FAMILY_CLASSES[1] if kernel else FAMILY_CLASSES[2]


FAMILY_CLASSES = ["a kernel row >= 5 us", "kernel rows < 5 us only", "copy or host rows only"]
SIZES = ["1 row", "2-3 rows", "4+ rows"]


def size_of(n):
    return SIZES[0] if n == 1 else SIZES[1] if n <= 3 else SIZES[2]


def detection(report, gpus, docs, work, slowdowns, options):
    healthy = fleet(report, [f for fs in gpus.values() for f in fs], options)
    rows = defaultdict(dict)  # uuid -> {name: (family, centre_us)}
    for r in healthy["rows"]:
        rows[r["uuid"]][r["name"]] = (r["family"], r["centre_us"])
    kinds = work_kinds(docs)
    # A GPU the healthy set already calls an outlier would count as found whatever was slowed.
    already = [u for u, v in verdicts(healthy).items() if v == "outlier"]
    trials = []  # (pct, scope, uuid, family or None)
    for pct in slowdowns:
        for uuid in (u for u in gpus if u not in already):
            trials.append((pct, "all rows", uuid, None))
            for fam in sorted({f for f, _ in rows[uuid].values()}):
                trials.append((pct, "one family", uuid, fam))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda t: injected_run(report, gpus, docs, t[2], t[0], t[3], work, options), trials))
    count = Counts(healthy["rows"], run_spreads(gpus, docs), kinds)
    for (pct, scope, uuid, fam), (verdict, slower, alone) in zip(trials, results):
        count.gpu[(pct, scope)].add_verdict(verdict)
        slowed = [(n, c) for n, (f, c) in rows[uuid].items() if fam is None or f == fam]
        for name, centre in slowed:
            for key in (bucket(centre), kinds.get(name, "kernel"), "all"):
                count.rows[(pct, scope, key)].add_row(name in slower, name in alone)
        if fam is not None:
            for key in (size_of(len(slowed)), family_class(slowed, kinds)):
                count.gpu[(pct, key)].add_verdict(verdict)
            if len(slowed) > count.family[fam].get("rows", 0):  # the most any GPU compared
                count.family[fam]["rows"] = len(slowed)
                count.family[fam]["class"] = family_class(slowed, kinds)
            count.family[fam].setdefault(pct, Tally()).add_verdict(verdict)
    lines = tables(slowdowns, count)
    if already:
        lines[1:1] = ["", "Called outlier on the healthy set, so never slowed (a hit there is no detection): "
                      + ", ".join(u[:12] for u in already) + "."]
    return lines


class Tally:
    """Trials and how many ended outlier (hit) or unsure (other); or slowed rows and how many
    were called slower (hit) and slower beyond the one-row threshold (other)."""
    def __init__(self):
        self.n, self.hit, self.other = 0, 0, 0

    def add_verdict(self, verdict):
        self.n += 1
        self.hit += verdict == "outlier"
        self.other += verdict == "unsure"

    def add_row(self, slower, beyond):
        self.n += 1
        self.hit += slower
        self.other += beyond


class Counts:
    def __init__(self, healthy, spreads, kinds):
        self.gpu, self.rows, self.family = defaultdict(Tally), defaultdict(Tally), defaultdict(dict)
        # What the why-table reads: the healthy fleet's rows, each row's run spread and work kind.
        self.healthy, self.spreads, self.kinds = healthy, spreads, kinds


def rate(hit, n):
    """hit/n with its per cent to a tenth (a whole per cent could round 389/410 up to a 95 % bar)."""
    if not n:
        return "-"
    pct = f"{100 * hit / n:.1f}".removesuffix(".0")
    return f"{hit}/{n} ({pct} %)"


def tables(slowdowns, count):
    lines = ["## Detection: one GPU slowed, called outlier", "",
             "| slowdown | slowed | trials | outlier | unsure |", "|---:|---|---:|---:|---:|"]
    for pct in slowdowns:
        for scope in ("all rows", "one family"):
            t = count.gpu[(pct, scope)]
            lines.append(f"| {pct:g} % | {scope} | {t.n} | {rate(t.hit, t.n)} | {t.other} |")
    for title, keys in (("by the family's rows compared", SIZES),
                        ("by the family's most telling row (work kind, the healthy fleet's centre)", FAMILY_CLASSES)):
        lines += ["", f"One family slowed, {title}:", "", "| slowdown | family | trials | outlier |", "|---:|---|---:|---:|"]
        for pct in slowdowns:
            for key in keys:
                t = count.gpu[(pct, key)]
                if t.n:
                    lines.append(f"| {pct:g} % | {key} | {t.n} | {rate(t.hit, t.n)} |")
    return lines + family_table(slowdowns, count) + row_tables(slowdowns, count) + missed_rows(slowdowns, count) + [""]


def family_table(slowdowns, count):
    lines = ["", "One family slowed, each family (GPUs called outlier of those slowed; rows: the most a GPU "
             "compared):", "",
             "| family | rows | most telling row | " + " | ".join(f"{p:g} %" for p in slowdowns) + " |",
             "|---|---:|---|" + "---:|" * len(slowdowns)]
    for fam in sorted(count.family):
        f = count.family[fam]
        cells = [f"{f[p].hit}/{f[p].n}" if p in f else "-" for p in slowdowns]
        lines.append(f"| {fam} | {f['rows']} | {f['class']} | " + " | ".join(cells) + " |")
    return lines


def missed_rows(slowdowns, count):
    """Markdown: the rows of every family not found in all its trials at the largest slowdown,
    with what the healthy fleet says of them."""
    top = max(slowdowns)
    missed = [f for f in sorted(count.family) if top in count.family[f] and
              count.family[f][top].hit < count.family[f][top].n]
    lines = ["", f"## Families not always found at {top:g} %: their rows on the healthy fleet", "",
             "run-to-run: the sd of a run's log median (or of the figure fleet judges the row on: a copy's fastest "
             "sample, a short row's batch figure) about its GPU's mean, pooled over the GPUs with two runs or more (degrees of freedom); healthy deviations: the lowest and highest GPU / centre - 1 of the healthy "
             "fleet; half-width: of a healthy GPU's 95 % interval (median over the GPUs).", "",
             "| family | found | row | work | centre us | run-to-run | healthy deviations | half-width |",
             "|---|---:|---|---|---:|---:|---:|---:|"]
    by_name = defaultdict(list)
    for r in count.healthy:
        by_name[r["name"]].append(r)
    for fam in missed:
        t = count.family[fam][top]
        for name in sorted(n for n, rs in by_name.items() if rs[0]["family"] == fam):
            rs = by_name[name]
            devs = [100 * r["deviation"] for r in rs]
            halves = sorted(50 * (r["interval"]["high"] - r["interval"]["low"]) for r in rs
                            if r["interval"]["low"] is not None)
            figure = rs[0].get("figure", "single")
            sd, df = count.spreads.get((name, figure), (float("nan"), 0))
            spread = f"{100 * sd:.2f} % ({df})" if df else "- (no GPU with two usable runs)"
            half = f"{halves[len(halves) // 2]:.2f} %" if halves else "-"
            work = count.kinds.get(name, "kernel") + ("" if figure == "single" else f" ({figure})")
            lines.append(f"| {fam} | {t.hit}/{t.n} | {name[len(fam) + 1:]} | {work} | "
                         f"{rs[0]['centre_us']:.4g} | {spread} | "
                         f"{min(devs):+.1f} to {max(devs):+.1f} % | {half} |")
    return lines


def row_tables(slowdowns, count):
    labels = [b[0] for b in BUCKETS] + ["kernel", "copy", "host", "all"]
    lines = ["", "## Detection: slowed rows called slower, by row duration (the healthy fleet's centre) and work kind",
             "", "Each cell: rows called slower of the rows slowed, and how many of those were slower beyond the "
             "one-row threshold too.", "",
             "| slowdown | slowed | " + " | ".join(labels) + " |", "|---:|---|" + "---:|" * len(labels)]
    for pct in slowdowns:
        for scope in ("all rows", "one family"):
            cells = []
            for b in labels:
                t = count.rows[(pct, scope, b)]
                cells.append(f"{rate(t.hit, t.n)}, {t.other} beyond" if t.n else "-")
            lines.append(f"| {pct:g} % | {scope} | " + " | ".join(cells) + " |")
    return lines


def set_arguments(doc):
    """The arguments every evaluation script takes (--report, the set, --slowdowns) in a parser
    described by DOC's second paragraph, and the fleet options after `--` split from the rest:
    (parser, the script's own arguments, the fleet options)."""
    argv, options = sys.argv[1:], []
    if "--" in argv:
        options, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--report", required=True, help="the membench-report binary")
    ap.add_argument("set", nargs="+", help="folders or .tar.xz archives of healthy runs of one fleet (together one set)")
    ap.add_argument("--slowdowns", default="5,10", help="percent slower, comma-separated (default 5,10)")
    return ap, argv, options


def main():
    ap, argv, passed = set_arguments(__doc__)
    ap.add_argument("--work", help="a folder for the slowed copies (default: a temporary one, removed)")
    ap.add_argument("--runs", type=int, help="each GPU's first RUNS files only (the set's order): how detection grows with runs")
    args = ap.parse_args(argv)
    if args.runs is not None and args.runs < 1:
        fail(f"--runs {args.runs}: at least 1")
    slowdowns = [float(x) for x in args.slowdowns.split(",") if x]
    unpacked = Path(tempfile.mkdtemp(prefix="fleet_evaluate_set_"))
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="fleet_evaluate_"))
    try:
        gpus, docs = gpus_of(folders_of(args.set, unpacked))
        if args.runs:
            gpus = {uuid: paths[:args.runs] for uuid, paths in gpus.items()}
        work.mkdir(parents=True, exist_ok=True)
        runs = sum(len(f) for f in gpus.values())
        first = f", each GPU's first {args.runs}" if args.runs else ""
        print(f"# fleet on {' '.join(args.set)}: {len(gpus)} GPU(s), {runs} file(s){first}; options: {' '.join(passed) or 'defaults'}\n")
        print("\n".join(false_alarms(args.report, gpus, passed)))
        print("\n".join(detection(args.report, gpus, docs, work, slowdowns, passed)))
    finally:
        shutil.rmtree(unpacked, ignore_errors=True)
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
