#!/usr/bin/env python3
"""CuPy's side of bench/bench_scan.cpp: cumsum of the same dtypes and shapes, timed the same way
(cupy_bench.py: CUDA events on the current stream, launch hidden behind a hold kernel, median),
written as Google-Benchmark-shaped JSON with names <op>/cupy/<dtype>/<elements> (cumsum flattened;
cumsum_axis1 / cumsum_axis0 of a square matrix, its shape in the label), so that
bench/merge_results.py joins them with bench_scan's JSON by name.

Each call materialises a fresh output (from CuPy's memory pool), as `auto c = cunp::cumsum(a);`
does in cunp. bytes = the fewest bytes the op must move, the C++ suite's formula: each input
element read once, each output element written once (2 * elements * itemsize), set against the
copy ceiling measured in this run. Each result is checked against NumPy before it is timed (the
flattened scans on their first 2^20 elements, the axis scans on 64 rows or 64 columns).

usage: python3 bench/cupy/cupy_scan.py [--out cupy_scan.json] [--filter REGEX] [--min-time SECONDS]
"""
import sys

from cupy_bench import Bench, arg_parser

FLAT = [("float32", 1 << 28), ("float64", 1 << 24)]  # bench_scan's flattened sizes
SQUARE = 16384  # the axis scans: a SQUARE x SQUARE float32 matrix
CHECKED = 1 << 20


def main(argv):
    args = arg_parser(__doc__, "cupy_scan.json", "bench_scan").parse_args(argv[1:])

    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_scan.py")
    bench.measure_ceilings("copy")

    def random(dtype, shape):
        """Multiples of 1/64 in [-1, 1]: never zeros (which run faster), and every partial sum
        is exact in float32 whatever order the additions run in, so CuPy's scan must equal
        NumPy's sequential one (with general values a float32 scan of 2^20 terms in another order
        differs from NumPy's by more than any tolerance that would still catch a wrong result).
        A scan's speed does not depend on the values; bench_scan's [-1, 1) inputs time the same."""
        u = cp.random.RandomState(2000).random_sample(shape, dtype=dtype) * 2 - 1
        return cp.round(u * 64) / 64

    def check(name, got, want):
        """got (CuPy) against want (NumPy): exactly equal (see random)."""
        if got.shape != want.shape or not np.array_equal(got, want):
            sys.exit(f"{name}: CuPy's result differs from NumPy's; nothing timed")

    for dt, n in FLAT:
        name = f"cumsum/cupy/{dt}"

        def make(n, dt=dt, name=name):
            a = random(dt, (n,))
            cp.full(n, cp.nan, dtype=dt)  # poison the pool block the output will take
            check(name, cp.cumsum(a)[:CHECKED].get(), np.cumsum(a[:CHECKED].get()))
            return (lambda: cp.cumsum(a)), ""
        bench.run(name, make, [n], nbytes=lambda n, dt=dt: 2 * n * np.dtype(dt).itemsize,
                  ceiling="copy", hide_launch=True)

    for axis in (1, 0):
        name = f"cumsum_axis{axis}/cupy/float32"

        def make(n, axis=axis, name=name):
            a = random("float32", (SQUARE, SQUARE))
            cp.full(n, cp.nan, dtype="float32")
            part = (lambda x: x[:64]) if axis == 1 else (lambda x: x[:, :64])
            check(name, part(cp.cumsum(a, axis=axis)).get(), np.cumsum(part(a).get(), axis=axis))
            return (lambda: cp.cumsum(a, axis=axis)), f"{SQUARE}x{SQUARE}"
        bench.run(name, make, [SQUARE * SQUARE], nbytes=lambda n: 2 * n * 4, ceiling="copy",
                  hide_launch=True)

    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
