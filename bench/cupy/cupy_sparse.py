#!/usr/bin/env python3
"""CuPy's side of bench/bench_sparse.cpp: the same sparse operations on the same matrices, timed
the same way (CUDA events on the current stream, 3 untimed warm-up calls, repeats until 50 ms of
GPU time and at least 20 repeats, median, launch hidden behind a hold kernel), written as
Google-Benchmark-shaped JSON with names <op>/cupy/<dtype>/<rows> so that bench/merge_results.py
joins them with bench_sparse's JSON by name.

bench_csr builds bench_sparse.cpp's matrix: rows x cols, per_row entries a row, column k
splitmix64(seed + (k + 1) * gamma) % cols, value k from 24 bits of the stream at seed + 1.

- csr_to_csc/cupy/float32/4194304: csr_matrix.tocsc() of a 4M x 4M matrix, 16 entries a row.
- spmv/cupy/float32/4194304: A @ x for that matrix summed once (sum_duplicates, as CuPy's spmv
  does in place on its first call; bench_sparse.cpp sums a copy the same way), x from
  dense_operand. Bytes: the byte floor (A's arrays, x and y once each).
- spmm8/cupy/float32/4194304: A @ X, X 4M x 8 C-ordered (CuPy makes it F-ordered for cuSPARSE
  on each call, as a user's call does); spmm8_colmajor/cupy: X already F-ordered.
- spgemm/cupy/float32/262144: A @ A of a summed 256k x 256k matrix with 16 entries a row (it
  waits for the result's size: launch not hidden).
- add/cupy/float32/4194304: A + B of two summed 4M matrices.

usage: python3 bench/cupy/cupy_sparse.py [--out cupy_sparse.json] [--filter REGEX]
       [--min-time SECONDS]
"""
import sys

from cupy_bench import Bench, arg_parser

GAMMA = 0x9E3779B97F4A7C15


def splitmix_at(np, seed, n):
    """Outputs 0 .. n - 1 of the splitmix64 sequence that starts at seed (uint64, wrapping)."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (np.arange(n, dtype=np.uint64) + np.uint64(1)) * np.uint64(GAMMA)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def bench_csr(np, sparse, rows, cols, per_row, dtype, seed=1):
    """bench_sparse.cpp's bench_csr: the same matrix, on the GPU."""
    import cupy as cp
    nnz = rows * per_row
    indices = (splitmix_at(np, seed, nnz) % np.uint64(cols)).astype(np.int32)
    data = ((splitmix_at(np, seed + 1, nnz) >> np.uint64(40)).astype(np.float64) * 2.0**-23
            - 1.0).astype(dtype)
    indptr = np.arange(0, nnz + 1, per_row, dtype=np.int32)
    return sparse.csr_matrix((cp.asarray(data), cp.asarray(indices), cp.asarray(indptr)),
                             shape=(rows, cols))


def dense_operand(np, shape, seed):
    """bench_sparse.cpp's dense_operand: values in [-1, 1) from 24 bits of the stream at seed."""
    import cupy as cp
    n = int(np.prod(shape))
    v = (splitmix_at(np, seed, n) >> np.uint64(40)).astype(np.float64) * 2.0**-23 - 1.0
    return cp.asarray(v.astype(np.float32).reshape(shape))


def summed(a):
    """a's canonical form, on a copy."""
    c = a.copy()
    c.sum_duplicates()
    return c


def product_bytes(a, n):
    """A's three arrays, the dense operand and the result once each (n columns)."""
    rows, cols = a.shape
    return a.nnz * 8 + (rows + 1) * 4 + (rows + cols) * 4 * n


