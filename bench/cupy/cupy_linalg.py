#!/usr/bin/env python3
"""CuPy's and PyTorch's side of bench/bench_linalg.cpp: matmul of the same shapes and dtypes, timed
the same way (CUDA events on the current stream around each call, 3 untimed warm-up calls, repeats
until --min-time seconds of GPU time and at least 20 repeats, median, launch hidden behind a hold
kernel), written as Google-Benchmark-shaped JSON with names <op>/cupy/<dtype>/<n> (cp.matmul) and
<op>/torch/<dtype>/<n> (torch.matmul, when PyTorch is installed; timed with torch.cuda.Event on
torch's current stream, the hold kernel queued on that stream), so that bench/merge_results.py
joins them with bench_linalg's JSON by name.

Rows: matmul/<impl>/<dtype>/<n> (n x n @ n x n, n = 1024, 4096, 8192; float32 also 64, 128 and
256, float64 also 64 and 128) and
matmul_batch512/<impl>/<dtype>/256 (512 matrices of 256 x 256 @ 256 x 256) in float16, bfloat16,
float32, float64 and complex64; matmul_tf32/<impl>/float32/8192; matmul_host/<impl>/float32/64
(host time per call of a 64 x 64 matmul); matmul_cpu/numpy/float32/4096 (np.matmul, host time per
call: the cpu backend's peer); decomp_<op>/cupy/<dtype>/<n> (cupy.linalg's cholesky, qr, eigh,
svd(full_matrices=False) and det of one float32 or float64 matrix, GPU time, launch not
hidden; svd at 4096 takes CuPy 2.4 s a call: --filter it out where time is short;
decomp_<op>/torch/<dtype>/<n>: torch.linalg's, launch hidden);
decomp_<op>_batch4096/<impl>/float32/<n> (the same of a stack of 4096 n x n matrices, cholesky at
32 and 64, eigh and svd at 32, CuPy and PyTorch: both take cuSOLVER's batched routines there;
PyTorch's launch hidden, CuPy's not); solve_batch4096 and inv_batch4096/<impl>/float32/32
(solve with one right-hand side each and inv of 4096 diagonally dominant 32 x 32 matrices).
Each result is a fresh array, as a matmul returns.
Flops: 2 n^3 (real) or 8 n^3 (complex) times the batch; the tf32 row counts the float32
product's 2 n^3. There is no frac_gemm: the gemm ceiling is measured by the C++ suite. The
JSON context lists the libcublas files this process loaded and CuPy's cuBLAS version
(bench_linalg's has cublas_version): another cuBLAS build can pick other kernels. A full run
takes about a minute on an H200 (every row at least 20 repeats: the complex64 8192 rows about
1.6 s each).

Precision, as the C++ rows (cuBLAS's default math, float32 in FP32):
- CuPy: CUPY_TF32=0 (set here before CuPy is imported) keeps float32 and complex64 off TF32;
  the tf32 row switches float32 to TF32 through CuPy's own compute-type setting
  (cupy._core._routines_linalg.set_compute_type, not a public API: the row is skipped with a
  message where it is missing). CuPy has no bfloat16 dtype, so bfloat16 rows are PyTorch's only.
  CuPy's batched float16 matmul (ndim > 2) casts to float32, multiplies in float32 and casts back.
- PyTorch: torch.backends.cuda.matmul.allow_tf32 = False for the float32 and complex64 rows
  (True for matmul_tf32 only); allow_fp16_reduced_precision_reduction and
  allow_bf16_reduced_precision_reduction are left at their defaults (True: cuBLAS may reduce
  split-k partial sums in half precision), and their values are written to the JSON context.
- No row here has a bf16x3 peer: neither library computes float32 as three bfloat16 products
  (PyTorch's "high" matmul precision runs TF32 on CUDA).

usage: python3 bench/cupy/cupy_linalg.py [--out cupy_linalg.json] [--filter REGEX]
                                          [--min-time SECONDS]
"""
import os
import statistics
import sys
import time

