"""Chosen rows of a loaded results file made slower, to measure what `membench-report
compare` detects (tools/gate/inject_slowdown.py is its command line, gate_power.py reads
what it notes; tests/data/report/fleet/make_fleet.py slows a fixture GPU with it).

How, with s = 1 + PCT / 100, in each chosen row:
  - multiplied by s: real_time, cpu_time, every element of samples_us, every counter whose
    name starts with t_ and ends with _us (t_min_us, t_median_us, t_mean_us, t_max_us),
    ci_low_us, ci_high_us, batch_us, batch_ci_low_us, batch_ci_high_us, us_per_call, every
    element of batch_samples_us;
  - divided by s: gb_per_s, bytes_per_second, pct_peak;
  - unchanged: everything else (ci_pct and noise_pct are relative, clocks and state stay
    as measured).
"""
import math
import re

from . import schema as S
from .results import _json_type, flag

C, R = S.counter, S.row
SCALED = (R.real_time, R.cpu_time, C.ci_low_us, C.ci_high_us, C.batch_us, C.batch_ci_low_us, C.batch_ci_high_us,
          C.us_per_call)
# The batch figure's kept batches, an array like samples_us.
SAMPLE_ARRAYS = (R.samples_us, R.batch_samples_us)
DIVIDED = (C.gb_per_s, C.bytes_per_second, C.pct_peak)
# The sample-time counters t_min_us ... t_max_us, by the schema's unit.
SAMPLE_TIMES = tuple(k for k in C if k.startswith("t_") and C.unit(k) == "us")
# The context keys inject() writes (gate_power.py reads them).
INJECTED_PCT, INJECTED_ROWS = "membench_injected_slowdown_pct", "membench_injected_rows"


def report_name(name):
    """The name as membench-report shows it: without Google Benchmark's time suffix."""
    return re.sub(r"/(manual_time|real_time|process_time)$", "", name)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _in_range(value):
    """A number a double holds: JSON spells integers of any length, and scaling one beyond a
    double's range overflows."""
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _check_scaled_keys(row, where):
    """ValueError naming `where` for a key inject() scales that is there but no number (the
    text "391.1": the time would change and the rate not, a row contradicting itself) or a
    number beyond a double's range; null is left as it is."""
    for key in row:
        if not (key in SCALED or key in SAMPLE_TIMES or key in DIVIDED) or row[key] is None:
            continue
        if not _is_number(row[key]):
            raise ValueError(f"{where}: {key} is {_json_type(row[key])}, not a number: it cannot be scaled")
        if not _in_range(row[key]):
            raise ValueError(f"{where}: {key} is a number beyond a double's range")


def _scaled_values(row, s):
    """{key: new value} for a row made `s` times slower (see above), the row itself untouched.
    Raises ValueError where a new value is no finite double (a time near a double's maximum
    times s): nothing is written until every value is known to fit."""
    new = {}
    for key in row:
        if key in SCALED or key in SAMPLE_TIMES:
            if _is_number(row[key]):
                new[key] = row[key] * s
        elif key in DIVIDED and _is_number(row[key]):
            new[key] = row[key] / s
    for key in SAMPLE_ARRAYS:
        if isinstance(row.get(key), list):
            new[key] = [x * s for x in row[key]]
    for key, value in new.items():
        pairs = zip(row[key], value) if isinstance(value, list) else [(row[key], value)]
        # A finite number times s overflows to inf without an error: refused rather than written.
        if any(math.isfinite(old) and not math.isfinite(v) for old, v in pairs):
            raise ValueError(f"{key}: scaled by {s:g} it is beyond a double's range")
    return new


def scale_row(row, s):
    """A row's JSON object `s` times slower in place (see above); ValueError, the row
    unchanged, where a scaled value would be beyond a double's range."""
    row.update(_scaled_values(row, s))


