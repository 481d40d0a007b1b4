#!/usr/bin/env python3
"""CuPy's side of bench/bench_elementwise.cpp: the same element-wise operations on the same dtypes
and sizes, timed the same way (cupy_bench.py: CUDA events on the current stream, launch hidden
behind a hold kernel, median), written as Google-Benchmark-shaped JSON with names
<op>/cupy/<dtype>/<elements> (and fused_mul_add_sin/cupy_fuse/... for the @cupy.fuse version), so
that bench/merge_results.py joins them with bench_elementwise's JSON by name.

Each call materialises a fresh output (from CuPy's memory pool), as `ndarray<T> c = a + b;` does
in cunp. bytes = the fewest bytes the op must move, the C++ suite's formula: each input element
read once, each output element written once (outer_add, add_outer: m + n/m + n elements;
strided_add: 3n),
set against the copy ceiling measured in this run. Each op's result is checked against NumPy at
the smallest size before it is timed. add_host is the host time per call of a + b at n = 1000.

usage: python3 bench/cupy/cupy_elementwise.py [--out cupy_elementwise.json] [--filter REGEX]
                                               [--min-time SECONDS]
"""
import sys

from cupy_bench import Bench, arg_parser

SIZES = [1 << 20, 1 << 24, 1 << 28]  # elements (bench_elementwise's sizes)
DTYPES = ("float32", "float64")
CHECKED = 1 << 20  # sizes up to this one are checked against NumPy before they are timed
TOLERANCE = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-14)}  # rtol, atol of the check


def outer_side(n):
    """m of outer_add: the smallest power of two with m * m >= n (a of m, b of n / m)."""
    m = 1
    while m * m < n:
        m *= 2
    return m


def expressions(xp):
    """The timed expressions, written once for CuPy (xp = cupy) and for NumPy (the check)."""
    return {
        "add": lambda a, b: a + b,
        "multiply": lambda a, b: a * b,
        "sin": lambda a: xp.sin(a),
        "fused_mul_add_sin": lambda a, b, c: a * b + xp.sin(c),
        "where": lambda a, b: xp.where(a > 0, a, b),
        "outer_add": lambda a, b: a + b,  # a[:, None] + b[None, :], views made once
        "strided_add": lambda a, b: a + b,  # a[::2] + b, the view made once
        "add_outer": lambda a, b: xp.add.outer(a, b),  # outer_add's shapes, 1-d operands
        "logaddexp": lambda a, b: xp.logaddexp(a, b),
    }


def summary(results, file):
    """The GPU rows as a table: op/impl/dtype by size, median µs and fraction of the copy
    ceiling."""
    rows = {}
    for e in results:
        head, n = e["name"].rsplit("/", 1)
        if "frac_copy" in e:
            rows.setdefault(head, {})[int(n)] = e
    if not rows:
        return
    width = max(len(h) for h in rows)
    print(f"\n{'':{width}s}" + "".join(f"{f'2^{n.bit_length() - 1} µs':>14s}{'frac':>7s}"
                                       for n in SIZES), file=file)
    for head, by_n in rows.items():
        cells = [f"{by_n[n]['median_us']:14.1f}{by_n[n]['frac_copy']:7.2f}" if n in by_n
                 else f"{'-':>14s}{'-':>7s}" for n in SIZES]
        print(f"{head:{width}s}" + "".join(cells), file=file)


