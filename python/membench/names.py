"""Benchmark names read back as common/naming.cpp reads them: `<space>/<experiment>/<key>:<value>/...`
with Google Benchmark's suffixes taken off.

    parse_name("global/read_offset/type:f32/offset:4/l2:cold/bytes:64M/manual_time")
    # Name(family='global/read_offset', keys={'type': 'f32', 'offset': '4', 'l2': 'cold', 'bytes': '64M'})

Another program's name (`BM_copy/1024/threads:8`) has no space: its first segment is the
family and every further segment a key, `key:value` as Google Benchmark's ArgNames write it,
a bare value as positional `arg0`, `arg1`, ... (skipping a name a `key:value` of its own
takes); only the time type at its end is dropped.

A key a name gives twice (`bytes:1K/bytes:64M`) reads as naming.cpp's bench_name::get reads
it: the first value; membench-report and these tools then agree on which row it is.
"""
import re
from collections import namedtuple

from . import schema

Name = namedtuple("Name", "family keys")
Name.__doc__ = "A parsed benchmark name: `family` (`<space>/<experiment>`) and `keys` ({key: value}, in name order)."

_TOKEN = re.compile(r"[a-z0-9_]+")
_SIZE = re.compile(r"[0-9]{1,19}[KMGT]?")
_TIME_TYPES = ("manual_time", "real_time", "process_time")
_SETTINGS = ("min_time", "min_warmup_time", "iterations", "repeats", "threads")
_AGGREGATES = ("_mean", "_median", "_stddev", "_cv")
_SIZE_SHIFTS = {"K": 10, "M": 20, "G": 30, "T": 40}


def parse_size(text):
    """"64M" -> 67108864, as membench's names write sizes (binary K, M, G, T). Raises ValueError."""
    # A number (or None) is no size text: refused as the docstring says, not a TypeError from re.
    if not isinstance(text, str):
        raise ValueError(f"bad size {text!r}: text expected (digits with optional K, M, G, T), not {type(text).__name__}")
    if not _SIZE.fullmatch(text):
        raise ValueError(f"bad size '{text}' (expected digits with optional K, M, G, T)")
    shift = _SIZE_SHIFTS.get(text[-1], 0)
    value = int(text[:-1] if shift else text) << shift
    if value >= 1 << 64:  # no byte count the C++ side can hold (uint64)
        raise ValueError(f"bad size '{text}' (beyond 2**64-1 bytes)")
    return value


def _segment_kind(segment):
    """'time' (Google Benchmark's time type), 'setting' (one of its settings) or 'own'."""
    if segment in _TIME_TYPES:
        return "time"
    key, colon, value = segment.partition(":")
    if colon and value and all(c.isdigit() or c == "." for c in value) and key in _SETTINGS:
        return "setting"
    return "own"


def strip_framework_suffix(name, settings=True):
    """`name` without the segments Google Benchmark appended at its end: the time type, and
    its settings (`repeats:N`, `threads:N`, ...) too unless `settings` is false."""
    segments = name.split("/")
    end = len(segments)
    while end > 1:
        kind = _segment_kind(segments[end - 1])
        if kind == "own":
            break
        if kind == "time" or settings:
            del segments[end - 1]
        end -= 1
    return "/".join(segments)


def _valid_value(key, value):
    unit = schema.name_key.unit(key)
    return bool(_SIZE.fullmatch(value) if unit in ("bytes", "elements", "cycles") else _TOKEN.fullmatch(value))


def _membench_name(text):
    """The Name of a membench name, or None when `text` is not one."""
    segments = strip_framework_suffix(text).split("/")
    if len(segments) < 2 or not all(_TOKEN.fullmatch(s) for s in segments[:2]):
        return None
    keys = {}
    for segment in segments[2:]:
        key, colon, value = segment.partition(":")
        if not colon or key not in schema.name_key or not _valid_value(key, value):
            return None
        keys.setdefault(key, value)  # the first, as bench_name::get finds it
    return Name("/".join(segments[:2]), keys)


def parse_name(text):
    """The family and keys of any Google Benchmark name; never raises. A membench name's keys
    are the schema's name keys; an aggregate's `_mean`, `_median`, ... is taken off first.
    What is no string (a file's `"name": 5`) is no name: Name('', {}), as the empty name."""
    if not isinstance(text, str):
        return Name("", {})
    own = text
    for aggregate in _AGGREGATES:
        if own.endswith(aggregate) and len(own) > len(aggregate):
            own = own[:-len(aggregate)]
            break
    parsed = _membench_name(own)
    if parsed is not None:
        return parsed
    segments = strip_framework_suffix(text, settings=False).split("/")
    return Name(segments[0], _foreign_keys(segments[1:]))


def _foreign_keys(segments):
    """{key: value} of another program's name segments: `key:value`, a bare value as `argN`.
    A positional name a named key already takes (`BM_x/arg0:5/7`) is skipped to the next free
    one, so neither value is lost."""
    named = {s.partition(":")[0] for s in segments if ":" in s and s.partition(":")[0]}
    keys, positional = {}, 0
    for segment in segments:
        key, colon, value = segment.partition(":")
        if colon and key:
            keys.setdefault(key, value)  # the first, as bench_name::get finds it
            continue
        while f"arg{positional}" in named:
            positional += 1
        keys[f"arg{positional}"] = segment
        positional += 1
    return keys
