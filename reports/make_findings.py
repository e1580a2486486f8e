#!/usr/bin/env python3
"""Renders reports/findings.md.in into reports/FINDINGS.md: every measured number in the
findings is a reference into a JSON file under reports/, resolved here, so none is typed
by hand, and none is quoted that its row cannot carry.

  python3 reports/make_findings.py reports/findings.md.in > reports/FINDINGS.md

Template syntax: {{EXPR|FORMAT|FLAG|...}}, FORMAT and FLAGs optional, in any order.
  <!-- alias NAME = <path under reports/> -->        a JSON file, named once
  {{NAME#<benchmark run_name>@<counter>|<format>}}    one value (counter `time` = real_time)
  {{A#row@counter / B#row@counter|<format>}}          the ratio of two values
  {{NAME$<context key>|<format>}}                     a value of the file's context
  {{cmp X vs Y [by N%]}}                              faster / slower / same within uncertainty
  {{verdict CLAUSE [and CLAUSE ...]}}                 holds / does not hold /
                                                      undecided (inside uncertainty)
  {{assert CLAUSE [and CLAUSE ...]|<format>}}         fails the run unless every clause is
                                                      shown; renders the ratios and intervals
  {{best A#<regex>@<counter> [confirm B]|<format>}}   the best of the rows the regex matches
  {{count A WHAT [<regex>]}}                          how many rows: WHAT is rows, errors,
                                                      unconverged, throttled or unrecorded
CLAUSE is `X < Y [by N%]`, `X > Y [by N%]`, `X ~ Y within N%`, `X <= Y within N%` or
`X >= Y within N%`, where X and Y are rows (`A#row@counter`), either one optionally scaled
by a number (`32*A#row@time`). Elsewhere an operand may also be a number or a context value
(`{{A$gpu_l2_bytes / 1048576|.0f}}`); without a format a context value is copied as it is.
FORMAT is a Python format spec (`.2f`; default `.3g`). A regex matches the whole run name
and may not contain `|` or `}`. Flags: `ci` renders the interval after the value
(`1.009x [1.004, 1.013]`; the `x` marks a ratio of two rows; after cmp and verdict the ratio
intervals follow in parentheses); `unconverged`, `throttled`, `unrecorded` opt in to
quoting a row that is not usable, and render its caveat.

Rules. Any violation is an error (exit 1; each message names the file, the row and why).
- Usable rows. An error row is refused. A row whose `converged` is 0, whose label says
  `unconverged:` or that has fewer than 10 `samples` is refused unless the reference says
  `unconverged` (rendered "(not converged, N samples)"); one whose label says
  `throttle:<reason>` unless it says `throttled` ("(throttled: <reason>)"); one without a
  `converged` or `samples` counter (files from before membench recorded them: convergence
  unknown) unless it says `unrecorded` ("(convergence not recorded)"). A flag that no row
  of the reference needs is an error too, so caveats do not outlive their data. `best`
  leaves unusable rows out and says how many; `count` refuses nothing.
- Intervals. A row's interval is that of its median time: `ci_low_us`, `ci_high_us` (at the
  file's `membench_ci_level_pct`), widened to contain the median where they do not; for a
  row without them, median * exp(+-z sqrt(pi/2) noise_pct/100 / sqrt(samples)), the normal
  approximation membench-report uses for such rows, z for the file's level (95 % when the
  context has none). Time counters (`time`, `us_per_call`) scale with the time, rate
  counters (`gb_per_s`, `bytes_per_second`, `gflop_per_s`, `pct_peak`, `items_per_second`)
  with its inverse (same bytes or flops); other counters (speedups, shares of another row)
  carry no interval and are refused wherever one is needed. A ratio X/Y's interval is
  conservative, [low X / high Y, high X / low Y]; numbers and context values are exact.
- A ratio of two rows quoted without `ci` must exclude 1: one whose interval contains 1 is
  refused (quote it with `ci`, or compare with cmp).
- Comparisons, on r = X/Y as an interval [lo, hi] and a minimum relative difference m
  (`by N%`, default 0; the tolerance of `within N%`). Shown, or its opposite shown:
    X > Y:  lo > 1 + m,           opposite hi < 1 + m
    X < Y:  hi < 1 / (1 + m),     opposite lo > 1 / (1 + m)
    X ~ Y:  [lo, hi] inside [1 / (1 + m), 1 + m],  opposite lo > 1 + m or hi < 1 / (1 + m)
    X <= Y: hi <= 1 + m,          opposite lo > 1 + m
    X >= Y: lo >= 1 / (1 + m),    opposite hi < 1 / (1 + m)
  With m = 0, X > Y and X < Y are shown exactly when the rows' intervals are disjoint.
  `verdict`: holds when every clause is shown, does not hold when some clause's opposite
  is, else undecided (inside uncertainty). `assert`: every clause must be shown. `cmp`
  (two time or two rate counters) compares speeds, s = X/Y for rates and Y/X for times:
  faster when s > 1 + m is shown, slower when s < 1 / (1 + m) is, else "same within
  uncertainty" when the interval of s contains 1 and "not shown N % apart" when it does not.
- Best of N. `best` picks the largest value (the smallest for time counters) among the
  usable rows that match, and renders its value, the parts of its name that vary, the
  number of rows it was picked from, how many of them lie within its uncertainty (their
  intervals overlap), and "not confirmed on an independent run", unless `confirm B` finds
  the same row usable in file B and within uncertainty of B's best over the same regex.
The rendered file ends with the list of files, their context and their unusable rows.

Why these rules live here and not in membench-report: its verdicts (compare) and intervals
come out only as text, Markdown, CSV (intervals rounded to 0.01 %) or HTML, compare joins a
benchmark with itself across files and never two different rows, and no command lists a
row's interval, its usability or the rows within uncertainty of a best. Until it writes
those as JSON, Row.interval, Row.problems, ratio and shown are the only places they are
derived.
"""
import json
import math
import re
import sys
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import membench_schema as S  # noqa: E402

