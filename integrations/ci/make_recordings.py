#!/usr/bin/env python3
"""make_recordings.py OUT_DIR [--gpus=N] [--slow=INDEX] [--slowdown=PCT]: the stand-in's GPUs.

Writes OUT_DIR/gpu0.json ... gpu<N-1>.json, one recorded membench JSON per GPU of a fake
node, from the committed real results of two H200s (reports/h200/2026-11-27_a56f772,
each GPU measured alone, quick tier). GPUs 0 and 1 are those two files as measured. Each
further GPU is a copy of one of them (alternately) with its own UUID, serial and bus id,
every row moved by a small deterministic amount (at most +-0.3 %, from a hash of the UUID
and the row's name). GPU INDEX (default: the last) is made PCT % slower (default 10):
every time multiplied by 1 + PCT/100, every rate divided by it, ratios between rows of
the same run unchanged. OUT_DIR/manifest.json says which UUID is which and how it was made.
"""
import hashlib
import json
import sys
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
from membench import schema as S  # membench's key names

C, F, R = S.context, S.file, S.row
SOURCES = [REPO / "reports/h200/2026-11-27_a56f772/devices_alone" / f"membench.gpu{i}.json" for i in (0, 1)]
# Measured durations: a slower GPU takes longer on each.
TIMES = {R.real_time, R.cpu_time} | {S.counter[k] for k in (
    "t_median_us", "t_mean_us", "t_min_us", "t_max_us", "ci_low_us", "ci_high_us", "us_per_call", "kernel_us",
    "ns_per_access", "ns_per_load", "cycles_per_load", "clocks_per_access", "h2d_us", "d2h_us", "batch_us",
    "serial_us", "hot_us")}
# Rates, and rates against a fixed ceiling or clock: a slower GPU does less per second.
RATES = {S.counter[k] for k in (
    "bytes_per_second", "gb_per_s", "elems_per_s", "gflop_per_s", "host_gb_per_s", "local_read_gb_per_s",
    "pct_peak", "pct_fp32_peak", "pct_pcie", "pct_of_bound", "bytes_per_clk", "bytes_per_clk_per_sm")}
JITTER = 0.003


def fake_uuid(index):
    """A fixed UUID per made-up GPU, in nvidia-smi's form."""
    return "GPU-" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"membench-standin/gpu{index}"))


def jitter(gpu_uuid, name):
    """A deterministic factor within 1 +- JITTER for one row of one GPU."""
    h = int.from_bytes(hashlib.sha256(f"{gpu_uuid}/{name}".encode()).digest()[:8], "big")
    return 1 + JITTER * (2 * h / 2**64 - 1)


def scaled(row, factor):
    for key in TIMES & row.keys():
        row[key] *= factor
    for key in RATES & row.keys():
        row[key] /= factor
    return row


def made_gpu(source, index, slowdown):
    doc = json.loads(source.read_text())
    ctx = doc[F.context]
    ctx[C.gpu_uuid] = fake_uuid(index)
    ctx[C.gpu_serial] = f"{9000000000000 + index}"
    ctx[C.gpu_pci_bus_id] = f"0000:00:{6 + index:02x}.0"
    doc[F.benchmarks] = [scaled(r, slowdown * jitter(ctx[C.gpu_uuid], r[R.name])) for r in doc[F.benchmarks]]
    return doc


def option(args, name, default):
    values = [a.split("=", 1)[1] for a in args if a.startswith(f"--{name}=")]
    return values[-1] if values else default


def main(args):
    if not args or args[0].startswith("-"):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    out = Path(args[0])
    gpus = int(option(args, "gpus", "4"))
    slow = int(option(args, "slow", str(gpus - 1)))
    factor = 1 + float(option(args, "slowdown", "10")) / 100
    if gpus < 2 or not 0 <= slow < gpus:
        print("make_recordings.py: --gpus must be 2 or more and --slow one of them", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for i in range(gpus):
        source = SOURCES[i % 2]
        slowdown = factor if i == slow else 1.0
        doc = json.loads(source.read_text()) if i < 2 and i != slow else made_gpu(source, i, slowdown)
        (out / f"gpu{i}.json").write_text(json.dumps(doc, indent=1) + "\n")
        manifest.append({"index": i, "gpu_uuid": doc[F.context][C.gpu_uuid], "source": str(source.relative_to(REPO)),
                         "as_measured": i < 2 and i != slow, "slowdown": slowdown})
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"make_recordings.py: {gpus} GPUs in {out}, GPU {slow} ({manifest[slow]['gpu_uuid']}) {factor:.2f}x slower")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
