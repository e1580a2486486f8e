#!/usr/bin/env python3
"""Stop-gap table generator for a reports/<gpu>/<date>_<sha>/ folder from before
membench-report's views: python3 reports/make_tables.py DIR > DIR/tables.md"""
import statistics, sys
from pathlib import Path

from membench import read_document, schema as S

C, R, X = S.counter, S.row, S.context


def fail(message):
    print(f"make_tables: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    """A results file's JSON; one missing or unreadable is said, exit 2."""
    try:
        return read_document(path)
    except (OSError, ValueError) as e:  # missing, a folder, not UTF-8, not JSON
        fail(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}")


def render(d):
    """The Markdown of DIR's tables, whole: nothing is printed before every row is found."""
    builds = {m: load(d / f"membench{s}.json") for m, s in [("default", ""), ("ca", "_ca"), ("cg", "_cg")]}
    rows = {m: {b[R.run_name].removesuffix("/manual_time"): b for b in j[S.file.benchmarks] if b.get(R.run_type) == "iteration"}
            for m, j in builds.items()}
    ctx = builds["default"][S.file.context]
    lines = []
    out = lines.append

    def gbps(m, n):
        return f"{rows[m][n][C.gb_per_s]:.0f}"

    out(f"# membench on {ctx[X.gpu_name]}\n")
    out(f"Commit {ctx[X.membench_git_commit]}, driver {ctx[X.cuda_driver_version]}, runtime {ctx[X.cuda_runtime_version]}, "
        f"theoretical DRAM peak {ctx[X.gpu_peak_dram_gbps]} GB/s, L2 {int(ctx[X.gpu_l2_bytes]) >> 20} MiB, "
        f"{ctx[X.gpu_sm_count]} SMs. GB/s are decimal, over the median sample.\n")
    out("| build | load probe (cycles/dependent load) | cacheModeCA | rows | error rows | median noise % | date |")
    out("|---|---|---|---|---|---|---|")
    for m, j in builds.items():
        c = j[S.file.context]
        errs = sum(1 for b in j[S.file.benchmarks] if b.get(R.error_occurred))
        noise = statistics.median(b[C.noise_pct] for b in rows[m].values())
        out(f"| {m} | {c[X.membench_probe_load_cycles]} | {c[X.membench_probe_cache_mode_ca]} | {len(j[S.file.benchmarks])} | {errs} | {noise:.2f} | {c[S.gbench_context.date]} |")

    out("\n## G1 offset, f32, 1 GiB, GB/s (default / ca / cg)\n")
    out("| offset | read_offset | write_offset |\n|---|---|---|")
    for o in [0, 1, 2, 4, 8, 16, 32, 64, 128]:
        cells = [" / ".join(gbps(m, f"global/{op}/type:f32/offset:{o}/l2:cold/bytes:1G") for m in rows)
                 for op in ["read_offset", "write_offset"]]
        out(f"| {o} | {cells[0]} | {cells[1]} |")

    out("\n## G2 stride, 1 GiB span, useful GB/s (default build)\n")
    out("| stride | f32 | f32 load efficiency % | f64 | f64 load efficiency % |\n|---|---|---|---|---|")
    for s in [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64]:
        f = rows["default"][f"global/read_stride/type:f32/stride:{s}/l2:cold/bytes:1G"]
        g = rows["default"][f"global/read_stride/type:f64/stride:{s}/l2:cold/bytes:1G"]
        out(f"| {s} | {f[C.gb_per_s]:.0f} | {f[C.load_efficiency_pct]:.1f} | {g[C.gb_per_s]:.0f} | {g[C.load_efficiency_pct]:.1f} |")

    out("\n## G3 best and worst configuration per operation and width, 1 GiB, default build\n")
    out("| op | width | best GB/s | best config | worst GB/s | worst config |\n|---|---|---|---|---|---|")
    for op in ["read", "write", "copy"]:
        for w in [1, 2, 4, 8, 16]:
            rs = sorted((b[C.gb_per_s], n) for n, b in rows["default"].items() if n.startswith(f"global/{op}/width:{w}/"))
            cfg = lambda n: n.split("/", 3)[3].rsplit("/l2", 1)[0]
            out(f"| {op} | {w} | {rs[-1][0]:.0f} | {cfg(rs[-1][1])} | {rs[0][0]:.0f} | {cfg(rs[0][1])} |")
    for ref in ["memcpy_d2d", "memset"]:
        out(f"| {ref} (vendor) | - | {gbps('default', f'global/{ref}/l2:cold/bytes:1G')} | | | |")

    reps_file = d / "membench_reps.json"
    reps = load(reps_file)[S.file.benchmarks] if reps_file.exists() else []
    if reps:
        out("\n## 10 repetitions (default build)\n")
        out("| benchmark | mean GB/s | cv of time % |\n|---|---|---|")
    for b in reps:
        if b.get(R.aggregate_name) == "mean":
            cv = next(x for x in reps if x[R.run_name] == b[R.run_name] and x.get(R.aggregate_name) == "cv")
            out(f"| {b[R.run_name]} | {b[C.gb_per_s]:.0f} | {100 * cv[R.real_time]:.3f} |")

    out("\n## G4 patterns, f32, requested-bytes GB/s (default / ca / cg)\n")
    out("| experiment | l2 | bytes | GB/s |\n|---|---|---|---|")
    for e in ["read_scatter", "read_reuse"]:
        for l2 in ["cold", "warm"]:
            for s in ["4M", "1G"]:
                n = f"global/{e}/type:f32/l2:{l2}/bytes:{s}"
                out(f"| {e} | {l2} | {s} | {' / '.join(gbps(m, n) for m in rows)} |")

    out("\n## G5 working set, GB/s\n")
    out("| bytes | fixed warm default | fixed warm ca | fixed warm cg | rotate warm default | rotate warm cg | fixed cold default | rotate cold default |")
    out("|---|---|---|---|---|---|---|---|")
    size = 16 << 10
    while size <= 2 << 30:
        s = next(f"{size >> sh}{u}" for sh, u in [(30, "G"), (20, "M"), (10, "K")] if size % (1 << sh) == 0)
        n = lambda mp, l2: f"global/working_set/map:{mp}/l2:{l2}/bytes:{s}"
        out(f"| {s} | {gbps('default', n('fixed', 'warm'))} | {gbps('ca', n('fixed', 'warm'))} | {gbps('cg', n('fixed', 'warm'))} | "
            f"{gbps('default', n('rotate', 'warm'))} | {gbps('cg', n('rotate', 'warm'))} | {gbps('default', n('fixed', 'cold'))} | "
            f"{gbps('default', n('rotate', 'cold'))} |")
        size *= 2
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        print("usage: make_tables.py DIR > DIR/tables.md", file=sys.stderr)
        sys.exit(2)
    d = Path(sys.argv[1])
    try:
        text = render(d)
    except (OSError, KeyError, TypeError, ValueError, IndexError, statistics.StatisticsError) as e:
        fail(f"{d}: a row or field the tables need is missing or malformed: {e!r}")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
