#!/usr/bin/env python3
"""Renders reports/findings.md.in into reports/FINDINGS.md: every measured number in the
findings is a reference into a JSON file under reports/, resolved here, so none is typed
by hand, and none is quoted that its row cannot carry.

  python3 reports/make_findings.py [--report PATH] reports/findings.md.in > reports/FINDINGS.md

Template syntax: {{EXPR|FORMAT|FLAG|...}}, FORMAT and FLAGs optional, in any order.
  <!-- alias NAME = <path under reports/> -->        a JSON file, named once; a packed one,
                                                      `X.tar.xz` holding `X.json`, is read
                                                      from a temporary copy unpacked
  {{NAME#<benchmark run_name>@<counter>|<format>}}    one value (counter `time` = the median, us)
  {{A#row@counter / B#row@counter|<format>}}          the ratio of two values
  {{NAME$<context key>|<format>}}                     a value of the file's context
  {{cmp X vs Y [by N%]}}                              faster / slower / same within N % /
                                                      unsure (compare's reason)
  {{verdict CLAUSE [and CLAUSE ...]}}                 holds / does not hold /
                                                      undecided (inside uncertainty)
  {{assert CLAUSE [and CLAUSE ...]|<format>}}         fails the run unless every clause
                                                      holds; renders the ratios and intervals
  {{best A#<regex>@<counter> [confirm B]|<format>}}   the best of the rows the regex matches
  {{count A WHAT [<regex>] [with <token>] [by space]}} how many rows: WHAT is rows, errors,
                                                      unconverged, throttled, unrecorded or
                                                      floor; `with` keeps the rows whose label
                                                      has the token (`work:host`); `by space`
                                                      gives the count of every space
                                                      (`15 host, 8 alloc and 2 global`)
  {{list A <regex> [floor]}}                          the parts in which the names of the rows
                                                      the regex matches (those at the timer's
                                                      floor) differ (`block:32`, ...)
  {{percall A#<row>|<format>}}                        a row's time per call with its interval,
                                                      from a row that records calls_per_sample,
                                                      or, from a row at the timer's floor, that
                                                      floor with its numbers and no per-call time
The counter `cycles` is a row's time x its sampled SM clock (`sm_clock_mhz`): rows of
GPUs or runs at different clocks compare in cycles as well as in time.
CLAUSE is `X < Y [by N%]`, `X > Y [by N%]`, `X ~ Y within N%`, `X <= Y within N%` or
`X >= Y within N%`, where X and Y are rows (`A#row@counter`), either one optionally scaled
by a number (`32*A#row@time`). Elsewhere an operand may also be a number or a context value
(`{{A$gpu_l2_bytes / 1048576|.0f}}`); without a format a context value is copied as it is.
FORMAT is a Python format spec (`.2f`; default `.3g`; `.1%` writes a ratio as a percentage).
A regex matches the whole run name and may not contain `|` or `}`. Flags: `ci` renders the interval after the value
(`1.009x [1.004, 1.013]`; the `x` marks a ratio of two rows; after cmp and verdict the ratio
intervals follow in parentheses); `unconverged`, `throttled`, `unrecorded` opt in to
quoting a row that is not usable, and render its caveat.

Rules. Any violation is an error (exit 1; each message names the file, the row and why).
Every fact behind a rule comes from membench-report (`--report PATH`, else $MEMBENCH_REPORT,
else build/dev/bin/membench-report): `rows` for each row's values, the interval of its median
time and its usability, `compare --pairs --format json` for every comparison; this script
parses the template, asks, and formats the answers.
- Usable rows (`rows`' problems). An error row is refused. A row that did not converge or has
  fewer than 10 samples is refused unless the reference says `unconverged` (rendered "(not
  converged, N samples)"); a throttled one unless it says `throttled` ("(throttled:
  <reason>)"); one without a `converged` or `samples` counter (files from before membench
  recorded them) unless it says `unrecorded` ("(convergence not recorded)"). A flag that no
  row of the reference needs is an error too, so caveats do not outlive their data. `best`
  leaves unusable rows out and says how many; `count` refuses nothing.
- Intervals. A row's interval is `rows`' interval of its median time (its ci_low_us and
  ci_high_us at the file's level, widened to contain the median, or the normal approximation
  from noise_pct and samples). Time counters (`time`, `us_per_call`) scale with the time, rate
  counters (`gb_per_s`, `bytes_per_second`, `gflop_per_s`, `pct_peak`, `bytes_per_clk_per_sm`,
  `items_per_second`) with its inverse (same bytes or flops); other counters carry no interval and are refused
  wherever one is needed. The interval of a ratio of two rows is compare's interval of the
  change of their times (`1 + low`, `1 + high`), inverted for rates; numbers and context
  values are exact.
- A ratio of two rows is quoted with `ci` (its interval), or not at all; so is a ratio that a
  counter holds (a counter of unit `x`, or a per cent of another row: `speedup_vs_plain`,
  `pct_cublas`, ...): such counters are refused, and the ratio is written as the two rows'
  quotient, whose interval compare gives.
- The timer's floor. A row whose label says `floor:timer`, or whose interval has no width and
  whose median is within membench-report's resolution (0.5 us, compare's `--resolution`) of
  the event pair's cost (`membench_event_overhead_us` of its file), timed the timer, not the
  call: it is refused everywhere but in `percall`, which says so with its numbers.
- Comparisons: each clause is one pair for compare, X the NEW row and Y the BASE row (times
  scaled by a clause's factor), with threshold and margin both N (`by N%`, `within N%`;
  0 without), --correction none (each clause is a claim of its own), --clock-tolerance 100
  (rows of two GPUs or builds are compared on purpose) and --run-spread* 0 (a finding weighs
  the rows as measured, by their own intervals: the floors are the gate's allowance for a
  rerun). The files keep no samples_us, so compare decides from the rows' intervals, as one
  t interval on the log ratio of the medians. Compare calls X's time slower, faster, same (|change| < N) or unsure
  (the interval of the change does not clear N, too small, throttled, not converged, host
  work measured once). "X smaller" is faster for time counters, slower for rate counters
  (a larger value is a smaller time). The mapping:
    X < Y by N%:       holds on "X smaller", does not hold on "X larger" or same
    X > Y by N%:       holds on "X larger", does not hold on "X smaller" or same
    X ~ Y within N%:   holds on same, does not hold on "X smaller" or "X larger"
    X <= Y within N%:  holds on same or "X smaller", does not hold on "X larger"
    X >= Y within N%:  holds on same or "X larger", does not hold on "X smaller"
  and unsure is undecided. `verdict`: holds when every clause holds, does not hold when some
  clause does not, else undecided (inside uncertainty). `assert`: every clause must hold.
  `cmp` (two time or two rate counters) says compare's verdict on X's speed against Y's:
  faster, slower, "same within N %" or "unsure (<compare's reason>)".
- Best of N. `best` picks the largest value (the smallest for time counters) among the
  usable rows that match, and renders its value, the parts of its name that vary, the
  number of rows it was picked from, how many of them lie within its uncertainty (compare,
  threshold 0, calls them unsure against it), and "not confirmed on an independent run",
  unless `confirm B` finds the same row usable in file B and within uncertainty of B's best
  over the same regex.
The rendered file ends with the list of files, their context and their unusable rows.
"""
import json
import lzma
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from membench import schema as S

