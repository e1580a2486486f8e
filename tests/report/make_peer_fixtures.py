#!/usr/bin/env python3
"""make_peer_fixtures.py [DIR]: writes peer_2gpu.json and peer_4gpu.json (into tests/data/report), hand-made membench
runs of the peer matrix on H100 SXM hosts (every pair over NVSwitch: 18 NVLinks x 26.562 GB/s
= 478.1 GB/s a direction; PCIe gen5 x16: 63.0 GB/s), for the p2p and gpus views' tests.
The numbers are made up but shaped like real runs: a copy engine's push reaches about 82 %
of the links, a pull a little less, a copy without peer access what the host's PCIe allows,
a dependent load over NVLink about 800 ns. The 4-GPU run has one error row, one skipped row,
one missing pair and an older pair row. Deterministic: rerunning rewrites the same bytes."""
import hashlib
import json
import pathlib
import sys

NVLINKS, LINK_GBPS, PCIE_GBPS = 18, 26.562, 63.0
NVLINK_PEAK = round(NVLINKS * LINK_GBPS, 1)  # 478.1
MIB = 1 << 20


HOST = ""  # set per run: the same row of two hosts measures a little differently


def jitter(name, spread):
    """A fixed factor in [1 - spread, 1 + spread] for each name on each host."""
    h = int.from_bytes(hashlib.sha256((HOST + name).encode()).digest()[:4], "big") / 0xFFFFFFFF
    return 1 + spread * (2 * h - 1)


def context(gpus, bus):
    uuids = [f"GPU-{i:x}{i:x}c0ffee-{i}1a2-4b3c-8d4e-5f60718293a{i}" for i in range(gpus)]
    return {
        "date": "2026-11-25T10:00:00+00:00", "host_name": f"h100x{gpus}", "executable": "build/bench/bin/membench",
        "num_cpus": 16, "mhz_per_cpu": 2100, "cpu_scaling_enabled": False, "library_build_type": "release",
        "membench_cache_mode": "default", "membench_git_commit": "0123456789ab", "membench_suite": "default",
        "membench_ci_level_pct": "95", "gpu_device": "0", "gpu_name": "NVIDIA H100 80GB HBM3",
        "gpu_pci_bus_id": bus, "gpu_uuid": uuids[0], "gpu_peak_dram_gbps": "3352.3",
        "cuda_driver_version": "13.0", "pcie_peak_gbps": str(PCIE_GBPS), "nvlink_links": str(NVLINKS),
        "nvlink_link_gbps": str(LINK_GBPS), "nvlink_peak_gbps": str(NVLINK_PEAK),
        "peer_gpu_uuids": ",".join(f"{i}={u}" for i, u in enumerate(uuids)),
    }


def sampled(name, label, t, counters, ci):
    """A row whose median is `t` us, with its interval of +-ci %."""
    row = {"name": f"{name}/manual_time", "run_name": f"{name}/manual_time", "run_type": "iteration",
           "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": t,
           "cpu_time": 3.0, "time_unit": "us", "label": label, "t_median_us": t,
           "ci_low_us": t * (1 - ci / 100), "ci_high_us": t * (1 + ci / 100), "ci_pct": ci,
           "noise_pct": 4 * ci, "samples": 40.0, "converged": 1.0}
    row.update(counters)
    return row


def timed(name, label, nbytes, gbps, counters, ci=0.4):
    """A row moving `nbytes` at `gbps` (decimal GB/s)."""
    t = nbytes / gbps / 1e3  # us
    rates = {"bytes": float(nbytes), "bytes_per_second": nbytes / t * 1e6, "gb_per_s": gbps}
    return sampled(name, label, t, {**rates, **counters}, ci)


def failed(name, message):
    return {"name": f"{name}/manual_time", "run_name": f"{name}/manual_time", "run_type": "iteration",
            "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 0, "real_time": 0.0,
            "cpu_time": 0.0, "time_unit": "us", "error_occurred": True, "error_message": message}


def link_row(name, label, nbytes, src, dst, rate, link):
    gbps = round(rate * jitter(name, 0.015), 2)
    return timed(name, label, nbytes, gbps, {
        "src_device": float(src), "dst_device": float(dst), "link_gb_per_s": link,
        "pct_of_link": 100 * gbps / link, "link_nvlinks": float(NVLINKS if link != PCIE_GBPS else 0)})


