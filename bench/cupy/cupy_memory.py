#!/usr/bin/env python3
"""CuPy's side of bench/bench_memory.cpp: the same operations on the same sizes, timed the same
way (CUDA events on the current stream around each call, 3 untimed warm-up calls, repeats until
50 ms of GPU time and at least 20 repeats, median; device-only ops behind a hold kernel so that
Python's launch latency stays out of the GPU time and goes to host_us), written as
Google-Benchmark-shaped JSON with names <op>/cupy/<arg> (and <op>/numpy/<arg> for the host
baseline), or gemm/cupy/<dtype>/<n> for cp.matmul of n x n matrices, so that
bench/merge_results.py joins them with bench_memory's JSON by name. The timing, the ceilings and
the JSON come from cupy_bench.py.

usage: python3 bench/cupy/cupy_memory.py [--out cupy_memory.json] [--filter REGEX]
                                          [--min-time SECONDS]
"""
import os
import sys

from cupy_bench import KIB, MIB, Bench, arg_parser

ALL = [4 * KIB * 8**i for i in range(7)]  # 4 KiB, 32 KiB, ..., 1 GiB (bench_memory's sizes)
COLD = [b for b in ALL if b <= 128 * MIB]  # where the 60 MB L2 can hold the data
ALLOC = [4 * KIB * 64**i for i in range(4)]  # 4 KiB, 256 KiB, 16 MiB, 1 GiB
GEMM = [4096, 8192]  # n of the n x n gemm rows (8192: bench_util.hpp's gemm ceiling)


def main(argv):
    args = arg_parser(__doc__, "cupy_memory.json", "bench_memory").parse_args(argv[1:])

    # float32 matmul in FP32, as NumPy computes it and as bench_memory's cuBLAS rows (default math):
    # CuPy reads CUPY_TF32 at its first matmul, and TF32 tensor cores would time another thing.
    os.environ["CUPY_TF32"] = "0"
    import numpy as np
    import cupy as cp
    import cupyx

    bench = Bench(args, "cupy_memory.py")
    bench.measure_ceilings("copy", "h2d_pinned", "d2h_pinned")
    run = bench.run

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

    def matrix_of(b):
        k = (b // 4).bit_length() - 1
        return 1 << ((k + 1) // 2), 1 << (k // 2)

    # ---- host <-> device -----------------------------------------------------------------------
    run("h2d_pageable/cupy", lambda b: ((lambda h=host_random(b): cp.asarray(h)), ""), ALL,
        ceiling="h2d_pinned")
    run("h2d_pinned/cupy", lambda b: ((lambda h=pinned_random(b): cp.asarray(h)), ""), ALL,
        ceiling="h2d_pinned")
    run("d2h_pageable/cupy", lambda b: ((lambda d=device_random(b): d.get()), ""), ALL,
        ceiling="d2h_pinned")
    run("d2h_pageable_into/cupy",
        lambda b: ((lambda d=device_random(b), h=host_out(b): d.get(out=h)), ""), ALL,
        ceiling="d2h_pinned")
    run("d2h_pinned_into/cupy",
        lambda b: ((lambda d=device_random(b), h=pinned_out(b): d.get(out=h)), ""), ALL,
        ceiling="d2h_pinned")

    # ---- device copies (read + written bytes), .copy() is C order as cunp's -------------------
    two = lambda b: 2 * b  # noqa: E731
    dev = dict(nbytes=two, ceiling="copy", hide_launch=True)
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

    # ---- gemm: cp.matmul of random n x n matrices, 2 n^3 flops ---------------------------------
    def gemm(dtype):
        name = f"gemm/cupy/{np.dtype(dtype).name}"
        for n in GEMM:
            if not bench.keep.search(f"{name}/{n}"):
                continue
            a, b = (cp.asarray(np.random.default_rng(seed).random((n, n), dtype=dtype) * 2 - 1)
                    for seed in (1, 2))
            ms, host = bench.gpu_times(lambda: cp.matmul(a, b), hide_launch=True)
            bench.record(f"{name}/{n}", ms, host, label=f"{n}x{n} @ {n}x{n}")
            # A FLOP row (bench_util.hpp's gpu_loop with flops); no frac_gemm: the gemm ceiling is
            # measured by the C++ suites (cp.matmul of 2-d arrays calls cuBLAS as well).
            e = bench.results[-1]
            e["flops"] = 2.0 * n**3
            e["TFLOP/s"] = e["flops"] / 1e12 / (e["median_us"] * 1e-6)
            print(f"{'':45s} {e['TFLOP/s']:12.1f} TFLOP/s", file=sys.stderr, flush=True)
    gemm(np.float32)
    gemm(np.float64)

    # ---- allocation and small arrays: host time per call --------------------------------------
    run("alloc/cupy", lambda b: ((lambda: cp.empty(b // 4, dtype=cp.float32)), ""), ALLOC,
        kind="host")
    run("zeros_small/cupy", lambda n: ((lambda: cp.zeros(n, dtype=cp.float32)), ""), [1000],
        kind="host")
    run("zeros_small/numpy", lambda n: ((lambda: np.zeros(n, dtype=np.float32)), ""), [1000],
        kind="host")

    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