def main(argv):
    args = arg_parser(__doc__, "cupy_elementwise.json", "bench_elementwise").parse_args(argv[1:])

    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_elementwise.py")
    bench.measure_ceilings("copy")
    gpu, host = expressions(cp), expressions(np)
    mul_add_sin_fused = cp.fuse(kernel_name="mul_add_sin")(gpu["fused_mul_add_sin"])

    # Random inputs in [-1, 1) per (dtype, elements, slot), kept for the run (slot s: seed
    # 1000 + s, as bench_elementwise's input()): never zeros, which run faster.
    cache = {}

    def random(dtype, n, slot):
        if (dtype, n, slot) not in cache:
            rs = cp.random.RandomState(1000 + slot)
            cache[(dtype, n, slot)] = rs.random_sample((n,), dtype=dtype) * 2 - 1
        return cache[(dtype, n, slot)]

    def flat(count):  # `count` contiguous inputs of n elements
        return lambda dt, n: ([random(dt, n, slot) for slot in range(count)], "")

    def outer(dt, n):
        m = outer_side(n)
        return [random(dt, m, 0)[:, None], random(dt, n // m, 1)[None, :]], f"{m}x{n // m}"

    def outer_1d(dt, n):
        m = outer_side(n)
        return [random(dt, m, 0), random(dt, n // m, 1)], f"{m}x{n // m}"

    def strided(dt, n):  # a: every other element of a buffer of 2n
        return [random(dt, 2 * n, 2)[::2], random(dt, n, 1)], ""

    # (op, impl, inputs(dtype, n) -> (arrays, label), the CuPy call, elements moved per call)
    ops = [
        ("add", "cupy", flat(2), gpu["add"], lambda n: 3 * n),
        ("multiply", "cupy", flat(2), gpu["multiply"], lambda n: 3 * n),
        ("sin", "cupy", flat(1), gpu["sin"], lambda n: 2 * n),
        ("fused_mul_add_sin", "cupy", flat(3), gpu["fused_mul_add_sin"], lambda n: 4 * n),
        ("fused_mul_add_sin", "cupy_fuse", flat(3), mul_add_sin_fused, lambda n: 4 * n),
        ("where", "cupy", flat(2), gpu["where"], lambda n: 3 * n),
        ("outer_add", "cupy", outer, gpu["outer_add"],
         lambda n: outer_side(n) + n // outer_side(n) + n),
        ("strided_add", "cupy", strided, gpu["strided_add"], lambda n: 3 * n),
        ("add_outer", "cupy", outer_1d, gpu["add_outer"],
         lambda n: outer_side(n) + n // outer_side(n) + n),
        ("logaddexp", "cupy", flat(2), gpu["logaddexp"], lambda n: 3 * n),
    ]

    def check(name, dt, call, arrays):
        """CuPy's result against NumPy's, its output poisoned with NaN first (a pool block freed
        by an earlier op could otherwise hold the right answer already)."""
        want = host[name.split("/")[0]](*[a.get() for a in arrays])
        cp.full(want.size, cp.nan, dtype=dt)
        got = call(*arrays).get()
        rtol, atol = TOLERANCE[dt]
        if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol):
            sys.exit(f"{name}: CuPy's result differs from NumPy's; nothing timed")

    def elementwise(dt, name, inputs, call, elements):
        itemsize = np.dtype(dt).itemsize

        def make(n):
            arrays, label = inputs(dt, n)
            if n <= CHECKED:
                check(f"{name}/{n}", dt, call, arrays)
            return (lambda: call(*arrays)), label
        bench.run(name, make, SIZES, nbytes=lambda n: elements(n) * itemsize, ceiling="copy",
                  hide_launch=True)

    def add_host(dt):  # host time per call, after 10 untimed calls as the C++ does
        bench.run(f"add_host/cupy/{dt}",
                  lambda n: ((lambda a=random(dt, n, 0), b=random(dt, n, 1): a + b), ""), [1000],
                  kind="host", warmup=10)

    for dt in DTYPES:
        for op, impl, inputs, call, elements in ops:
            elementwise(dt, f"{op}/{impl}/{dt}", inputs, call, elements)
        add_host(dt)

    def floor_divide_int32(n):  # as bench_elementwise: a in +-2e9, b in +-1000 without zeros
        a = (random("float64", n, 0) * 2e9).astype(cp.int32)
        b = (random("float64", n, 1) * 1000).astype(cp.int32)
        b = cp.where(b == 0, 7, b).astype(cp.int32)
        if n <= CHECKED and not (cp.floor_divide(a, b).get() == np.floor_divide(a.get(), b.get())).all():
            sys.exit("floor_divide: CuPy's result differs from NumPy's; nothing timed")
        return (lambda: cp.floor_divide(a, b)), ""
    bench.run("floor_divide/cupy/int32", floor_divide_int32, SIZES, nbytes=lambda n: 3 * n * 4,
              ceiling="copy", hide_launch=True)

    summary(bench.results, sys.stderr)
    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
