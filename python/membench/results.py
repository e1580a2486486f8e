"""A membench (or any Google Benchmark) JSON results file, read into rows.

    from membench import load
    run = load("membench.json")
    run.context["gpu_name"]                 # the file's context, as written
    for r in run:
        r.family, r.keys["bytes"]           # "global/read_offset", "64M"
        r.time, r.time_unit, r.time_us      # Google Benchmark's real_time, its unit, in us
        r.ci_low_us, r.ci_high_us           # the median's interval (None where the file has none)
        r.error                             # why the row has no time, or None

Every key is the schema's (membench.schema); the row's whole JSON object stays in `r.json`.
"""
import json
import math
import os
import stat
from pathlib import Path

from . import schema as S
from .names import parse_name, strip_framework_suffix

C, F, R = S.counter, S.file, S.row
_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
# What load() reads of one file, as membench-report does: far above any results file, and an
# input that never ends (/dev/zero, a pipe) is refused instead of read until memory runs out.
MAX_INPUT = 512 << 20


def _number(value, key=""):
    """A JSON number as a float, None for anything else; ValueError for an integer beyond a
    double's range (JSON spells integers of any length, and float() of one overflows)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"'{key}' is an integer of {value.bit_length()} bits, beyond a double's range") from None


def _check_finite(obj):
    """ValueError naming the first of a row's numbers (a value, or a member of a list such as
    samples_us) that is NaN, infinite or an integer beyond a double's range: Python's json
    takes NaN and Infinity, which are no JSON, reads 1e999 as inf and 10**400 as an exact
    integer; membench-report refuses such a file, and a row timed inf or NaN us would pass
    every comparison a caller makes with it."""
    for key, value in obj.items():
        for v in value if isinstance(value, list) else (value,):
            if isinstance(v, float) and not math.isfinite(v):
                raise ValueError(f"'{key}' holds {v}: not a finite number (NaN, Infinity or beyond a double's range)")
            if isinstance(v, int) and not isinstance(v, bool):
                _number(v, key)


def number(obj, key):
    """An object's (a row's) number `key` as a float, None where absent or null; ValueError
    where it is another type (the text "39.5", a boolean), NaN, infinite or beyond a double's
    range: a figure a reader computes with, silently read as absent, changes its answer."""
    value = obj.get(key)
    if value is None:
        return None
    if _number(value) is None:
        raise ValueError(f"'{key}' is {_json_type(value)}, not a number")
    result = _number(value, key)
    if not math.isfinite(result):
        raise ValueError(f"'{key}' holds {value}: not a finite number")
    return result


def _time(obj):
    """The row's real_time as a float, None where absent or null; ValueError where it is
    another type: a time written as text would leave the row silently without its result."""
    value = obj.get(R.real_time)
    if value is not None and _number(value) is None:
        raise ValueError(f"'{R.real_time}' missing or not a number ({_json_type(value)})")
    return _number(value, R.real_time)


def _samples(obj):
    """The row's samples_us as a list of floats, None where absent or null; ValueError for
    anything else, or for a member that is no number: callers compute with every member."""
    value = obj.get(R.samples_us)
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError(f"'{R.samples_us}' is {_json_type(value)}, not an array")
    for i, v in enumerate(value):
        if _number(v) is None:
            raise ValueError(f"{R.samples_us}[{i}]: not a number ({_json_type(v)})")
    return [float(v) for v in value]


def flag(obj, key):
    """A row's boolean `key` (False where absent or null); ValueError where it is another
    type: the text "false" is truthy, and would turn a timed row into an error row."""
    return _typed(obj, key, False, bool, "a boolean")


def _typed(obj, key, default, kind, name):
    """A row's `key` of type `kind` (`default` where absent or null); ValueError naming `name`
    where it is another type."""
    value = obj.get(key)
    if value is None:
        return default
    if not isinstance(value, kind):
        raise ValueError(f"'{key}' is {_json_type(value)}, not {name}")
    return value


def _json_type(value):
    """How JSON names the type of a loaded value, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _text(obj, key, default):
    """A row's string `key` (`default` where absent or null); ValueError where it is another
    type, which no results file writes and the names and messages built from it cannot use."""
    return _typed(obj, key, default, str, "a string")