C, R, X = S.counter, S.row, S.context

ALIAS = re.compile(r"<!--\s*alias\s+(\w+)\s*=\s*(\S+)\s*-->\n?")
REF = re.compile(r"\{\{([^{}]+)\}\}")
ONE = re.compile(r"^\s*(\w+)#([^@]+)@(\S+)\s*$")
CTX = re.compile(r"^\s*(\w+)\$(\w+)\s*$")
NUM = re.compile(r"^\s*[0-9.]+\s*$")
SCALED = re.compile(r"^\s*([0-9.]+)\*(\S+)\s*$")
CLAUSE = re.compile(r"^\s*(\S+)\s+(<=|>=|<|>|~|vs)\s+(\S+)(?:\s+(by|within)\s+([0-9.]+)\s*%)?\s*$")
BEST = re.compile(r"^\s*best\s+(\w+)#(.+)@(\S+?)(?:\s+confirm\s+(\w+))?\s*$")
COUNT = re.compile(r"^\s*count\s+(\w+)\s+(rows|errors|unconverged|throttled|unrecorded|floor)"
                   r"(?:\s+(?!with\s|by\s)(\S+))?(?:\s+with\s+(\S+))?(\s+by\s+space)?\s*$")
LIST = re.compile(r"^\s*list\s+(\w+)\s+(\S+)(\s+floor)?\s*$")
PERCALL = re.compile(r"^\s*percall\s+(\w+)#(\S+)\s*$")
WITHIN = ("~", "<=", ">=")
MARKERS = ("unconverged", "throttled", "unrecorded")
CAVEAT = {"unconverged": "not converged", "throttled": "throttled", "unrecorded": "convergence not recorded"}
# membench-report's problems of a row, and the flag that admits each.
MARKER_OF = {"unconverged": "unconverged", "few_samples": "unconverged", "throttled": "throttled",
             "unrecorded": "unrecorded"}
