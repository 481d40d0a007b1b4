#!/usr/bin/env python3
"""CuPy's side of bench/bench_memory.cpp: the same operations on the same sizes, timed the same
way (CUDA events on the current stream around each call, 3 untimed warm-up calls, repeats until
50 ms of GPU time and at least 20 repeats, median; device-only ops behind a hold kernel so that
Python's launch latency stays out of the GPU time and goes to host_us), written as
Google-Benchmark-shaped JSON with names <op>/cupy/<arg> (and <op>/numpy/<arg> for the host
baseline), so that bench/merge_results.py joins them with bench_memory's JSON by name.

usage: python3 bench/cupy/cupy_memory.py [--out cupy_memory.json] [--filter REGEX]
                                          [--min-time SECONDS]
"""
import argparse
import datetime
import json
import platform
import re
import statistics
import sys
import time

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
ALL = [4 * KIB * 8**i for i in range(7)]  # 4 KiB, 32 KiB, ..., 1 GiB (bench_memory's sizes)
COLD = [b for b in ALL if b <= 128 * MIB]  # where the 60 MB L2 can hold the data
ALLOC = [4 * KIB * 64**i for i in range(4)]  # 4 KiB, 256 KiB, 16 MiB, 1 GiB
H2D, D2H, D2D = 1, 2, 3  # cudaMemcpyKind


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="cupy_memory.json", help="JSON file to write")
    ap.add_argument("--filter", default="", help="only names matching this regular expression")
    ap.add_argument("--min-time", type=float, default=0.05,
                    help="seconds of GPU time per benchmark (bench_memory: CUNP_BENCH_MIN_TIME)")
    args = ap.parse_args(argv[1:])

    import numpy as np
    import cupy as cp
    import cupyx

    stream = cp.cuda.get_current_stream
    keep = re.compile(args.filter)
    results = []

    hold_kernel = cp.RawKernel(r"""
    extern "C" __global__ void hold(unsigned long long ns) {
      unsigned long long t0, t;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
      do {
        __nanosleep(500);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
      } while (t - t0 < ns);
    }""", "hold")

    def hold_for(host_us):
        return min(2000.0, 1.5 * host_us + 10)

    def gpu_times(fn, flush=None, hide_launch=False, warmup=3, min_repeats=20,
                  max_repeats=100000):
        """Milliseconds of fn() between two events on the current stream, one pair per call,
        and the host time of each call. With hide_launch, a hold kernel queued before the start
        event keeps the GPU busy while Python enqueues fn(), so the events time the device work
        alone (bench_util.hpp's time_gpu does the same for cunp); only for calls that just
        enqueue work."""
        warm = []
        for _ in range(warmup):
            t0 = time.perf_counter()
            fn()
            warm.append((time.perf_counter() - t0) * 1e6)
            stream().synchronize()
        hold_us = hold_for(statistics.median(warm)) if hide_launch else 0
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        ms, host, total = [], [], 0.0
        while len(ms) < max_repeats and (len(ms) < min_repeats or total < args.min_time):
            if flush is not None:
                flush()
            if hold_us:
                hold_kernel((1,), (1,), (np.uint64(hold_us * 1e3),))
            t0 = time.perf_counter()
            start.record()
            fn()
            t1 = time.perf_counter()
            stop.record()
            stop.synchronize()
            t = cp.cuda.get_elapsed_time(start, stop)
            ms.append(t)
            host.append((t1 - t0) * 1e3)
            if hold_us and (t1 - t0) * 1e6 > 0.8 * hold_us:
                hold_us = hold_for((t1 - t0) * 1e6)
            total += t * 1e-3
        return ms, host

    def host_times(fn, warmup=3, min_repeats=20):
        """Milliseconds of host time per call (what a launch-bound caller pays)."""
        for _ in range(warmup):
            fn()
        ms, begin = [], time.perf_counter()
        while len(ms) < min_repeats or time.perf_counter() - begin < args.min_time:
            t0 = time.perf_counter()
            fn()
            ms.append((time.perf_counter() - t0) * 1e3)
        stream().synchronize()
        return ms

    def record(name, ms, host=None, nbytes=0, ceiling=None, label=""):
        med = statistics.median(ms)
        e = {"name": name, "run_name": name, "run_type": "iteration", "iterations": len(ms),
             "real_time": med * 1e3, "cpu_time": med * 1e3, "time_unit": "us",
             "median_us": med * 1e3, "min_us": min(ms) * 1e3, "max_us": max(ms) * 1e3}
        if host:
            e["host_us"] = statistics.median(host) * 1e3
        if label:
            e["label"] = label
        if nbytes:
            e["bytes"] = nbytes
            e["GB/s"] = nbytes / 1e9 / (med * 1e-3)
            if ceiling is not None:
                e["frac_" + ceiling[0]] = e["GB/s"] / ceiling[1]
        results.append(e)
        print(f"{name:45s} {med * 1e3:12.2f} us" + (f"  {e['GB/s']:9.1f} GB/s" if nbytes else ""),
              file=sys.stderr, flush=True)

    def run(name, fn_maker, sizes, kind="gpu", nbytes=lambda b: b, ceiling=None, cold=False,
            hide_launch=False):
        for b in sizes:
            full = f"{name}/{b}"
            if not keep.search(full):
                continue
            fn, label = fn_maker(b)
            if kind == "gpu":
                ms, host = gpu_times(fn, flush=flusher() if cold else None,
                                     hide_launch=hide_launch)
                record(full, ms, host, nbytes(b), ceiling, label)
            else:
                record(full, host_times(fn), label=label)

    # ---- inputs, kept for the run ------------------------------------------------------------
    cache = {}

    def kept(kind, b, make):
        if (kind, b) not in cache:
            cache[(kind, b)] = make()
        return cache[(kind, b)]

    def host_random(b):
        rng = np.random.default_rng(42)
        return kept("host", b, lambda: rng.random(b // 4, dtype=np.float32) * 2 - 1)

    def pinned(b, fill):
        def make():
            p = cupyx.empty_pinned((b // 4,), dtype=np.float32)
            p[...] = fill
            return p
        return make

    def pinned_random(b):
        return kept("pinned", b, pinned(b, host_random(b)))

    def device_random(b):
        return kept("device", b, lambda: cp.asarray(host_random(b)))

    def host_out(b):
        return kept("host_out", b, lambda: np.ones(b // 4, dtype=np.float32))

    def pinned_out(b):
        return kept("pinned_out", b, pinned(b, 1.0))

    flush_buf = []

    def flusher():
        """Writes four times the L2 size (at least 256 MiB) before a cold-cache repeat."""
        if not flush_buf:
            l2 = cp.cuda.runtime.getDeviceProperties(0)["l2CacheSize"]
            flush_buf.append(cp.empty(max(4 * l2, 256 * MIB), dtype=cp.uint8))
        buf = flush_buf[0]
        counter = [0]

        def flush():
            counter[0] = (counter[0] + 1) & 0xFF
            cp.cuda.runtime.memsetAsync(buf.data.ptr, counter[0], buf.nbytes, stream().ptr)
        return flush

    def matrix_of(b):
        k = (b // 4).bit_length() - 1
        return 1 << ((k + 1) // 2), 1 << (k // 2)

    # ---- ceilings, measured in this process ---------------------------------------------------
    def ceiling_ms(kind, nbytes):
        if kind == D2D:
            src, dst = cp.empty(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
            src.fill(0x3F)
            a, b = dst.data.ptr, src.data.ptr
        else:
            dev = cp.empty(nbytes, cp.uint8)
            host = cupyx.empty_pinned((nbytes,), dtype=np.uint8)
            host[...] = 0x3F
            a, b = dev.data.ptr, host.ctypes.data
            if kind == D2H:
                a, b = b, a
        ms, _ = gpu_times(lambda: cp.cuda.runtime.memcpyAsync(a, b, nbytes, kind, stream().ptr))
        return statistics.median(ms)

    copy_ms = ceiling_ms(D2D, GIB)
    copy_gbps = 2 * GIB / 1e9 / (copy_ms * 1e-3)
    h2d_gbps = 256 * MIB / 1e9 / (ceiling_ms(H2D, 256 * MIB) * 1e-3)
    d2h_gbps = 256 * MIB / 1e9 / (ceiling_ms(D2H, 256 * MIB) * 1e-3)
    cp.get_default_memory_pool().free_all_blocks()
    copy_c, h2d_c, d2h_c = ("copy", copy_gbps), ("h2d_pinned", h2d_gbps), ("d2h_pinned", d2h_gbps)
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print(f"{name}: copy ceiling {copy_gbps:.0f} GB/s (1 GiB D2D, read + write)", file=sys.stderr)

    # ---- host <-> device -----------------------------------------------------------------------
    run("h2d_pageable/cupy", lambda b: ((lambda h=host_random(b): cp.asarray(h)), ""), ALL,
        ceiling=h2d_c)
    run("h2d_pinned/cupy", lambda b: ((lambda h=pinned_random(b): cp.asarray(h)), ""), ALL,
        ceiling=h2d_c)
    run("d2h_pageable/cupy", lambda b: ((lambda d=device_random(b): d.get()), ""), ALL,
        ceiling=d2h_c)
    run("d2h_pageable_into/cupy",
        lambda b: ((lambda d=device_random(b), h=host_out(b): d.get(out=h)), ""), ALL,
        ceiling=d2h_c)
    run("d2h_pinned_into/cupy",
        lambda b: ((lambda d=device_random(b), h=pinned_out(b): d.get(out=h)), ""), ALL,
        ceiling=d2h_c)

    # ---- device copies (read + written bytes), .copy() is C order as cunp's -------------------
    two = lambda b: 2 * b  # noqa: E731
    dev = dict(nbytes=two, ceiling=copy_c, hide_launch=True)
    run("copy/cupy", lambda b: ((lambda a=device_random(b): a.copy()), ""), ALL, **dev)
    run("copy_cold/cupy", lambda b: ((lambda a=device_random(b): a.copy()), ""), COLD, cold=True,
        **dev)
    run("copy_reversed/cupy", lambda b: ((lambda a=device_random(b)[::-1]: a.copy()), ""), ALL,
        **dev)
    run("copy_reversed_cold/cupy", lambda b: ((lambda a=device_random(b)[::-1]: a.copy()), ""),
        COLD, cold=True, **dev)

    def transpose(b):
        rows, cols = matrix_of(b)
        a = device_random(b).reshape(rows, cols)
        return (lambda: a.T.copy()), f"{rows}x{cols}.T"
    run("transpose_copy/cupy", transpose, ALL, **dev)

    # ---- allocation and small arrays: host time per call --------------------------------------
    run("alloc/cupy", lambda b: ((lambda: cp.empty(b // 4, dtype=cp.float32)), ""), ALLOC,
        kind="host")
    run("zeros_small/cupy", lambda n: ((lambda: cp.zeros(n, dtype=cp.float32)), ""), [1000],
        kind="host")
    run("zeros_small/numpy", lambda n: ((lambda: np.zeros(n, dtype=np.float32)), ""), [1000],
        kind="host")

    context = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host_name": platform.node(),
        "executable": "cupy_memory.py",
        "gpu": name,
        "cuda_driver": "%d.%d" % divmod(cp.cuda.runtime.driverGetVersion() // 10, 100),
        "cuda_runtime": "%d.%d" % divmod(cp.cuda.runtime.runtimeGetVersion() // 10, 100),
        "cupy_version": cp.__version__,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "copy_ceiling_GBps": f"{copy_gbps:.4g}",
        "h2d_pinned_ceiling_GBps": f"{h2d_gbps:.4g}",
        "d2h_pinned_ceiling_GBps": f"{d2h_gbps:.4g}",
        "timing": "CUDA events on the current stream around each call after 3 untimed calls "
                  "(device-only ops: launch hidden behind a hold kernel); median; min_time "
                  f"{args.min_time} s (host-time rows: perf_counter per call)",
    }
    with open(args.out, "w") as f:
        json.dump({"context": context, "benchmarks": results}, f, indent=1)
    print(f"wrote {args.out} ({len(results)} benchmarks)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