C, R, X = S.counter, S.row, S.context

ALIAS = re.compile(r"<!--\s*alias\s+(\w+)\s*=\s*(\S+)\s*-->\n?")
REF = re.compile(r"\{\{([^{}]+)\}\}")
ONE = re.compile(r"^\s*(\w+)#([^@]+)@(\S+)\s*$")
CTX = re.compile(r"^\s*(\w+)\$(\w+)\s*$")
NUM = re.compile(r"^\s*[0-9.]+\s*$")
SCALED = re.compile(r"^\s*([0-9.]+)\*(\S+)\s*$")
CLAUSE = re.compile(r"^\s*(\S+)\s+(<=|>=|<|>|~|vs)\s+(\S+)(?:\s+(by|within)\s+([0-9.]+)\s*%)?\s*$")
BEST = re.compile(r"^\s*best\s+(\w+)#(.+)@(\S+?)(?:\s+confirm\s+(\w+))?\s*$")
COUNT = re.compile(r"^\s*count\s+(\w+)\s+(rows|errors|unconverged|throttled|unrecorded)(?:\s+(\S+))?\s*$")
WITHIN = ("~", "<=", ">=")
MARKERS = ("unconverged", "throttled", "unrecorded")
CAVEAT = {"unconverged": "not converged", "throttled": "throttled", "unrecorded": "convergence not recorded"}
TIME_LIKE = {"time", C.us_per_call}
RATE_LIKE = {C.gb_per_s, C.bytes_per_second, C.gflop_per_s, C.pct_peak, R.items_per_second}
MIN_SAMPLES = 10
US_PER = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


class Bad(Exception):
    pass