TIME_LIKE = {"time", "cycles", C.us_per_call}
RATE_LIKE = {C.gb_per_s, C.bytes_per_second, C.gflop_per_s, C.pct_peak, C.bytes_per_clk_per_sm, R.items_per_second}
# How a clause holds on compare's verdict of X's time against Y's, "smaller" and "larger" of
# X's value: (holds on, does not hold on); any other verdict (unsure) leaves it undecided.
HOLDS = {"<": ({"smaller"}, {"larger", "same"}), ">": ({"larger"}, {"smaller", "same"}),
         "~": ({"same"}, {"smaller", "larger"}), "<=": ({"same", "smaller"}, {"larger"}),
         ">=": ({"same", "larger"}, {"smaller"})}
# Counters that hold a ratio of two rows (unit x, or a per cent of another row): quoted only as
# the two rows' quotient, whose interval compare gives.
RATIO_COUNTERS = {c for c in C if C.unit(c) == "x"} | {C.pct_cublas, C.pct_of_bound, C.kernel_pct,
                                                     C.pct_of_local_read}
# The least change compare counts (its --resolution default): a median this close to the event
# pair's cost cannot be told from it.
RESOLUTION_US = 0.5
# The label token and counter of the alloc family's many-calls-a-sample rows; the schema lists
# them once membench writes them (until then a file cannot hold them).
FLOOR_TOKEN = S.label["floor"] if "floor" in S.label else "floor"
CALLS = C["calls_per_sample"] if "calls_per_sample" in C else "calls_per_sample"
COMPARE_FLAGS = ["--correction", "none", "--clock-tolerance", "100", "--run-spread", "0", "--run-spread-copy", "0",
                 "--run-spread-host", "0", "--run-spread-us", "0"]


class Bad(Exception):
    pass


class Pending(Exception):
    """A comparison asked for before membench-report answered it (the first pass)."""