from cupy_bench import Bench, arg_parser, hold_for

SIDES = [1024, 4096, 8192]  # the square rows
SMALL_SIDES = {"float32": [64, 128, 256], "float64": [64, 128]}  # and the launch-bound end
BATCH, BATCH_SIDE = 512, 256  # matmul_batch512: 512 x 256x256 @ 256x256
STACK = 4096  # decomp_<op>_batch4096: stacks of small matrices
DTYPES = ["float16", "bfloat16", "float32", "float64", "complex64"]


def label(batch, n):
    side = f"{n}x{n}"
    return (f"{batch} x " if batch > 1 else "") + f"{side} @ {side}"


def flops(dtype, batch, n):
    return (8.0 if dtype.startswith("complex") else 2.0) * n**3 * batch


class TorchTimer:
    """bench's GPU and host timing for PyTorch: torch.cuda.Event pairs on torch's current
    stream, the hold kernel of cupy_bench.py queued on that same stream (through CuPy's view of
    it), the stream drained every 64 calls in the host-time loop."""

    def __init__(self, bench, torch):
        self.bench, self.torch = bench, torch
        cp = bench.cp
        ptr = torch.cuda.current_stream().cuda_stream
        # 0 is the legacy default stream, torch's default: CuPy's null stream is the same one.
        self.cp_stream = cp.cuda.Stream.null if ptr == 0 else cp.cuda.ExternalStream(ptr)

    def stream(self):
        return self.torch.cuda.current_stream()

    def hold(self, us):
        with self.cp_stream:
            self.bench._hold((1,), (1,), (self.bench.np.uint64(us * 1e3),))

    def gpu_times(self, fn, warmup=3, min_repeats=20, max_repeats=100000):
        """As Bench.gpu_times with hide_launch: the launch kept out of the GPU time."""
        torch = self.torch
        warm = []
        for _ in range(warmup):
            t0 = time.perf_counter()
            fn()
            warm.append((time.perf_counter() - t0) * 1e6)
            self.stream().synchronize()
        hold_us = hold_for(statistics.median(warm))
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        ms, host, total = [], [], 0.0
        min_time = self.bench.min_time
        while len(ms) < max_repeats and (len(ms) < min_repeats or total < min_time):
            self.hold(hold_us)
            t0 = time.perf_counter()
            start.record(self.stream())
            fn()
            t1 = time.perf_counter()
            stop.record(self.stream())
            stop.synchronize()
            t = start.elapsed_time(stop)
            ms.append(t)
            host.append((t1 - t0) * 1e3)
            if (t1 - t0) * 1e6 > 0.8 * hold_us:
                hold_us = hold_for((t1 - t0) * 1e6)
            total += t * 1e-3
        return ms, host

    def host_times(self, fn, warmup=3, min_repeats=20, batch=64):
        """As Bench.host_times: host milliseconds per call, the queue drained every `batch`."""
        for _ in range(warmup):
            fn()
        self.stream().synchronize()
        ms, begin = [], time.perf_counter()
        while len(ms) < min_repeats or time.perf_counter() - begin < self.bench.min_time:
            t0 = time.perf_counter()
            fn()
            ms.append((time.perf_counter() - t0) * 1e3)
            if len(ms) % batch == 0:
                self.stream().synchronize()
        self.stream().synchronize()
        return ms


def decomposition(xp, op, a):
    """A call of numpy.linalg's op ("cholesky", "qr", "eigh", "svd" (reduced) or "det") on a, in
    CuPy or PyTorch (xp: the module; both name them alike, qr reduced by default)."""
    if op == "svd":
        return lambda: xp.linalg.svd(a, full_matrices=False)
    f = getattr(xp.linalg, op)
    return lambda: f(a)