class Row:
    def __init__(self, path, b, ci_level):
        self.path, self.b, self.ci_level = path, b, ci_level
        self.name = b[R.run_name].removesuffix("/manual_time")
        self.label = b.get(R.label, "")
        self.error = bool(b.get(R.error_occurred))

    def problems(self):
        """(marker, detail, reason) for each reason this row may not be quoted as it is."""
        b, out = self.b, []
        if C.converged not in b or C.samples not in b:
            out.append(("unrecorded", "", "records no `converged` or `samples` counter"))
        elif (b[C.converged] == 0 or S.label.values(self.label, S.label.unconverged)
              or b[C.samples] < MIN_SAMPLES):
            n = int(b[C.samples])
            out.append(("unconverged", f"{n} sample{'s' * (n != 1)}",
                        f"did not converge ({n} samples, noise {b.get(C.noise_pct, math.nan):.1f} %)"))
        throttle = ",".join(S.label.values(self.label, S.label.throttle))
        if throttle:
            out.append(("throttled", throttle, f"was sampled under throttle:{throttle}"))
        return out

    def value(self, counter):
        key = R.real_time if counter == "time" else counter
        if key not in self.b:
            raise Bad(f"{self.path}: '{self.name}' has no counter '{counter}'")
        return float(self.b[key])

    def interval(self, counter):
        """The interval of a counter's value, from the interval of the row's median time."""
        if counter not in TIME_LIKE | RATE_LIKE:
            raise Bad(f"{self.path}: counter '{counter}' of '{self.name}' carries no interval")
        b, v = self.b, self.value(counter)
        t = float(b[R.real_time]) * US_PER[b.get(R.time_unit, "us")]
        if b.get(C.ci_low_us, 0) > 0 and b.get(C.ci_high_us, 0) > 0:
            lo, hi = min(b[C.ci_low_us], t) / t, max(b[C.ci_high_us], t) / t
        elif C.noise_pct in b and b.get(C.samples, 0) >= 1:
            z = NormalDist().inv_cdf(0.5 + self.ci_level / 200)
            h = z * math.sqrt(math.pi / 2) * b[C.noise_pct] / 100 / math.sqrt(b[C.samples])
            lo, hi = math.exp(-h), math.exp(h)
        else:
            raise Bad(f"{self.path}: '{self.name}' has neither ci_low_us/ci_high_us nor noise_pct/samples")
        return (v * lo, v * hi) if counter in TIME_LIKE else (v / hi, v / lo)


class Operand:
    """A value with the row and counter it came from (none for numbers) and a scale."""

    def __init__(self, value, row=None, counter=None, scale=1.0):
        self.value, self.row, self.counter, self.scale = value, row, counter, scale

    def interval(self):
        if not self.row:
            return self.value, self.value
        lo, hi = self.row.interval(self.counter)
        return self.scale * lo, self.scale * hi


def known(counter):
    """A counter a reference names: `time`, a schema counter, or a profiler metric (`--metrics`
    rows carry CUPTI's names, which have a dot). A misspelt counter fails here, never reads
    as a row without it."""
    if counter != "time" and "." not in counter and counter not in C and counter not in R:
        raise Bad(f"'{counter}' is not a counter of the schema (common/schema.json)")


def ratio(x, y):
    """X/Y and its conservative interval."""
    (a, b), (c, d) = x.interval(), y.interval()
    return x.value / y.value, (a / d, b / c)


def shown(op, r, m):
    """True when the ratio interval r shows `X op Y` (by or within m), False when it shows the
    opposite, None when it shows neither."""
    lo, hi = r
    up, down = 1 + m, 1 / (1 + m)
    yes, no = {">": (lo > up, hi < up), "<": (hi < down, lo > down),
               "~": (down <= lo and hi <= up, lo > up or hi < down),
               "<=": (hi <= up, lo > up), ">=": (lo >= down, hi < down)}[op]
    return True if yes else False if no else None


def fmt_iv(r, spec, x=""):
    return f"{format(r[0], spec)}{x} [{format(r[1][0], spec)}, {format(r[1][1], spec)}]"