def ask(report, args, stdin=None):
    """membench-report's JSON answer."""
    done = subprocess.run([report, *args], input=stdin, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise Bad(f"{report} {' '.join(args[:2])}: {done.stderr.strip()}")
    return json.loads(done.stdout)


class Row:
    """One row as `membench-report rows` describes it."""

    def __init__(self, path, r, context):
        self.path, self.r, self.context = path, r, context
        self.name, self.label = r["name"], r["label"]
        self.error = r["error"] is not None

    def at_floor(self):
        """Why the row's samples read the timer and not the work ("" when they do not): its
        label says `floor:timer`, or its interval has no width at the event pair's cost."""
        if f"{FLOOR_TOKEN}:timer" in self.label.split():
            return f"labelled {FLOOR_TOKEN}:timer"
        iv, pair = self.r["interval"], self.context.get(X.membench_event_overhead_us)
        if self.error or iv is None or pair is None or iv["low_us"] != iv["high_us"]:
            return ""
        t = float(self.r["time_us"])
        if abs(t - float(pair)) >= RESOLUTION_US:
            return ""
        return (f"its interval [{iv['low_us']:.3f}, {iv['high_us']:.3f}] us has no width at the event pair's "
                f"{float(pair):.3f} us")

    def problems(self):
        """(marker, detail, reason) for each reason this row may not be quoted as it is."""
        out, n = [], int(self.r["counters"].get(C.samples, 0))
        noise = self.r["counters"].get(C.noise_pct, float("nan"))
        for p in self.r["problems"]:
            if p["kind"] in ("unconverged", "few_samples"):
                out.append(("unconverged", f"{n} sample{'s' * (n != 1)}",
                            f"did not converge ({n} samples, noise {noise:.1f} %)"))
            elif p["kind"] == "throttled":
                out.append(("throttled", p["detail"], f"was sampled under throttle:{p['detail']}"))
            elif p["kind"] == "unrecorded":
                out.append(("unrecorded", "", "records no `converged` or `samples` counter"))
        if floor := self.at_floor():
            out.append(("floor", floor, f"is at the timer's floor ({floor}): no per-call time"))
        return out

    def value(self, counter):
        if counter == "time":
            return float(self.r["time_us"])
        if counter == "cycles":
            return float(self.r["time_us"]) * self.value(C.sm_clock_mhz)
        if counter not in self.r["counters"]:
            raise Bad(f"{self.path}: '{self.name}' has no counter '{counter}'")
        return float(self.r["counters"][counter])

    def interval(self, counter):
        """The interval of a counter's value, from membench-report's interval of the median time."""
        carries(counter, self)
        iv, v, t = self.r["interval"], self.value(counter), float(self.r["time_us"])
        if iv is None:
            raise Bad(f"{self.path}: '{self.name}' has neither ci_low_us/ci_high_us nor noise_pct/samples")
        lo, hi = iv["low_us"] / t, iv["high_us"] / t
        return (v * lo, v * hi) if counter in TIME_LIKE else (v / hi, v / lo)


def carries(counter, row):
    if counter not in TIME_LIKE | RATE_LIKE:
        raise Bad(f"{row.path}: counter '{counter}' of '{row.name}' carries no interval")


class Operand:
    """A value with the alias, row and counter it came from (none for numbers) and a scale."""

    def __init__(self, value, row=None, counter=None, scale=1.0, alias=None):
        self.value, self.row, self.counter, self.scale, self.alias = value, row, counter, scale, alias

    def interval(self):
        if not self.row:
            return self.value, self.value
        lo, hi = self.row.interval(self.counter)
        return self.scale * lo, self.scale * hi


def time_scales(x, y):
    """What compare multiplies each row's time by, so that it compares what the clause does.
    Times: the clause's factors. Rates: time per unit of work (value x time), which is the
    inverse of the (scaled) rate, in Y's time: rows that move different bytes or flops
    compare by their rates, not their times."""
    if x.counter in TIME_LIKE:
        return x.scale * clock(x), y.scale * clock(y)
    work_x, work_y = x.value * x.row.value("time"), y.value * y.row.value("time")
    return work_y / work_x, 1.0


def clock(op):
    """What turns an operand's time into its counter: the sampled SM clock for `cycles`."""
    return op.row.value(C.sm_clock_mhz) if op.counter == "cycles" else 1.0


def known(counter):
    """A counter a reference names: `time`, a schema counter, or a profiler metric (`--metrics`
    rows carry CUPTI's names, which have a dot). A misspelt counter fails here, never reads
    as a row without it."""
    if counter not in ("time", "cycles") and "." not in counter and counter not in C and counter not in R:
        raise Bad(f"'{counter}' is not a counter of the schema (membench.schema)")
    if counter in RATIO_COUNTERS:
        raise Bad(f"'{counter}' is a ratio of two rows, quoted without its interval: write the rows' quotient with |ci")


def fmt_iv(r, spec, x=""):
    x = "" if spec.endswith("%") else x
    return f"{format(r[0], spec)}{x} [{format(r[1][0], spec)}, {format(r[1][1], spec)}]"


def varying(names):
    """The '/'-separated parts of the first name in which the names differ."""
    split = [n.split("/") for n in names]
    if len({len(s) for s in split}) != 1:
        return names[0]
    return "/".join(p for i, p in enumerate(split[0]) if len({s[i] for s in split}) > 1) or names[0]


def unpacked(path, into):
    """PATH, or for a packed result (`X.tar.xz` holding `X.json`, reports/README.md) its JSON
    written into the folder INTO: membench-report reads plain JSON only."""
    if not path.name.endswith(".tar.xz"):
        return path
    member = path.name.removesuffix(".tar.xz") + ".json"
    try:
        with tarfile.open(path, "r:xz") as tar:
            f = tar.extractfile(member)  # None when the member is not a regular file
            data = f.read() if f else None
    except (tarfile.TarError, lzma.LZMAError, EOFError, KeyError) as e:
        raise Bad(f"{path}: cannot read {member} from it ({e})") from None
    if data is None:
        raise Bad(f"{path}: {member} in it is not a regular file")
    out = Path(tempfile.mkdtemp(dir=into)) / member
    out.write_bytes(data)
    return out


class Findings:
    def __init__(self, root, aliases, report):
        self.report, self.files, self.rows = report, {}, {}
        self.asked, self.answers = {}, None
        self.unpacked = tempfile.TemporaryDirectory(prefix="make_findings.")
        self.paths = {name: str(unpacked(root / p, self.unpacked.name)) for name, p in aliases.items()}
        answer = ask(report, ["rows", *self.paths.values()])
        for (name, path), f in zip(aliases.items(), answer["files"]):
            self.files[name] = (path, f["context"])
            self.rows[name] = {r["name"]: Row(path, r, f["context"]) for r in f["rows"]}

    def decide_all(self):
        """Asks membench-report for every comparison the first pass collected."""
        pairs = [{"base": {"file": self.paths[b], "row": br, "scale": bs},
                  "new": {"file": self.paths[n], "row": nr, "scale": ns},
                  "threshold": m, "margin": m} for (n, nr, ns, bs, b, br, m) in self.asked]
        self.answers = {}
        if pairs:
            answer = ask(self.report, ["compare", "--pairs", "-", "--format", "json", *COMPARE_FLAGS],
                         json.dumps(pairs))
            self.answers = dict(zip(self.asked, answer["benchmarks"]))

    def compared(self, x, y, m=0.0):
        """compare's record of X (NEW) against Y (BASE) on time, threshold and margin m percent."""
        for op in (x, y):
            carries(op.counter, op.row)
        if (x.counter in TIME_LIKE) != (y.counter in TIME_LIKE):
            raise Bad(f"compare needs two time counters or two rate counters: '{x.counter}', '{y.counter}'")
        key = (x.alias, x.row.name, *time_scales(x, y), y.alias, y.row.name, m)
        if self.answers is None:
            self.asked.setdefault(key, None)
            return None
        rec = self.answers[key]
        if rec["state"] != "decided":
            raise Bad(f"compare could not decide {x.row.name} against {y.row.name}: {rec['problem']}")
        return rec

    def ratio(self, x, y, rec):
        """X/Y and compare's interval of it."""
        t, lo, hi = 1 + rec["change"], 1 + rec["interval"]["low"], 1 + rec["interval"]["high"]
        v = x.value / y.value
        return (v, (v * lo / t, v * hi / t)) if x.counter in TIME_LIKE else (v, (v * t / hi, v * t / lo))

    def file(self, name):
        if name not in self.files:
            raise Bad(f"unknown alias {name}")
        return self.rows[name]

    def context(self, expr):
        name, key = CTX.match(expr).groups()
        self.file(name)
        if key not in X and key not in S.gbench_context:
            raise Bad(f"'{key}' is not a context key of the schema (membench.schema)")
        if key not in self.files[name][1]:
            raise Bad(f"{self.files[name][0]} has no context key '{key}'")
        return self.files[name][1][key]

    def operand(self, expr, used):
        if m := SCALED.match(expr):
            x = self.operand(m.group(2), used)
            return Operand(float(m.group(1)) * x.value, x.row, x.counter, float(m.group(1)), x.alias)
        if CTX.match(expr):
            return Operand(float(self.context(expr)))
        if NUM.match(expr):
            return Operand(float(expr))
        if not (m := ONE.match(expr)):
            raise Bad(f"not ALIAS#row@counter: '{expr}'")
        name, row, counter = m.groups()
        known(counter)
        r = self.file(name).get(row)
        if r is None:
            raise Bad(f"{self.files[name][0]} has no row '{row}'")
        if r.error:
            raise Bad(f"{r.path}: '{row}' is an error row")
        used.append(r)
        return Operand(r.value(counter), r, counter, 1.0, name)

    def caveats(self, used, flags):
        """The caveat text for the rows a reference uses; refuses what its flags do not admit."""
        used, groups = list(dict.fromkeys(used)), {}
        for r in used:
            for marker, detail, reason in r.problems():
                if marker == "floor":
                    raise Bad(f"{r.path}: '{r.name}' {reason}; `percall` states its floor")
                if marker not in flags:
                    raise Bad(f"{r.path}: '{r.name}' {reason}; quote it only with |{marker}")
                groups.setdefault(marker, []).append(detail)
        if stale := [f for f in flags if f in MARKERS and f not in groups]:
            raise Bad(f"|{stale[0]} given but no row of the reference needs it")
        texts = []
        for marker, details in groups.items():
            listed = ", ".join(d for d in details if d)
            if len(used) > 1:
                of = f"{CAVEAT[marker]}: {len(details)} of {len(used)} rows"
                texts.append(of + (f" ({listed})" if listed else ""))
            else:
                texts.append(CAVEAT[marker] + ((", " if marker == "unconverged" else ": ") + listed if listed else ""))
        return f" ({'; '.join(texts)})" if texts else ""

    def clauses(self, body, used, ops):
        out = []
        for part in body.split(" and "):
            m = CLAUSE.match(part)
            if not m or m.group(2) not in ops or (m.group(4) == "within") != (m.group(2) in WITHIN):
                raise Bad(f"not 'X < or > Y [by N%]' nor 'X ~, <= or >= Y within N%': '{part.strip()}'")
            x, y = self.operand(m.group(1), used), self.operand(m.group(3), used)
            if not (x.row and y.row):
                raise Bad(f"a comparison needs two rows: '{part.strip()}'")
            out.append((x, m.group(2), y, float(m.group(5) or 0)))
        return out

    def answered(self, asks):
        """compare's records for (X, Y, m) each; every one asked before any is missed."""
        recs = [self.compared(*a) for a in asks]
        if self.answers is None:
            raise Pending()
        return recs

    def cmp(self, x, y, m, spec, ci):
        kinds = {c in TIME_LIKE for c in (x.counter, y.counter)}
        if len(kinds) != 1 or not {x.counter, y.counter} <= TIME_LIKE | RATE_LIKE:
            raise Bad(f"cmp needs two time counters or two rate counters: '{x.counter}', '{y.counter}'")
        rec = self.answered([(x, y, m)])[0]
        text = {"same": f"same within {m:g} %", "unsure": f"unsure ({rec['reason']})"}.get(rec["verdict"], rec["verdict"])
        return text + (f" ({fmt_iv(self.ratio(x, y, rec), spec, 'x')})" if ci else "")

    @staticmethod
    def holds(op, x, rec):
        """True, False or None (undecided): the clause `X op Y` on compare's verdict."""
        larger = "slower" if x.counter in TIME_LIKE else "faster"
        word = {larger: "larger", "same": "same"}.get(rec["verdict"], "smaller" if rec["verdict"] != "unsure" else None)
        yes, no = HOLDS[op]
        return True if word in yes else False if word in no else None

    def best(self, m, spec):
        name, pattern, counter, confirm = m.groups()
        known(counter)

        def pick(alias):
            found = [r for r in self.file(alias).values() if re.fullmatch(pattern, r.name) and not r.error]
            usable = [r for r in found if not r.problems()]
            if not usable:
                raise Bad(f"{self.files[alias][0]}: no usable row matches '{pattern}' ({len(found)} match)")
            usable.sort(key=lambda r: r.value(counter), reverse=counter not in TIME_LIKE)
            return usable, len(found) - len(usable)

        def op(alias, r):
            return Operand(r.value(counter), r, counter, 1.0, alias)

        usable, left = pick(name)
        top = usable[0]
        asks = [(op(name, r), op(name, top), 0.0) for r in usable[1:]]
        there = self.file(confirm).get(top.name) if confirm else None
        fit = there is not None and not there.error and not there.problems()
        top2 = pick(confirm)[0][0] if fit else None
        if fit and top2 is not there:
            asks.append((op(confirm, there), op(confirm, top2), 0.0))
        recs = self.answered(asks)
        others = sum(r["verdict"] == "unsure" for r in recs[:len(usable) - 1])
        text = (f"{format(top.value(counter), spec)} (`{varying([r.name for r in usable])}`, best of {len(usable)} rows"
                f" in this run{f' and {left} unusable left out' if left else ''}, "
                f"{others or 'no'} other{'s' * (others > 1)} within its uncertainty; ")
        if not confirm:
            return text + "not confirmed on an independent run)"
        if there is None:
            return text + f"not confirmed: {confirm} has no such row)"
        if not fit:
            return text + f"not confirmed: the row is not usable in {confirm})"
        if top2 is there or recs[-1]["verdict"] == "unsure":
            return text + f"confirmed in {confirm}, within uncertainty of its best)"
        return text + f"not confirmed in {confirm}: best there `{varying([top2.name, there.name])}`)"

    def count(self, m):
        name, what, pattern, token, by_space = m.groups()
        rows = [r for r in self.file(name).values() if (not pattern or re.fullmatch(pattern, r.name))
                and (not token or token in r.label.split())]
        if what in ("rows", "errors"):
            counted = [r for r in rows if what == "rows" or r.error]
        else:
            counted = [r for r in rows if not r.error and any(p[0] == what for p in r.problems())]
        if not by_space:
            return str(len(counted))
        spaces = {}
        for r in counted:
            spaces[r.name.split("/")[0]] = spaces.get(r.name.split("/")[0], 0) + 1
        parts = [f"{n} {space}" for space, n in sorted(spaces.items(), key=lambda kv: (-kv[1], kv[0]))]
        return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts or ["0"])

    def list(self, m):
        """The parts in which the names of the matching rows differ, in the file's order."""
        name, pattern, floor = m.groups()
        names = [r.name for r in self.file(name).values() if re.fullmatch(pattern, r.name) and (not floor or r.at_floor())]
        if not names:
            raise Bad(f"{self.files[name][0]}: no row matches '{pattern}'")
        split = [n.split("/") for n in names]
        if len({len(x) for x in split}) != 1:
            raise Bad(f"the rows matching '{pattern}' have names of different shapes")
        vary = [i for i in range(len(split[0])) if len({x[i] for x in split}) > 1]
        return ", ".join(f"`{'/'.join(x[i] for i in vary)}`" for x in split) if vary else f"`{names[0]}`"

    def percall(self, m, spec, flags):
        """A row's time per call with its interval, from a row that times many calls a sample;
        from a row at the timer's floor, the floor and the event pair's cost instead."""
        name, row = m.groups()
        r = self.file(name).get(row)
        if r is None or r.error:
            raise Bad(f"{self.files[name][0]}: no usable row '{row}'")
        if floor := r.at_floor():
            iv, t = r.r["interval"], r.value("time")
            ivs = f" [{format(iv['low_us'], spec)}, {format(iv['high_us'], spec)}]" if iv else ""
            pair = r.context.get(X.membench_event_overhead_us, "?")
            return f"the timer's floor, not a call: {format(t, spec)}{ivs} µs against an event pair's {pair} µs"
        if CALLS not in r.r["counters"]:
            raise Bad(f"{r.path}: '{row}' records no {CALLS} and is not at the timer's floor: quote its time")
        caveat = self.caveats([r], flags)
        calls = r.value(CALLS)
        return f"{fmt_iv((r.value('time'), r.interval('time')), spec)} µs a call ({calls:.0f} calls a sample)" + caveat

    def render(self, body):
        expr, *rest = body.split("|")
        flags = [p.strip() for p in rest if p.strip() in MARKERS + ("ci",)]
        specs = [p for p in rest if p.strip() not in flags]
        if len(specs) > 1:
            raise Bad(f"more than one format: {specs}")
        spec, word = (specs[0] if specs else None), (expr.split(None, 1) + [""])[0]
        if CTX.match(expr) and not flags:
            return str(self.context(expr)) if spec is None else format(float(self.context(expr)), spec)
        spec = spec or ".3g"
        if word in ("count", "best", "list"):
            if flags:
                raise Bad(f"{word} takes no flags")
            m = {"count": COUNT, "best": BEST, "list": LIST}[word].match(expr)
            if not m:
                raise Bad(f"cannot parse '{expr.strip()}'")
            return self.count(m) if word == "count" else self.list(m) if word == "list" else self.best(m, spec)
        if word == "percall":
            if not (m := PERCALL.match(expr)):
                raise Bad(f"not 'percall ALIAS#row': '{expr.strip()}'")
            return self.percall(m, spec, flags)
        used = []
        if word in ("cmp", "assert", "verdict"):
            return self.claim(word, expr, flags, spec, used)
        sides = [self.operand(e, used) for e in expr.split(" / ")]
        if len(sides) > 2:
            raise Bad("at most one '/' in a reference")
        caveat = self.caveats(used, flags)
        if len(sides) == 1:
            x = sides[0]
            return (fmt_iv((x.value, x.interval()), spec) if "ci" in flags else format(x.value, spec)) + caveat
        x, y = sides
        if not (x.row and y.row):
            if "ci" not in flags:
                return format(x.value / y.value, spec) + caveat
            (a, b), (c, d) = x.interval(), y.interval()
            return fmt_iv((x.value / y.value, (a / d, b / c)), spec) + caveat
        r = self.ratio(x, y, self.answered([(x, y, 0.0)])[0])
        if "ci" not in flags:
            raise Bad(f"a ratio of two rows is quoted with its interval: add |ci ({fmt_iv(r, '.4f', 'x')})")
        return fmt_iv(r, spec, "x") + caveat

    def claim(self, word, expr, flags, spec, used):
        """cmp, verdict or assert: compare's verdicts on the clauses, as the docstring maps them."""
        cl = self.clauses(expr.split(None, 1)[1] if " " in expr.strip() else "", used,
                          ("vs",) if word == "cmp" else ("<", ">") + WITHIN)
        caveat = self.caveats(used, flags)
        if word == "cmp":
            if len(cl) != 1:
                raise Bad("cmp compares one pair")
            return self.cmp(cl[0][0], cl[0][2], cl[0][3], spec, "ci" in flags) + caveat
        recs = self.answered([(x, y, m) for x, _, y, m in cl])
        states = [self.holds(op, x, rec) for (x, op, y, m), rec in zip(cl, recs)]
        ivs = "; ".join(fmt_iv(self.ratio(x, y, rec), spec, "x") for (x, _, y, _), rec in zip(cl, recs))
        if word == "assert":
            if not all(s is True for s in states):
                raise Bad(f"'{expr.strip()}' does not hold on compare's verdicts: {ivs}")
            return ivs + caveat
        text = ("does not hold" if False in states else "holds" if all(states) else
                "undecided (inside uncertainty)")
        return text + (f" ({ivs})" if "ci" in flags else "") + caveat


