#!/usr/bin/env python3
"""CuPy's and PyTorch's side of bench/bench_random.cpp: the same fills of the same sizes, timed
the same way (CUDA events on the current stream, 3 untimed warm-up calls, repeats until 50 ms of
GPU time and at least 20 repeats, median, launch hidden behind a hold kernel), written as
Google-Benchmark-shaped JSON with names <op>/cupy/<dtype>/<n> (cupy.random's legacy functions,
cuRAND's XORWOW), <op>/cupy_rng/... (cupy.random.default_rng) and <op>/torch/... (PyTorch, when
it is installed), so that bench/merge_results.py joins them with bench_random's JSON by name.
Bytes are the bytes written.

usage: python3 bench/cupy/cupy_random.py [--out cupy_random.json] [--filter REGEX]
                                          [--min-time SECONDS]
"""
import sys

from cupy_bench import Bench, arg_parser


def main(argv):
    args = arg_parser(__doc__, "cupy_random.json", "bench_random").parse_args(argv[1:])
    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_random.py")
    bench.measure_ceilings("copy")
    n = 1 << 28

    def run(name, fn, itemsize):
        bench.run(name, lambda _: (fn, ""), [n], nbytes=lambda _: n * itemsize, ceiling="copy",
                  hide_launch=True)

    rng = cp.random.default_rng(42)
    for dtype in (np.float32, np.float64):
        d = np.dtype(dtype)
        run(f"random/cupy/{d.name}", lambda d=d: cp.random.random(n, dtype=d), d.itemsize)
        run(f"random/cupy_rng/{d.name}", lambda d=d: rng.random(n, dtype=d), d.itemsize)
    run("uniform/cupy/float64", lambda: cp.random.uniform(-1.0, 1.0, n), 8)
    for dtype in (np.float32, np.float64):
        d = np.dtype(dtype)
        run(f"standard_normal/cupy/{d.name}", lambda d=d: cp.random.standard_normal(n, dtype=d),
            d.itemsize)
        run(f"standard_normal/cupy_rng/{d.name}",
            lambda d=d: rng.standard_normal(n, dtype=d), d.itemsize)
    run("exponential/cupy/float32",
        lambda: cp.random.standard_exponential(n, dtype=np.float32), 4)
    run("integers/cupy/int64", lambda: cp.random.randint(0, 1000, n, dtype=np.int64), 8)
    run("integers/cupy_rng/int64", lambda: rng.integers(0, 1000, n, dtype=np.int64), 8)
    k = 1 << 26  # the per-element draws: gamma(2.5), beta(2, 3), poisson(3 and 100), binomial

    def run_k(name, fn, itemsize):
        if fn is not None:
            bench.run(name, lambda _: (fn, ""), [k], nbytes=lambda _: k * itemsize,
                      ceiling="copy", hide_launch=True)

    def rng_call(method, *a):
        f = getattr(rng, method, None)
        return f and (lambda: f(*a, size=k))

    run_k("gamma/cupy/float64", lambda: cp.random.gamma(2.5, 1.0, k), 8)
    run_k("gamma/cupy_rng/float64", rng_call("gamma", 2.5, 1.0), 8)
    run_k("beta/cupy/float64", lambda: cp.random.beta(2.0, 3.0, k), 8)
    run_k("beta/cupy_rng/float64", rng_call("beta", 2.0, 3.0), 8)
    for lam in (3, 100):
        run_k(f"poisson_{lam}/cupy/int64", lambda lam=lam: cp.random.poisson(lam, k), 8)
        run_k(f"poisson_{lam}/cupy_rng/int64", rng_call("poisson", float(lam)), 8)
    for trials in (40, 1000):
        run_k(f"binomial_{trials}/cupy/int64", lambda t=trials: cp.random.binomial(t, 0.5, k), 8)
        run_k(f"binomial_{trials}/cupy_rng/int64", rng_call("binomial", trials, 0.5), 8)
    m = 1 << 24  # permutation(m), int64
    for name, fn in (("cupy", lambda: cp.random.permutation(m)),
                     ("cupy_rng", getattr(rng, "permutation", None) and (lambda: rng.permutation(m)))):
        if fn is not None:
            bench.run(f"permutation/{name}/int64", lambda _, fn=fn: (fn, ""), [m],
                      nbytes=lambda _: m * 8, ceiling="copy", hide_launch=True)
    host_rng = np.random.default_rng(42)
    bench.run("random_cpu/numpy/float64", lambda m: ((lambda: host_rng.random(m)), ""), [1 << 26],
              kind="host")
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        for dtype, name in ((torch.float32, "float32"), (torch.float64, "float64")):
            run(f"random/torch/{name}", lambda dtype=dtype: torch.rand(n, dtype=dtype, device="cuda"),
                4 if name == "float32" else 8)
        run("uniform/torch/float64",
            lambda: torch.empty(n, dtype=torch.float64, device="cuda").uniform_(-1.0, 1.0), 8)
        run("integers/torch/int64", lambda: torch.randint(0, 1000, (n,), device="cuda"), 8)
        for dtype, name in ((torch.float32, "float32"), (torch.float64, "float64")):
            run(f"standard_normal/torch/{name}",
                lambda dtype=dtype: torch.randn(n, dtype=dtype, device="cuda"),
                4 if name == "float32" else 8)
        bench.run("permutation/torch/int64",
                  lambda _: ((lambda: torch.randperm(m, device="cuda")), ""), [m],
                  nbytes=lambda _: m * 8, ceiling="copy", hide_launch=True)
        # PyTorch draws gamma and poisson from a tensor of parameters (read once, 8 bytes more
        # an element than cunp's and CuPy's calls).
        alpha = torch.full((k,), 2.5, dtype=torch.float64, device="cuda")
        run_k("gamma/torch/float64", lambda: torch._standard_gamma(alpha), 8)
        for lam in (3, 100):
            rate = torch.full((k,), float(lam), dtype=torch.float64, device="cuda")
            run_k(f"poisson_{lam}/torch/int64", lambda rate=rate: torch.poisson(rate), 8)
        half = torch.full((k,), 0.5, dtype=torch.float64, device="cuda")
        for trials in (40, 1000):
            count = torch.full((k,), float(trials), dtype=torch.float64, device="cuda")
            run_k(f"binomial_{trials}/torch/int64",
                  lambda count=count: torch.binomial(count, half), 8)
        run("exponential/torch/float32",
            lambda: torch.empty(n, dtype=torch.float32, device="cuda").exponential_(), 4)
    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