def _rows_of(doc):
    """The benchmarks array of a loaded file whose every shape inject() reads is checked;
    ValueError naming what is not (see inject)."""
    if not isinstance(doc, dict):
        raise ValueError(f"not a results file: the top level is {_json_type(doc)}, not an object")
    rows = doc.get(S.file.benchmarks)
    if not isinstance(rows, list):
        raise ValueError("no benchmarks array")
    if not isinstance(doc.get(S.file.context, {}), dict):
        raise ValueError(f"the context is {_json_type(doc[S.file.context])}, not an object")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError(f"benchmark {i} is {_json_type(row)}, not an object")
        for key in (R.name, R.run_name):
            if not isinstance(row.get(key, ""), str):
                raise ValueError(f"benchmark {i}: {key} is {_json_type(row[key])}, not a string")
        # The text "false" is truthy: a timed row would be taken for an error row, left unchanged.
        try:
            flag(row, R.error_occurred)
        except ValueError as e:
            raise ValueError(f"benchmark {i}: {e}") from None
    return rows


def inject(doc, slowdown, pattern="", every=1, phase=0):
    """Makes the chosen rows of a loaded file `slowdown` % slower in place and notes it in the
    context; returns the changed benchmarks as membench-report names them. Which rows: every
    timed iteration row whose name the regular expression `pattern` finds, and of those every
    `every`-th in file order, starting at the `phase`-th. Error rows and aggregate rows are
    never changed (an aggregates-only file gets its mean, median and stddev rows scaled instead).
    Raises ValueError, `doc` unchanged, for a slowdown out of range or a file of another shape
    (a top level, row or context that is no object, a name that is no string, a chosen row's
    sample that is no number, a chosen row's number beyond a double's range before or after
    scaling, a chosen row whose real_time or other scaled key is no number, an error_occurred
    that is no boolean), an `every` below 1 or a `phase` outside 0 to every - 1."""
    # Above -100 a time stays positive; NaN fails the comparison and is refused with infinities.
    if not -100 < slowdown < float("inf"):
        raise ValueError(f"slowdown {slowdown}: a finite percentage above -100")
    # every counts rows: below 1 there is no every-th row (and 0 would divide by zero).
    if not isinstance(every, int) or isinstance(every, bool) or every < 1:
        raise ValueError(f"every {every!r}: a whole number of at least 1")
    # A phase outside 0 to every - 1 chooses no row: the file would be noted as injected unchanged.
    if not isinstance(phase, int) or isinstance(phase, bool) or not 0 <= phase < every:
        raise ValueError(f"phase {phase!r}: a whole number from 0 to every - 1 ({every - 1})")
    # Every shape is checked before the first row changes: a refused file is left as it was.
    rows = _rows_of(doc)
    pattern = re.compile(pattern)
    s = 1 + slowdown / 100
    aggregates_only = not any(r.get(R.run_type, "iteration") == "iteration" for r in rows)
    chosen, decided, scaled = [], {}, []
    for i, row in enumerate(rows):
        name = row.get(R.run_name, row.get(R.name, ""))
        if row.get(R.error_occurred) or not pattern.search(name):
            continue
        kind = row.get(R.run_type, "iteration")
        if aggregates_only:
            if kind != "aggregate" or row.get(R.aggregate_name) not in ("mean", "median", "stddev"):
                continue
        elif kind != "iteration":
            continue
        # The repetition rows of one benchmark are chosen together.
        if name not in decided:
            decided[name] = len(decided) % every == phase
            if decided[name]:
                chosen.append(report_name(name))
        if decided[name]:
            # A row without a numeric time cannot be made slower, so it must not be claimed as changed.
            if not _is_number(row.get(R.real_time)):
                raise ValueError(f"benchmark {i} ({name}): {R.real_time} missing or not a number")
            for key in SAMPLE_ARRAYS:
                # A sample that is no number (null) cannot be made slower.
                if isinstance(row.get(key), list) and not all(_is_number(x) for x in row[key]):
                    raise ValueError(f"benchmark {i} ({name}): {key} holds an element that is not a number")
                if isinstance(row.get(key), list) and not all(_in_range(x) for x in row[key]):
                    raise ValueError(f"benchmark {i} ({name}): {key} holds a number beyond a double's range")
            _check_scaled_keys(row, f"benchmark {i} ({name})")
            try:
                scaled.append((row, _scaled_values(row, s)))
            except ValueError as e:
                raise ValueError(f"benchmark {i} ({name}): {e}") from None
    # Every new value is computed (and checked) above: a refused file is left as it was.
    for row, new in scaled:
        row.update(new)
    ctx = doc.setdefault(S.file.context, {})
    ctx[INJECTED_PCT] = f"{slowdown:g}"
    ctx[INJECTED_ROWS] = ",".join(chosen)
    return chosen