def arguments(argv):
    """(template, report): the template, and membench-report from --report, $MEMBENCH_REPORT or the dev build."""
    report = os.environ.get("MEMBENCH_REPORT") or str(Path(__file__).resolve().parents[1] / "build/dev/bin/membench-report")
    if len(argv) == 3 and argv[0] == "--report":
        return Path(argv[2]), argv[1]
    if len(argv) != 1:
        sys.exit("usage: make_findings.py [--report PATH] TEMPLATE")
    return Path(argv[0]), report


def read_template(template):
    """The template's text; one that cannot be read (missing, a folder, not UTF-8) is said, exit 2."""
    try:
        return template.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"make_findings: {template}: cannot read the template: {e}", file=sys.stderr)
        sys.exit(2)


def main():
    template, report = arguments(sys.argv[1:])
    text = read_template(template)
    aliases = {name: path for name, path in ALIAS.findall(text)}
    text = ALIAS.sub("", text)
    errors = []
    try:
        f = Findings(template.parent, aliases, report)
    except (OSError, KeyError, ValueError, Bad) as e:
        print(f"make_findings: {e}", file=sys.stderr)
        sys.exit(1)

    def render(m):
        try:
            return f.render(m.group(1))
        except Pending:
            return ""
        except (Bad, ValueError, ZeroDivisionError, re.error) as e:
            errors.append(f"{{{{{m.group(1)}}}}}: {e}")
            return "??"

    REF.sub(render, text)  # the first pass: what to ask membench-report
    try:
        if errors:
            raise Bad("\nmake_findings: ".join(errors))
        f.decide_all()
    except (OSError, ValueError, Bad) as e:
        print(f"make_findings: {e}", file=sys.stderr)
        sys.exit(1)
    out = REF.sub(render, text)
    if errors:
        for e in errors:
            print(f"make_findings: {e}", file=sys.stderr)
        sys.exit(1)
    out += ("\n## Files behind the numbers\n\n| alias | file | GPU | driver | commit | date | rows | not converged"
            " | throttled | no convergence recorded | at the timer's floor |\n"
            "|---|---|---|---|---|---|---:|---:|---:|---:|---:|\n")
    for name, (path, ctx) in f.files.items():
        n = [f.count(COUNT.match(f"count {name} {w}")) for w in ("rows",) + MARKERS + ("floor",)]
        out += (f"| {name} | `reports/{path}` | {ctx.get(X.gpu_name, '?')} | {ctx.get(X.nvml_driver_version, '?')} | "
                f"{ctx.get(X.membench_git_commit, '?')} | {ctx.get(S.gbench_context.date, '?')[:10]} | {' | '.join(n)} |\n")
    sys.stdout.write(out)


if __name__ == "__main__":
    main()