def pair_rows(src, dst, size):
    at = f"src:{src}/dst:{dst}/bytes:{size // MIB}M"
    copy, kernel = "timing:events fallback:copy_engine work:copy", "timing:blocking work:kernel"
    rows = []
    for d, rate, link in (("push", 392, NVLINK_PEAK), ("pull", 376, NVLINK_PEAK), ("bidir", 748, 2 * NVLINK_PEAK)):
        rows.append(link_row(f"peer/copy/access:on/dir:{d}/{at}", copy, size * (2 if d == "bidir" else 1), src, dst,
                             rate, link))
    rows.append(link_row(f"peer/copy/access:off/dir:push/{at}", copy, size, src, dst, 34, PCIE_GBPS))
    rows.append(link_row(f"peer/sm/op:read/dir:uni/{at}", kernel, size, src, dst, 341, NVLINK_PEAK))
    name = f"peer/latency/src:{src}/dst:{dst}/bytes:4M"
    ns = round(790 * jitter(name, 0.05), 1)
    nodes = 4 * MIB // 512  # one node every 512 bytes
    rows.append(sampled(name, kernel, nodes * ns / 1e3, {
        "ns_per_load": ns, "cycles_per_load": round(ns * 1.98, 1), "chain_nodes": float(nodes),
        "src_device": float(src), "dst_device": float(dst), "link_nvlinks": float(NVLINKS)}, ci=0.3))
    return rows


def aggregate_rows(gpus, size):
    copy = "timing:events fallback:copy_engine work:copy"
    rows = []
    for what, key in (("all_to_one", "dst"), ("one_to_all", "src")):
        for g in range(gpus):
            name = f"peer/{what}/access:on/{key}:{g}/bytes:{size // MIB}M"
            gbps = round((398 if gpus > 2 else 392) * jitter(name, 0.015), 2)
            rows.append(timed(name, copy, size * (gpus - 1), gbps, {
                "src_device" if key == "src" else "dst_device": float(g), "link_gb_per_s": NVLINK_PEAK,
                "pct_of_link": 100 * gbps / NVLINK_PEAK, "link_nvlinks": float(NVLINKS)}))
    return rows


def other_rows():
    """A DRAM row and a PCIe row: the gpus view judges each against its own ceiling."""
    return [timed("global/read_offset/type:f32/offset:0/l2:cold/bytes:1G", "timing:blocking work:kernel", 1 << 30,
                  2905.4, {"pct_peak": 100 * 2905.4 / 3352.3}),
            timed("host/copy/dir:h2d/host:pinned/api:memcpy_async/bytes:64M",
                  "timing:events fallback:copy_engine peak:pcie work:copy", 64 * MIB, 55.2,
                  {"pct_peak": 100 * 55.2 / PCIE_GBPS})]


def run(gpus, bus, edit):
    global HOST
    HOST = f"h100x{gpus}"
    rows = other_rows()
    for s in range(gpus):
        for d in range(gpus):
            if s != d:
                rows += pair_rows(s, d, 64 * MIB)
    rows += aggregate_rows(gpus, 64 * MIB)
    edit(rows)
    return {"context": context(gpus, bus), "benchmarks": rows}


def four_gpu_edits(rows):
    """One error row, one skipped row, one missing pair, and an older pair row."""
    for i, r in enumerate(rows):
        if r["name"] == "peer/copy/access:on/dir:push/src:2/dst:3/bytes:64M/manual_time":
            rows[i] = failed(r["name"][:-len("/manual_time")],
                             "verification failed: 3 of 16777216 words differ (first at word 1024)")
        elif r["name"] == "peer/latency/src:0/dst:3/bytes:4M/manual_time":
            rows[i] = failed(r["name"][:-len("/manual_time")],
                             "skipped: GPU 0 cannot access GPU 3's memory (cudaDeviceCanAccessPeer: 0)")
    rows[:] = [r for r in rows if r["name"] != "peer/sm/op:read/dir:uni/src:3/dst:1/bytes:64M/manual_time"]
    rows.append(failed("peer/copy/access:on/dir:d0_d1/bytes:64M",
                       "skipped: the pair rows of d0 and d1 ran as their own family"))


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "../data/report")
    for name, doc in (("peer_2gpu.json", run(2, "00000000:18:00.0", lambda rows: None)),
                      ("peer_4gpu.json", run(4, "00000000:1B:00.0", four_gpu_edits))):
        (out / name).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