class Row:
    """One row of a results file.

    name, run_name      Google Benchmark's names (run_name without repetition and aggregate suffixes)
    family, keys        the parsed name: `<space>/<experiment>` and {key: value} in name order
    run_type, aggregate `iteration` or `aggregate`; the aggregate's statistic (`median`, ...) or None
    time, time_unit     real_time in its unit (membench: the median sample); time_us in microseconds
    ci_low_us, ci_high_us, ci_pct, ci_target_pct, converged
                        the interval of the median membench writes (None where absent)
    samples_us          the kept samples (`--keep-samples`), or None
    label, error        the label; error_message when error_occurred, else None
    context             the file's context dict (shared by its rows); json: the row's object
    """

    def __init__(self, obj, context):
        if not isinstance(obj, dict):
            raise ValueError(f"a row is {_json_type(obj)}, not an object")
        _check_finite(obj)
        self.json = obj
        self.context = context
        self.name = _text(obj, R.name, "")
        self.run_name = _text(obj, R.run_name, self.name)
        self.family, self.keys = parse_name(self.run_name)
        self.run_type = _text(obj, R.run_type, "iteration")
        self.aggregate = _text(obj, R.aggregate_name, None)
        self.time = _time(obj)
        self.time_unit = obj.get(R.time_unit, "ns")
        # The counters the verdicts read: one given as text is refused, never read as absent.
        self.ci_low_us = number(obj, C.ci_low_us)
        self.ci_high_us = number(obj, C.ci_high_us)
        self.ci_pct = number(obj, C.ci_pct)
        self.ci_target_pct = number(obj, C.ci_target_pct)
        converged = number(obj, C.converged)
        self.converged = None if converged is None else converged == 1
        self.samples_us = _samples(obj)
        self.label = _text(obj, R.label, "")
        self.error = _text(obj, R.error_message, "") if flag(obj, R.error_occurred) else None

    @property
    def time_us(self):
        """The row's time in microseconds; None without a time or with an unknown unit
        (an aggregate in `percentage`, such as `cv`, has none)."""
        # A unit that is no string (`"time_unit": []`) is as unknown as any other.
        if (self.time is None or not isinstance(self.time_unit, str) or self.time_unit not in _TO_US
                or self.get(R.aggregate_unit) == "percentage"):
            return None
        return self.time * _TO_US[self.time_unit]

    @property
    def skipped(self):
        """A row membench could not run on this machine (`skipped: why`), which is no failure."""
        return self.error is not None and self.error.startswith("skipped:")

    @property
    def report_name(self):
        """The name as membench-report shows and joins it: run_name without the time type."""
        return strip_framework_suffix(self.run_name, settings=False)

    def get(self, key, default=None):
        """Any key of the row's JSON object (a counter, a `--metrics` metric, ...)."""
        return self.json.get(key, default)

    def __repr__(self):
        return f"Row({self.name!r}, time={self.time} {self.time_unit})"


class Results:
    """A loaded results file: `context` (dict), `rows` (list of Row), iterable and indexable."""

    def __init__(self, doc, path=None):
        if not isinstance(doc, dict) or not isinstance(doc.get(F.benchmarks), list):
            raise ValueError(f"{path or 'document'}: not a Google Benchmark JSON file (no '{F.benchmarks}' array)")
        self.path = path
        self.context = doc.get(F.context, {})
        if not isinstance(self.context, dict):
            raise ValueError(f"{path or 'document'}: the '{F.context}' is {_json_type(self.context)}, not an object")
        self.rows = []
        for i, obj in enumerate(doc[F.benchmarks]):
            try:
                self.rows.append(Row(obj, self.context))
            except ValueError as e:
                name = obj.get(R.name) if isinstance(obj, dict) else None
                row = f"benchmark {i} ({name})" if isinstance(name, str) else f"benchmark {i}"
                raise ValueError(f"{path or 'document'}: {row}: {e}") from None

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, index):
        return self.rows[index]

    def named(self, name):
        """The iteration rows whose report name (or name) is `name`, in file order."""
        return [r for r in self.rows if r.run_type == "iteration" and name in (r.report_name, r.name)]


class _DuplicateKey(Exception):
    """A key an object names twice; kept apart from json's own ValueError so the message is ours."""


def _no_duplicates(pairs):
    """A JSON object as a dict; a key given twice raises: the last one winning silently hides
    which value the file meant."""
    doc = {}
    for key, value in pairs:
        if key in doc:
            raise _DuplicateKey(key)
        doc[key] = value
    return doc


def load(path):
    """The rows and context of a results file (a path). Raises OSError, ValueError (what
    read_document raises; no `benchmarks` array, a row or context that is no object, a name
    that is no string, a row's number that is NaN, infinite or beyond a double's range, a
    real_time or member of samples_us that is no number, an error_occurred that is no boolean)."""
    return Results(read_document(path), Path(path))


def read_document(path):
    """A JSON file as Python objects, read as load reads it. Raises OSError, ValueError (what
    read_input raises; not UTF-8, not JSON, a key given twice in one object, nested too deeply)."""
    data = read_input(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8: {e}") from None
    return parse_document(text, path)


def parse_document(text, path="document"):
    """JSON text as Python objects, as read_document reads a file (`path` names it in
    messages). Raises ValueError: not JSON (json.JSONDecodeError, as json.loads words it), a key
    given twice in one object, nested too deeply."""
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as e:
        raise ValueError(f"{path}: key '{e.args[0]}' given twice in one object") from None
    except RecursionError:  # nested deeper than Python's parser goes: no results file
        raise ValueError(f"{path}: not JSON this reader can take: nested too deeply") from None
    return doc


def read_input(path):
    """The bytes of an input file (a results file, a CSV), for every reader of the package and
    the repository's scripts. Raises OSError, ValueError (longer than 512 MiB, neither a
    regular file nor a pipe, such as /dev/zero or a folder, or a FIFO that no one writes: it
    reads as empty, never waited for)."""
    too_long = f"{path}: longer than {MAX_INPUT >> 20} MiB: no input file"
    # Opened without blocking: open() of a FIFO waits for a writer, for ever where there is
    # none. Blocking again once open, so that a pipe with a writer (<(...)) is read whole.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        # A device (/dev/zero) never ends and a folder has no bytes: neither is an input file.
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            raise ValueError(f"{path}: not a regular file or a pipe (a folder, a device): no input file")
        if st.st_size > MAX_INPUT:  # a regular file: refused unread
            raise ValueError(too_long)
        os.set_blocking(fd, True)
        data = f.read(MAX_INPUT + 1)
    if len(data) > MAX_INPUT:
        raise ValueError(too_long)
    if not data and stat.S_ISFIFO(st.st_mode):
        raise ValueError(f"{path}: a FIFO that no one writes: no input file")
    return data
