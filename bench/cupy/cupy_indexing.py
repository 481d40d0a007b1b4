#!/usr/bin/env python3
"""CuPy's side of bench/bench_indexing.cpp: the same operations on the same shapes, timed the
same way (CUDA events on the current stream, 3 untimed warm-up calls, repeats until 50 ms of GPU
time and at least 20 repeats, median, launch hidden behind a hold kernel), written as
Google-Benchmark-shaped JSON with names <op>/cupy/<dtype>/<arg>, so that bench/merge_results.py
joins them with bench_indexing's JSON by name. Bytes are counted as bench_indexing counts them.

usage: python3 bench/cupy/cupy_indexing.py [--out cupy_indexing.json] [--filter REGEX]
                                            [--min-time SECONDS]
"""
import sys

from cupy_bench import Bench, arg_parser
from cupy_report import splitmix


def main(argv):
    args = arg_parser(__doc__, "cupy_indexing.json", "bench_indexing").parse_args(argv[1:])
    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_indexing.py")
    bench.measure_ceilings("copy")
    cache = {}

    def kept(what, shape, dtype):
        key = (what, shape, np.dtype(dtype).name)
        if key not in cache:
            rng = np.random.default_rng(42)
            cache[key] = cp.asarray((rng.random(shape) * 2 - 1).astype(dtype))
        return cache[key]

    def run(name, make, arg, nbytes):
        """Times make() -> fn at `name`/arg with nbytes moved."""
        bench.run(name, lambda _: (make(), ""), [arg], nbytes=lambda _: nbytes, ceiling="copy",
                  hide_launch=True)

    # ---- copies of any layout ------------------------------------------------------------------
    for dtype in (np.float32, np.float64, np.float16, np.int8):
        n = 16384
        a = kept("square", (n, n), dtype)
        run(f"transpose/cupy/{np.dtype(dtype).name}", lambda a=a: lambda: cp.ascontiguousarray(a.T),
            n, 2 * a.nbytes)
    cube = kept("cube", (256, 256, 4096), np.float32)
    run("permute/cupy/float32", lambda: lambda: cp.ascontiguousarray(cube.transpose(2, 0, 1)), 0,
        2 * cube.nbytes)
    sq = kept("square", (16384, 16384), np.float32)
    run("flip_axis1/cupy/float32", lambda: lambda: cp.ascontiguousarray(sq[:, ::-1]), 16384,
        2 * sq.nbytes)

    # ---- joining and rolling --------------------------------------------------------------------
    b = kept("square2", (n, n), np.float32)
    for axis in (0, 1):
        run("concatenate/cupy/float32", lambda axis=axis: lambda: cp.concatenate((sq, b), axis),
            axis, 4 * sq.nbytes)
    flat = kept("flat", (1 << 28,), np.float32)
    run("roll/cupy/float32", lambda: lambda: cp.roll(flat, 12345), 1 << 28, 2 * flat.nbytes)

    # ---- selection and integer indexing (bench_indexing's inputs: indices from splitmix64) ----
    m = flat > 0
    selected = int(cp.count_nonzero(m))
    bench.run("mask/cupy/float32", lambda _: (lambda: flat[m], ""), [1 << 28],
              nbytes=lambda _: flat.nbytes + m.nbytes + 4 * selected, ceiling="copy")
    bench.run("nonzero/cupy/bool", lambda _: (lambda: cp.nonzero(m)[0], ""), [1 << 28],
              nbytes=lambda _: m.nbytes + 8 * selected, ceiling="copy")
    idx = (splitmix(cp, 1 << 26, 7) % cp.uint64(1 << 28)).astype(cp.int64)
    run("take/cupy/float32", lambda: lambda: cp.take(flat, idx), 1 << 26,
        idx.nbytes + 2 * 4 * idx.size)
    bins = cp.zeros(1 << 20, cp.float32)
    at = (splitmix(cp, 1 << 26, 7) % cp.uint64(1 << 20)).astype(cp.int64)
    values = kept("values", (1 << 26,), np.float32)
    run("add_at/cupy/float32", lambda: lambda: cp.add.at(bins, at, values), 1 << 26,
        at.nbytes + values.nbytes + 2 * bins.nbytes)

    # ---- padding ------------------------------------------------------------------------------
    p = kept("square", (8192, 8192), np.float32)
    run("pad_reflect/cupy/float32", lambda: lambda: cp.pad(p, 8, mode="reflect"), 8192,
        p.nbytes + (8192 + 16) ** 2 * 4)

    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
