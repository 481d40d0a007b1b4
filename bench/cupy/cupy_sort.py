#!/usr/bin/env python3
"""CuPy's side of bench/bench_sort.cpp: sort, argsort, sort along rows, unique and searchsorted
on the same dtypes, sizes and inputs' distributions, timed the same way (cupy_bench.py: CUDA
events on the current stream, median; launches hidden behind a hold kernel except for unique,
which waits for the device), written as Google-Benchmark-shaped JSON with names
<op>/cupy/<dtype>/<elements> so that bench/merge_results.py joins them with bench_sort's JSON.

Each call materialises a fresh output from CuPy's memory pool, as cunp does. bytes = the C++
suite's formula: sort 2n x itemsize; argsort n x (itemsize + 8); unique n x 8; searchsorted the
2^20 values read and their int64 indices written. Inputs: float32 uniform in [-1, 1); int64 over
the full range; unique's int64 in [0, 1000); searchsorted's 2^20 values in a sorted array of
2^26. Each op's result is checked against NumPy at 2^20 elements before it is timed (argsort
against NumPy's stable argsort).

usage: python3 bench/cupy/cupy_sort.py [--out cupy_sort.json] [--filter REGEX] [--min-time S]
"""
import sys

from cupy_bench import Bench, arg_parser

SIZES = [1 << 20, 1 << 26]
CHECKED = 1 << 20
NEEDLES = 1 << 20


def main(argv):
    args = arg_parser(__doc__, "cupy_sort.json", "bench_sort").parse_args(argv[1:])

    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_sort.py")
    bench.measure_ceilings("copy")
    cache = {}

    def data(dtype, n, kind):
        """kind 0: float32 in [-1, 1) or int64 over the full range; 1: int64 in [0, 1000)."""
        if (dtype, n, kind) not in cache:
            rs = cp.random.RandomState(3000 + kind)
            if dtype == "float32":
                a = rs.random_sample((n,), dtype=cp.float32) * 2 - 1
            elif kind == 1:
                a = rs.randint(0, 1000, size=(n,), dtype=cp.int64)
            else:
                info = np.iinfo(np.int64)
                a = rs.randint(info.min, info.max, size=(n,), dtype=cp.int64)
            cache[(dtype, n, kind)] = a
        return cache[(dtype, n, kind)]

    def check(name, got, want):
        if got.shape != want.shape or not np.array_equal(got, want):
            sys.exit(f"{name}: CuPy's result differs from NumPy's; nothing timed")

    def flat(op, dt, call, numpy_call, elements_bytes, kind=0, hide=True):
        def make(n):
            a = data(dt, n, kind)
            if n <= CHECKED:
                check(f"{op}/{dt}/{n}", call(a).get(), numpy_call(a.get()))
            return (lambda: call(a)), ""
        bench.run(f"{op}/cupy/{dt}", make, SIZES, nbytes=elements_bytes, ceiling="copy", hide_launch=hide)

    for dt in ("float32", "int64"):
        item = np.dtype(dt).itemsize
        flat("sort", dt, cp.sort, np.sort, lambda n, i=item: 2 * n * i)
        flat("argsort", dt, cp.argsort, lambda a: np.argsort(a, kind="stable"), lambda n, i=item: n * (i + 8))

    n = SIZES[-1]
    for cols in (1024, 65536):
        def make_rows(n, cols=cols):
            a = data("float32", n, 0).reshape(n // cols, cols)
            check(f"sort_rows{cols}", cp.sort(a[:4]).get(), np.sort(a[:4].get()))
            return (lambda: cp.sort(a)), f"{n // cols}x{cols}"
        bench.run(f"sort_rows{cols}/cupy/float32", make_rows, [n], nbytes=lambda n: 8 * n, ceiling="copy",
                  hide_launch=True)

    flat("unique", "int64", cp.unique, np.unique, lambda n: 8 * n, kind=1, hide=False)

    def make_search(n):
        hay = cp.sort(data("float32", n, 0))
        v = cp.random.RandomState(3002).random_sample((NEEDLES,), dtype=cp.float32) * 2 - 1
        check("searchsorted", cp.searchsorted(hay, v).get(), np.searchsorted(hay.get(), v.get()))
        return (lambda: cp.searchsorted(hay, v)), f"{NEEDLES} in {n}"
    bench.run("searchsorted/cupy/float32", make_search, [n], nbytes=lambda n: NEEDLES * (4 + 8), ceiling="copy",
              hide_launch=True)

    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
