#!/usr/bin/env python3
"""CuPy's side of bench/bench_reduce.cpp: the same reductions on the same dtypes and shapes,
timed the same way (cupy_bench.py: CUDA events on the current stream, launch hidden behind a
hold kernel, median), written as Google-Benchmark-shaped JSON with names
<op>/cupy/<dtype>/<elements> (sum_mul/cupy_fuse/... for the @cupy.fuse version of sum(a*b)), so
that bench/merge_results.py joins them with bench_reduce's JSON by name.

Each call makes a fresh result (from CuPy's memory pool). bytes = the fewest bytes the op must
move, the C++ suite's formula: every input element read once, every output element written once;
sum(a*b) is set against 2n elements read whether CuPy makes it in one kernel (cupy_fuse) or two
(cupy: a*b, then the sum). Each op's result is checked against NumPy on the same input before it
is timed. The context records CuPy's reduction accelerators (CUB or CuPy's own kernels).

usage: python3 bench/cupy/cupy_reduce.py [--out cupy_reduce.json] [--filter REGEX]
                                          [--min-time SECONDS]
"""
import sys

from cupy_bench import Bench, arg_parser

FLAT = 1 << 28  # float32 elements of the full reductions (1 GiB)
SIDE = 16384  # the axis reductions' 16384 x 16384 float32 (1 GiB)


def main(argv):
    args = arg_parser(__doc__, "cupy_reduce.json", "bench_reduce").parse_args(argv[1:])

    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_reduce.py")
    bench.measure_ceilings("copy")
    sum_mul_fused = cp.fuse(kernel_name="sum_mul")(lambda a, b: cp.sum(a * b))

    # Random inputs in [-1, 1) per (dtype, shape, slot), kept for the run (slot s: seed 1000 + s,
    # as bench_reduce's input()): never zeros, which run faster.
    cache = {}

    def random(dtype, shape, slot):
        if (dtype, shape, slot) not in cache:
            rs = cp.random.RandomState(1000 + slot)
            cache[(dtype, shape, slot)] = rs.random_sample(shape, dtype=dtype) * 2 - 1
        return cache[(dtype, shape, slot)]

    def check(name, call, arrays, want_fn, rtol, atol):
        """CuPy's result against NumPy's in float64 (a sum's rounding is CuPy's own), its output
        poisoned with NaN first."""
        host = [a.get() for a in arrays]
        want = np.asarray(want_fn(*host))
        cp.full(max(want.size, 1), cp.nan, dtype=cp.float64)
        got = cp.asnumpy(call(*arrays))
        if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol):
            sys.exit(f"{name}: CuPy's result differs from NumPy's; nothing timed")

    def op(name, dtype, shape, slots, call, want_fn, nbytes, rtol=1e-5, atol=0.0, label=""):
        itemsize = np.dtype(dtype).itemsize
        n = int(np.prod(shape))

        def make(_):
            arrays = [random(dtype, shape, s) for s in slots]
            check(name, call, arrays, want_fn, rtol, atol)
            return (lambda: call(*arrays)), label
        bench.run(name, make, [n], nbytes=lambda _: nbytes * itemsize, ceiling="copy",
                  hide_launch=True)

    def sum_atol(dtype, k):  # bench_reduce.cpp's sum_atol: 64 ulps * sqrt(K)
        return 64 * np.finfo(dtype).eps * k ** 0.5

    f32, f64 = "float32", "float64"
    square = f"{SIDE}x{SIDE}"
    f64sum = lambda a: np.sum(a, dtype=np.float64)  # noqa: E731
    op(f"sum/cupy/{f32}", f32, (FLAT,), [0], cp.sum, f64sum, FLAT + 1,
       atol=sum_atol(f32, FLAT))
    op(f"max/cupy/{f32}", f32, (FLAT,), [0], cp.max, np.max, FLAT + 1, rtol=0)
    op(f"argmax/cupy/{f32}", f32, (FLAT,), [0], cp.argmax, np.argmax, FLAT + 2, rtol=0)
    for axis in (0, 1):
        op(f"sum_axis{axis}/cupy/{f32}", f32, (SIDE, SIDE), [1],
           lambda m, axis=axis: cp.sum(m, axis=axis),
           lambda m, axis=axis: np.sum(m, axis=axis, dtype=np.float64), SIDE * SIDE + SIDE,
           atol=sum_atol(f32, SIDE), label=square)
    op(f"var_axis1/cupy/{f32}", f32, (SIDE, SIDE), [1], lambda m: cp.var(m, axis=1),
       lambda m: np.var(m, axis=1, dtype=np.float64), SIDE * SIDE + SIDE, atol=1e-7,
       label=square)
    op(f"sum_mul/cupy/{f32}", f32, (FLAT,), [0, 1], lambda a, b: cp.sum(a * b),
       lambda a, b: np.sum(a.astype(np.float64) * b), 2 * FLAT + 1, atol=sum_atol(f32, FLAT))
    op(f"sum_mul/cupy_fuse/{f32}", f32, (FLAT,), [0, 1], sum_mul_fused,
       lambda a, b: np.sum(a.astype(np.float64) * b), 2 * FLAT + 1, atol=sum_atol(f32, FLAT))
    op(f"sum/cupy/{f64}", f64, (FLAT // 2,), [0], cp.sum, np.sum, FLAT // 2 + 1,
       atol=sum_atol(f64, FLAT // 2))

    # where=: CuPy's sum and max take no where=, so its peers are the same reductions of
    # where(m, a, identity), as written (where materialised) and under @cupy.fuse (one kernel).
    # bytes as bench_reduce's: a (4 bytes), the mask (1 byte) and the result.
    def op_masked(name, shape, slot, call, want_fn, nbytes, rtol, atol, label=""):
        def make(_):
            a, m = random(f32, shape, slot), random(f32, shape, 2) > 0
            check(name, call, [a, m], want_fn, rtol, atol)
            return (lambda: call(a, m)), label
        bench.run(name, make, [int(np.prod(shape))], nbytes=lambda _: nbytes, ceiling="copy",
                  hide_launch=True)

    masked = {
        "sum_where": (lambda xp: lambda a, m: xp.sum(xp.where(m, a, 0)), (FLAT,), 0,
                      5 * FLAT + 4, 1e-5, sum_atol(f32, FLAT), ""),
        "max_where": (lambda xp: lambda a, m: xp.max(xp.where(m, a, -2)), (FLAT,), 0,
                      5 * FLAT + 4, 0, 0, ""),
        "sum_axis1_where": (lambda xp: lambda a, m: xp.sum(xp.where(m, a, 0), axis=1),
                            (SIDE, SIDE), 1, 5 * SIDE * SIDE + 4 * SIDE, 1e-5,
                            sum_atol(f32, SIDE), square),
    }
    for name, (body, shape, slot, nbytes, rtol, atol, label) in masked.items():
        want = body(np)
        op_masked(f"{name}/cupy/{f32}", shape, slot, body(cp), want, nbytes, rtol, atol, label)
        op_masked(f"{name}/cupy_fuse/{f32}", shape, slot,
                  cp.fuse(kernel_name=name)(body(cp)), want, nbytes, rtol, atol, label)

    try:  # which reduction backend CuPy used: CUB, cuTENSOR or its own kernels (none)
        from cupy._core import _accelerator
        accel = ",".join(str(a) for a in _accelerator.get_reduction_accelerators()) or "none"
    except (ImportError, AttributeError):
        accel = "unknown"
    base_context = bench.context
    bench.context = lambda: {**base_context(), "cupy_reduction_accelerators": accel}
    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