def varying(names):
    """The '/'-separated parts of the first name in which the names differ."""
    split = [n.split("/") for n in names]
    if len({len(s) for s in split}) != 1:
        return names[0]
    return "/".join(p for i, p in enumerate(split[0]) if len({s[i] for s in split}) > 1) or names[0]


class Findings:
    def __init__(self, root, aliases):
        self.files, self.rows = {}, {}
        for name, path in aliases.items():
            j = json.load(open(root / path))
            ctx = j[S.file.context]
            level = float(ctx.get(X.membench_ci_level_pct, 95))
            self.files[name] = (path, ctx)
            self.rows[name] = {r.name: r for r in (Row(path, b, level) for b in j[S.file.benchmarks]
                                                   if b.get(R.run_type, "iteration") == "iteration")}

    def file(self, name):
        if name not in self.files:
            raise Bad(f"unknown alias {name}")
        return self.rows[name]

    def context(self, expr):
        name, key = CTX.match(expr).groups()
        self.file(name)
        if key not in X and key not in S.gbench_context:
            raise Bad(f"'{key}' is not a context key of the schema (common/schema.json)")
        if key not in self.files[name][1]:
            raise Bad(f"{self.files[name][0]} has no context key '{key}'")
        return self.files[name][1][key]

    def operand(self, expr, used):
        if m := SCALED.match(expr):
            x = self.operand(m.group(2), used)
            return Operand(float(m.group(1)) * x.value, x.row, x.counter, float(m.group(1)))
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
        return Operand(r.value(counter), r, counter)

    def caveats(self, used, flags):
        """The caveat text for the rows a reference uses; refuses what its flags do not admit."""
        used, groups = list(dict.fromkeys(used)), {}
        for r in used:
            for marker, detail, reason in r.problems():
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
            out.append((x, m.group(2), y, float(m.group(5) or 0) / 100))
        return out

    def cmp(self, x, y, m, spec, ci):
        kinds = {c in TIME_LIKE for c in (x.counter, y.counter)}
        if len(kinds) != 1 or not {x.counter, y.counter} <= TIME_LIKE | RATE_LIKE:
            raise Bad(f"cmp needs two time counters or two rate counters: '{x.counter}', '{y.counter}'")
        r = ratio(x, y)
        lo, hi = (1 / r[1][1], 1 / r[1][0]) if kinds == {True} else r[1]  # X's speed over Y's
        text = ("faster" if lo > 1 + m else "slower" if hi < 1 / (1 + m) else
                "same within uncertainty" if lo <= 1 <= hi else f"not shown {m * 100:g} % apart")
        return text + (f" ({fmt_iv(r, spec, 'x')})" if ci else "")

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

        def near(a, b):  # their intervals overlap
            lo, hi = ratio(Operand(a.value(counter), a, counter), Operand(b.value(counter), b, counter))[1]
            return lo <= 1 <= hi

        usable, left = pick(name)
        top, others = usable[0], sum(near(r, usable[0]) for r in usable[1:])
        text = (f"{format(top.value(counter), spec)} (`{varying([r.name for r in usable])}`, best of {len(usable)} rows"
                f" in this run{f' and {left} unusable left out' if left else ''}, "
                f"{others or 'no'} other{'s' * (others > 1)} within its uncertainty; ")
        if not confirm:
            return text + "not confirmed on an independent run)"
        there = self.file(confirm).get(top.name)
        if there is None:
            return text + f"not confirmed: {confirm} has no such row)"
        if there.error or there.problems():
            return text + f"not confirmed: the row is not usable in {confirm})"
        top2 = pick(confirm)[0][0]
        if top2 is there or near(there, top2):
            return text + f"confirmed in {confirm}, within uncertainty of its best)"
        return text + f"not confirmed in {confirm}: best there `{varying([top2.name, there.name])}`)"

    def count(self, m):
        name, what, pattern = m.groups()
        rows = [r for r in self.file(name).values() if not pattern or re.fullmatch(pattern, r.name)]
        if what in ("rows", "errors"):
            return str(sum(what == "rows" or r.error for r in rows))
        return str(sum(not r.error and any(p[0] == what for p in r.problems()) for r in rows))

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
        if word in ("count", "best"):
            if flags:
                raise Bad(f"{word} takes no flags")
            m = (COUNT if word == "count" else BEST).match(expr)
            if not m:
                raise Bad(f"cannot parse '{expr.strip()}'")
            return self.count(m) if word == "count" else self.best(m, spec)
        used = []
        if word in ("cmp", "assert", "verdict"):
            cl = self.clauses(expr.split(None, 1)[1] if " " in expr.strip() else "", used,
                              ("vs",) if word == "cmp" else ("<", ">") + WITHIN)
            caveat = self.caveats(used, flags)
            if word == "cmp":
                if len(cl) != 1:
                    raise Bad("cmp compares one pair")
                return self.cmp(cl[0][0], cl[0][2], cl[0][3], spec, "ci" in flags) + caveat
            results = [(shown(op, ratio(x, y)[1], m), ratio(x, y)) for x, op, y, m in cl]
            ivs = "; ".join(fmt_iv(r, spec, "x") for _, r in results)
            if word == "assert":
                if not all(s is True for s, _ in results):
                    raise Bad(f"'{expr.strip()}' is not shown by the intervals: {ivs}")
                return ivs + caveat
            states = [s for s, _ in results]
            text = ("does not hold" if False in states else "holds" if all(states) else
                    "undecided (inside uncertainty)")
            return text + (f" ({ivs})" if "ci" in flags else "") + caveat
        sides = [self.operand(e, used) for e in expr.split(" / ")]
        if len(sides) > 2:
            raise Bad("at most one '/' in a reference")
        caveat = self.caveats(used, flags)
        if len(sides) == 1:
            x = sides[0]
            return (fmt_iv((x.value, x.interval()), spec) if "ci" in flags else format(x.value, spec)) + caveat
        two_rows = bool(sides[0].row and sides[1].row)
        if "ci" in flags:
            return fmt_iv(ratio(*sides), spec, "x" if two_rows else "") + caveat
        if two_rows and (r := ratio(*sides))[1][0] <= 1 <= r[1][1]:
            raise Bad(f"ratio {fmt_iv(r, '.4f')} is 1 within uncertainty: quote it with |ci or as a cmp")
        return format(sides[0].value / sides[1].value, spec) + caveat