def main(argv):
    args = arg_parser(__doc__, "cupy_sparse.json", "bench_sparse").parse_args(argv[1:])
    import numpy as np
    import cupy as cp
    import cupyx.scipy.sparse as sparse

    bench = Bench(args, "cupy_sparse.py")
    bench.measure_ceilings("copy")

    def run(name, fn, nbytes):  # name ends in the row count, bench.run's argument
        head, count = name.rsplit("/", 1)
        bench.run(head, lambda _: (fn, ""), [int(count)], nbytes=lambda _: nbytes, ceiling="copy",
                  hide_launch=True)

    def wanted(*names):  # the matrices of rows that --filter leaves out are not built
        return any(bench.keep.search(name) for name in names)

    n = 1 << 22
    big = [f"{op}/cupy/float32/{n}" for op in ("csr_to_csc", "spmv", "spmm8", "spmm8_colmajor",
                                                "add")] + ["spgemm/cupy/float32/262144"]
    if wanted(*big):
        a = bench_csr(np, sparse, n, n, 16, np.float32)
        # the three arrays of both matrices, once each (4-byte values and indices)
        run("csr_to_csc/cupy/float32/4194304", lambda: a.tocsc(), 2 * a.nnz * 8 + (2 * n + 2) * 4)
        s = summed(a)
        x = dense_operand(np, (n,), 3)
        run("spmv/cupy/float32/4194304", lambda: s @ x, product_bytes(s, 1))
        x8 = dense_operand(np, (n, 8), 4)
        run("spmm8/cupy/float32/4194304", lambda: s @ x8, product_bytes(s, 8))
        x8f = cp.asfortranarray(x8)
        run("spmm8_colmajor/cupy/float32/4194304", lambda: s @ x8f, product_bytes(s, 8))
        b = summed(bench_csr(np, sparse, 1 << 18, 1 << 18, 16, np.float32, seed=5))
        bench.run("spgemm/cupy/float32", lambda _: ((lambda: b @ b), ""), [1 << 18])
        c = summed(bench_csr(np, sparse, n, n, 16, np.float32, seed=7))
        added = s + c
        bench.run("add/cupy/float32", lambda _: ((lambda: s + c), ""), [n],
                  nbytes=lambda _: (s.nnz + c.nnz + added.nnz) * 8 + 3 * (n + 1) * 4,
                  ceiling="copy")
    import cupyx.scipy.sparse.linalg as splinalg
    # cg and gmres (restart 20) for 200 iterations on diags(-1, 2, -1), 2^20 x 2^20, float64, b =
    # ones, rtol 1e-30 (none converges): bench_sparse.cpp's cg200 and gmres200 rows. CuPy's gmres
    # counts maxiter in inner iterations (its cycle adds restart to the count; scipy's and cunp's
    # count cycles), so 10 cycles of 20 are maxiter=200 here and maxiter=10 in bench_sparse.
    m = 1 << 20
    t = sparse.diags([-cp.ones(m - 1), 2 * cp.ones(m), -cp.ones(m - 1)], [-1, 0, 1], format="csr")
    ones = cp.ones(m)
    bench.run("cg200/cupy/float64", lambda _: ((lambda: splinalg.cg(t, ones, rtol=1e-30,
                                                                     maxiter=200)), ""), [m])
    bench.run("gmres200/cupy/float64",
              lambda _: ((lambda: splinalg.gmres(t, ones, rtol=1e-30, restart=20,
                                                 maxiter=200)), ""), [m])
    # eigsh(S, 6, which="LA") of S = A + A^T, A bench_csr's 65536 x 65536 float64 matrix with 8
    # entries a row: bench_sparse.cpp's eigsh6 rows (seconds a call: one warm-up call and one
    # timed one, not 3 and 20). CuPy's default Krylov dimension is k + 32 = 38: bench_sparse's
    # eigsh6_ncv38 row; scipy's (eigsh6 there) 20.
    if wanted("eigsh6/cupy/float64"):
        m = 1 << 16
        a = bench_csr(np, sparse, m, m, 8, np.float64)
        s = (a + a.T).tocsr()
        bench.run("eigsh6/cupy/float64", lambda _: ((lambda: splinalg.eigsh(s, k=6, which="LA")),
                                                    ""), [m], warmup=1, min_repeats=1)
    bench.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
