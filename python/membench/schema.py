"""membench's JSON schema: the key names scripts read, from schema.json beside this module
(generated from common/schema_tables.hpp by membench-schema; the ctest schema.json_current
fails when the two differ).

    from membench import schema as S
    row[S.counter.t_median_us]            # "t_median_us"; a key the schema lacks raises
    ctx.get(S.context.gpu_name, "?")
    S.counter.unit("gb_per_s")            # "GB/s"
    S.label.values(row[S.row.label], S.label.throttle)   # ["sw_power_cap"]
    list(S.default_metric)                # --metrics' default list, in its order

Tables: name_key, counter, label, context (membench's), gbench_context, file, row (Google
Benchmark's keys membench's readers use), default_metric (the CUPTI metrics `--metrics`
profiles unless `--metric-list` names others). A key is looked up when the script runs, so a
misspelt or removed key fails at once with its table named, never reads as absent.
"""
import json
from importlib import resources

PATH = resources.files(__package__).joinpath("schema.json")


class Table:
    """The keys of one table: `t.key_name` is the key, checked; `key in t`; unit, meaning."""

    def __init__(self, name, entries):
        self._name = name
        self._entries = {e["key"]: e for e in entries}

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        return self[key]

    def __getitem__(self, key):
        if key not in self._entries:
            raise KeyError(f"membench schema: '{key}' is not in the {self._name} table of {PATH}")
        return key

    def __contains__(self, key):
        return key in self._entries

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def unit(self, key):
        return self._entries[self[key]]["unit"]

    def meaning(self, key):
        return self._entries[self[key]]["meaning"]

    def entry(self, key):
        """Every field the schema gives the key (key, unit, meaning and the table's own)."""
        return dict(self._entries[self[key]])

    def values(self, label, token):
        """The values of `token:value` tokens of a label (tokens are space-separated)."""
        prefix = self[token] + ":"
        return [t[len(prefix):] for t in label.split() if t.startswith(prefix)]


_doc = json.loads(PATH.read_text(encoding="utf-8"))
name_key = Table("name_keys", _doc["name_keys"])
counter = Table("counters", _doc["counters"])
label = Table("labels", _doc["labels"])
context = Table("context", _doc["context"])
gbench_context = Table("gbench_context", _doc["gbench_context"])
file = Table("file_keys", _doc["file_keys"])
row = Table("row_keys", _doc["row_keys"])
default_metric = Table("default_metrics", _doc["default_metrics"])
options = _doc["options"]
exit_codes = _doc["exit_codes"]
ceilings = _doc["ceilings"]
headlines = _doc["headlines"]