def main():
    template = Path(sys.argv[1])
    text = template.read_text()
    aliases = {name: path for name, path in ALIAS.findall(text)}
    text = ALIAS.sub("", text)
    errors = []
    try:
        f = Findings(template.parent, aliases)
    except (OSError, KeyError, ValueError) as e:
        print(f"make_findings: {e}", file=sys.stderr)
        sys.exit(1)

    def render(m):
        try:
            return f.render(m.group(1))
        except (Bad, ValueError, ZeroDivisionError, re.error) as e:
            errors.append(f"{{{{{m.group(1)}}}}}: {e}")
            return "??"

    out = REF.sub(render, text)
    if errors:
        for e in errors:
            print(f"make_findings: {e}", file=sys.stderr)
        sys.exit(1)
    out += ("\n## Files behind the numbers\n\n| alias | file | GPU | driver | commit | date | rows | not converged"
            " | throttled | no convergence recorded |\n|---|---|---|---|---|---|---:|---:|---:|---:|\n")
    for name, (path, ctx) in f.files.items():
        n = [f.count(COUNT.match(f"count {name} {w}")) for w in ("rows",) + MARKERS]
        out += (f"| {name} | `reports/{path}` | {ctx.get(X.gpu_name, '?')} | {ctx.get(X.nvml_driver_version, '?')} | "
                f"{ctx.get(X.membench_git_commit, '?')} | {ctx.get(S.gbench_context.date, '?')[:10]} | {' | '.join(n)} |\n")
    sys.stdout.write(out)


if __name__ == "__main__":
    main()
