#!/usr/bin/env python3
"""CuPy's side of bench/bench_fft.cpp: the same transforms of the same shapes, timed the same way
(CUDA events on the current stream, 3 untimed warm-up calls, repeats until 50 ms of GPU time and
at least 20 repeats, median, launch hidden behind a hold kernel; CuPy's plan cache warm), written
as Google-Benchmark-shaped JSON with names <op>/cupy/<dtype>/<elements> so that
bench/merge_results.py joins them with bench_fft's JSON by name. Bytes are the input read once
and the output written once. fused/cupy is fft(a * window): a multiply kernel, then the fft.
fft_cpu/numpy rows time NumPy (host time), the cpu backend's peer.

usage: python3 bench/cupy/cupy_fft.py [--out cupy_fft.json] [--filter REGEX] [--min-time SECONDS]
"""
import sys

from cupy_bench import Bench, arg_parser


def main(argv):
    args = arg_parser(__doc__, "cupy_fft.json", "bench_fft").parse_args(argv[1:])
    import numpy as np
    import cupy as cp

    bench = Bench(args, "cupy_fft.py")
    bench.measure_ceilings("copy")
    rng = np.random.default_rng(42)

    def array(shape, dtype):
        a = rng.uniform(-1, 1, shape)
        if np.dtype(dtype).kind == "c":
            a = a + 1j * rng.uniform(-1, 1, shape)
        return cp.asarray(a.astype(dtype))

    def run(name, fn, nbytes):  # name ends in the element count, bench.run's argument
        head, count = name.rsplit("/", 1)
        bench.run(head, lambda _: (fn, ""), [int(count)], nbytes=lambda _: nbytes, ceiling="copy",
                  hide_launch=True)

    n24 = 1 << 24
    c64 = array(n24, np.complex64)
    run("fft/cupy/complex64/16777216", lambda: cp.fft.fft(c64), 16 * n24)
    c128 = array(n24, np.complex128)
    run("fft/cupy/complex128/16777216", lambda: cp.fft.fft(c128), 32 * n24)
    f32 = array(n24, np.float32)
    run("rfft/cupy/float32/16777216", lambda: cp.fft.rfft(f32), 4 * n24 + 8 * (n24 // 2 + 1))
    sq = c64.reshape(4096, 4096)
    run("fft2_4096x4096/cupy/complex64/16777216", lambda: cp.fft.fft2(sq), 16 * n24)
    run("fft_axis-1_4096x4096/cupy/complex64/16777216", lambda: cp.fft.fft(sq, axis=-1), 16 * n24)
    run("fft_axis0_4096x4096/cupy/complex64/16777216", lambda: cp.fft.fft(sq, axis=0), 16 * n24)
    sqr = f32.reshape(4096, 4096)
    run("rfft2_4096x4096/cupy/float32/16777216", lambda: cp.fft.rfft2(sqr),
        4 * n24 + 8 * 4096 * 2049)
    cube = c64.reshape(256, 256, 256)
    run("fftn_256x256x256/cupy/complex64/16777216", lambda: cp.fft.fftn(cube), 16 * n24)
    prime = array(1000003, np.complex64)
    run("fft/cupy/complex64/1000003", lambda: cp.fft.fft(prime), 16 * 1000003)
    window = array(n24, np.float32)
    run("fused/cupy/complex64/16777216", lambda: cp.fft.fft(c64 * window), 20 * n24)
    host = cp.asnumpy(c64)
    bench.run("fft_cpu/numpy/complex64", lambda _: ((lambda: np.fft.fft(host)), ""),
              [n24], kind="host")
    host_sq = host.reshape(4096, 4096)
    bench.run("fft2_cpu_4096x4096/numpy/complex64", lambda _: ((lambda: np.fft.fft2(host_sq)), ""),
              [n24], kind="host")
    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