def loaded_cublas():
    """The libcublas files this process has mapped (CuPy and PyTorch may bring their own build,
    which can pick other kernels than the cuBLAS bench_linalg links: its JSON has
    cublas_version)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "libcublas" in line}
    except OSError:
        return "unknown"
    return ", ".join(sorted(paths)) or "none"


def main(argv):
    args = arg_parser(__doc__, "cupy_linalg.json", "bench_linalg").parse_args(argv[1:])

    # float32 (and complex64) matmul in FP32, as NumPy computes it and as bench_linalg's cuBLAS
    # rows (default math): CuPy reads CUPY_TF32 at its first matmul of each dtype.
    os.environ["CUPY_TF32"] = "0"
    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_linalg.py")
    try:
        import torch
    except ImportError:
        torch = None
        print("PyTorch not found: the torch rows are skipped (python3 -m pip install torch)",
              file=sys.stderr)
    timer = None
    extra = {"cupy_tf32_env": os.environ["CUPY_TF32"]}
    if torch is not None:
        if not torch.cuda.is_available():
            print("PyTorch has no CUDA device: the torch rows are skipped", file=sys.stderr)
            torch = None
        else:
            timer = TorchTimer(bench, torch)
            m = torch.backends.cuda.matmul
            m.allow_tf32 = False
            extra.update({
                "torch_version": torch.__version__,
                "torch_cuda": str(torch.version.cuda),
                "torch_allow_tf32": "False (True for matmul_tf32 only)",
                "torch_allow_fp16_reduced_precision_reduction":
                    str(m.allow_fp16_reduced_precision_reduction) + " (default)",
                "torch_allow_bf16_reduced_precision_reduction":
                    str(m.allow_bf16_reduced_precision_reduction) + " (default)",
            })
    base_context = bench.context
    bench.context = lambda: {**base_context(), **extra}

    def wanted(*names):
        return any(bench.keep.search(n) for n in names)

    def record_flops(name, ms, host, nflops, lab):
        """A FLOP row (bench_util.hpp's gpu_loop with flops): flops and TFLOP/s added."""
        bench.record(name, ms, host, label=lab)
        e = bench.results[-1]
        e["flops"] = nflops
        e["TFLOP/s"] = nflops / 1e12 / (e["median_us"] * 1e-6)
        print(f"{'':45s} {e['TFLOP/s']:12.1f} TFLOP/s", file=sys.stderr, flush=True)

    def host_operands(dtype, batch, n):
        """Two random operands in [-1, 1) (complex: both parts) as NumPy arrays; bfloat16 as
        float32, converted on the GPU by torch."""
        shape = (batch, n, n) if batch > 1 else (n, n)
        rng = np.random.default_rng(42)
        base = np.float32 if dtype == "bfloat16" else np.dtype(dtype)

        def one():
            a = rng.uniform(-1, 1, shape)
            if np.dtype(base).kind == "c":
                a = a + 1j * rng.uniform(-1, 1, shape)
            return a.astype(base)
        return one(), one()

    def gpu_rows(op, dtype, batch, n):
        """op/cupy/dtype/n and op/torch/dtype/n on the same operands."""
        cupy_name, torch_name = f"{op}/cupy/{dtype}/{n}", f"{op}/torch/{dtype}/{n}"
        do_cupy = dtype != "bfloat16" and wanted(cupy_name)
        do_torch = torch is not None and wanted(torch_name)
        if not (do_cupy or do_torch):
            return
        ha, hb = host_operands(dtype, batch, n)
        nflops, lab = flops(dtype, batch, n), label(batch, n)
        if do_cupy:
            a, b = cp.asarray(ha), cp.asarray(hb)
            ms, host = bench.gpu_times(lambda: cp.matmul(a, b), hide_launch=True)
            record_flops(cupy_name, ms, host, nflops, lab)
            del a, b
            cp.get_default_memory_pool().free_all_blocks()
        if do_torch:
            tdtype = getattr(torch, dtype)
            a = torch.as_tensor(ha, device="cuda").to(tdtype)
            b = torch.as_tensor(hb, device="cuda").to(tdtype)
            ms, host = timer.gpu_times(lambda: torch.matmul(a, b))
            record_flops(torch_name, ms, host, nflops, lab)
            del a, b
            torch.cuda.empty_cache()

    # ---- GPU time: square products and the batch ------------------------------------------
    for dtype in DTYPES:
        for n in SMALL_SIDES.get(dtype, []) + SIDES:
            gpu_rows("matmul", dtype, 1, n)
        gpu_rows(f"matmul_batch{BATCH}", dtype, BATCH, BATCH_SIDE)

    # ---- float32 8192 on TF32 tensor cores ----------------------------------------------------
    n = 8192
    if wanted(f"matmul_tf32/cupy/float32/{n}"):
        try:
            from cupy._core import _routines_linalg as rl
            set_compute_type = rl.set_compute_type
        except (ImportError, AttributeError):
            set_compute_type = None
            print("matmul_tf32/cupy skipped: this CuPy has no "
                  "cupy._core._routines_linalg.set_compute_type", file=sys.stderr)
        if set_compute_type is not None:
            # _routines_linalg's compute_type_str: 1 COMPUTE_TYPE_DEFAULT, 7 COMPUTE_TYPE_TF32.
            tf32 = getattr(rl, "COMPUTE_TYPE_TF32", 7)
            default = getattr(rl, "COMPUTE_TYPE_DEFAULT", 1)
            ha, hb = host_operands("float32", 1, n)
            a, b = cp.asarray(ha), cp.asarray(hb)
            set_compute_type(np.float32, tf32)
            try:
                ms, host = bench.gpu_times(lambda: cp.matmul(a, b), hide_launch=True)
            finally:
                set_compute_type(np.float32, default)
            record_flops(f"matmul_tf32/cupy/float32/{n}", ms, host, flops("float32", 1, n),
                         label(1, n))
            del a, b
            cp.get_default_memory_pool().free_all_blocks()
    if torch is not None and wanted(f"matmul_tf32/torch/float32/{n}"):
        ha, hb = host_operands("float32", 1, n)
        a, b = torch.as_tensor(ha, device="cuda"), torch.as_tensor(hb, device="cuda")
        torch.backends.cuda.matmul.allow_tf32 = True
        try:
            ms, host = timer.gpu_times(lambda: torch.matmul(a, b))
        finally:
            torch.backends.cuda.matmul.allow_tf32 = False
        record_flops(f"matmul_tf32/torch/float32/{n}", ms, host, flops("float32", 1, n),
                     label(1, n))
        del a, b
        torch.cuda.empty_cache()

    # ---- numpy.linalg's decompositions (launch not hidden: cuSOLVER's calls may wait) ---------
    for op, sides in (("cholesky", (1024, 4096)), ("qr", (1024, 4096)), ("eigh", (1024, 2048)),
                      ("svd", (1024, 4096)), ("det", (1024, 4096))):
        for n in sides:
            for dtype in ("float32", "float64"):
                name = f"decomp_{op}/cupy/{dtype}/{n}"
                if not wanted(name, f"decomp_{op}/torch/{dtype}/{n}"):
                    continue
                ha, _ = host_operands(dtype, 1, n)
                a = cp.asarray(ha)
                if op in ("cholesky", "eigh"):  # symmetric positive definite, as bench_linalg's
                    a = a @ a.T / n + cp.eye(n, dtype=a.dtype)
                if wanted(name):
                    ms, host = bench.gpu_times(decomposition(cp, op, a))
                    bench.record(name, ms, host, label=f"{n}x{n}")
                tname = f"decomp_{op}/torch/{dtype}/{n}"
                if torch is not None and wanted(tname):  # the peer for cholesky and svd
                    t = torch.as_tensor(cp.asnumpy(a), device="cuda")
                    ms, host = timer.gpu_times(decomposition(torch, op, t))
                    bench.record(tname, ms, host, label=f"{n}x{n}")
                    del t
                    torch.cuda.empty_cache()
                del a
                cp.get_default_memory_pool().free_all_blocks()

    # ---- solve (one right-hand side each) and inv of 4096 diagonally dominant 32 x 32 float32 ----
    for op in ("solve", "inv"):
        for impl in ("cupy", "torch"):
            name = f"{op}_batch{STACK}/{impl}/float32/32"
            if not wanted(name) or (impl == "torch" and torch is None):
                continue
            ha, _ = host_operands("float32", STACK, 32)
            ha = ha + 32 * np.eye(32, dtype=ha.dtype)
            xp = cp if impl == "cupy" else torch
            a = cp.asarray(ha) if impl == "cupy" else torch.as_tensor(ha, device="cuda")
            b = xp.ones((STACK, 32, 1), dtype=xp.float32)
            if impl == "torch":
                b = b.to("cuda")
            f = (lambda: xp.linalg.solve(a, b)) if op == "solve" else (lambda: xp.linalg.inv(a))
            ms, host = (bench if impl == "cupy" else timer).gpu_times(f)
            bench.record(name, ms, host, label=f"{STACK} x 32x32")

    # ---- stacks of 4096 small float32 matrices (cuSOLVER's batched routes in both libraries) ---
    for op, n in (("cholesky", 32), ("cholesky", 64), ("eigh", 32), ("svd", 32)):
        for impl in ("cupy", "torch"):
            name = f"decomp_{op}_batch{STACK}/{impl}/float32/{n}"
            if not wanted(name) or (impl == "torch" and torch is None):
                continue
            ha, _ = host_operands("float32", STACK, n)
            xp = cp if impl == "cupy" else torch
            a = cp.asarray(ha) if impl == "cupy" else torch.as_tensor(ha, device="cuda")
            if op in ("cholesky", "eigh"):  # symmetric positive definite, as bench_linalg's
                eye = (cp.eye(n, dtype=a.dtype) if impl == "cupy"
                       else torch.eye(n, dtype=a.dtype, device=a.device))
                a = a @ a.swapaxes(-1, -2) / n + eye
            ms, host = (bench if impl == "cupy" else timer).gpu_times(decomposition(xp, op, a))
            bench.record(name, ms, host, label=f"{STACK} x {n}x{n}")
            del a
            cp.get_default_memory_pool().free_all_blocks()

    # ---- host time per call of an n x n float32 matmul, n = 64, 128, 256 ---------------------
    def host_product(n):
        ha, hb = host_operands("float32", 1, n)
        a, b = cp.asarray(ha), cp.asarray(hb)
        return (lambda: cp.matmul(a, b)), ""

    bench.run("matmul_host/cupy/float32", host_product, [64, 128, 256], kind="host")
    ha, hb = host_operands("float32", 1, 64)
    if torch is not None and wanted("matmul_host/torch/float32/64"):
        ta, tb = torch.as_tensor(ha, device="cuda"), torch.as_tensor(hb, device="cuda")
        bench.record("matmul_host/torch/float32/64",
                     timer.host_times(lambda: torch.matmul(ta, tb)))

    # ---- NumPy, the cpu backend's peer: host time per call ------------------------------------
    n = 4096
    if wanted(f"matmul_cpu/numpy/float32/{n}"):
        ha, hb = host_operands("float32", 1, n)
        bench.run("matmul_cpu/numpy/float32", lambda _: ((lambda: np.matmul(ha, hb)), label(1, n)),
                  [n], kind="host", warmup=1)
        e = bench.results[-1]
        e["flops"] = flops("float32", 1, n)
        e["TFLOP/s"] = e["flops"] / 1e12 / (e["median_us"] * 1e-6)
    extra["cublas_libraries"] = loaded_cublas()
    try:  # cuBLAS's own number, e.g. 130200 for 13.2.0
        from cupy_backends.cuda.libs import cublas
        extra["cupy_cublas_version"] = str(cublas.getVersion(cp.cuda.device.get_cublas_handle()))
    except Exception as err:  # noqa: BLE001 (a diagnostic only)
        extra["cupy_cublas_version"] = f"unknown ({err})"
    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
