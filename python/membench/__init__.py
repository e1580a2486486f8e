"""membench's Python support: the JSON schema's key names, results files read into rows,
benchmark names parsed back, for the repository's scripts and for users' own.

    import membench
    run = membench.load("membench.json")         # rows with family, keys, time, interval; context
    membench.parse_name("global/read/bytes:64M/manual_time")   # Name(family, keys)
    from membench import schema as S             # S.counter.t_median_us, S.default_metric, ...
    membench.read_document("any.json")           # strict JSON: a key given twice, a FIFO, /dev/zero refused
    membench.parse_document(text, "where")       # the same for JSON text read already
    membench.number(row_json, "gb_per_s")        # a float or None; text, NaN, a boolean refused
    from membench import cli                     # scripts: options once, Ctrl-C and closed pipes, OUT no input

Install: `pip install ./python` from a checkout, `pip install <prefix>/share/membench/python`
from an installed membench, or put either folder on PYTHONPATH. Standard library only.
"""
from . import schema
from .names import Name, parse_name, parse_size
from .results import Results, Row, flag, load, number, parse_document, read_document, read_input

__all__ = ["schema", "Name", "parse_name", "parse_size", "Results", "Row", "flag", "load", "number", "parse_document",
           "read_document", "read_input"]
