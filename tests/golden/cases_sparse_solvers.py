"""scipy.sparse.linalg's cg and gmres for tests/test_sparse_solvers.cpp: sparse_solvers.npz.

Matrices (CSR arrays as <name>_{data,indices,indptr}, int64 indices, values complex128 or
float64; the C++ test converts them to each value type, index type and format): S, the SPD
diags(-1, 4, -1) of size 100; H, a Hermitian positive definite one of the same pattern; N, a
non-symmetric diagonally dominant one (diags(-1, 4, -2) plus random entries); P, a sparse
preconditioner (diags(0.05, 0.25, 0.05)); O, the 1 x 1 matrix [[3]]. Right-hand sides b_<name>.

Each case is a line of member `cases`: key;solver;dtype;matrix;b;x0;rtol;atol;maxiter;restart;M
(None where scipy's default is meant; M: None, diag (1 / A.diagonal() as a 1-d array, applied
as a LinearOperator here) or P). Its results: <key>__x, <key>__info. Errors: <key>__error.
scipy.sparse.random's errors: random_err_high, random_err_low.
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spl

from numpy_errors import error_text


def generate(out):
    rng = np.random.default_rng(20261205)
    n = 100
    m = {}
    one = np.ones(n)
    mats = {
        "S": sp.diags([-one[1:], 4 * one, -one[1:]], [-1, 0, 1], format="csr"),
        "H": sp.diags([(-1 - 0.5j) * one[1:], 4 * one + 0j, (-1 + 0.5j) * one[1:]], [-1, 0, 1],
                      format="csr"),
        "P": sp.diags([0.05 * one[1:], 0.25 * one, 0.05 * one[1:]], [-1, 0, 1], format="csr"),
        "O": sp.csr_matrix(np.array([[3.0]])),
    }
    R = sp.random(n, n, density=0.03, format="csr", random_state=rng)
    mats["N"] = (sp.diags([-one[1:], 4 * one, -2 * one[1:]], [-1, 0, 1]) + R).tocsr()
    for k, a in mats.items():
        a = a.tocsr()
        a.sort_indices()
        m[f"{k}_data"] = a.data.astype(np.complex128)
        m[f"{k}_indices"] = a.indices.astype(np.int64)
        m[f"{k}_indptr"] = a.indptr.astype(np.int64)
    bs = {
        "r": np.sin(np.arange(1, n + 1.0)),
        "c": np.sin(np.arange(1, n + 1.0)) + 1j * np.cos(np.arange(1, n + 1.0)),
        "z": np.zeros(n),
        "o": np.array([2.0]),
        "x": np.cos(np.arange(1, n + 1.0)) / 4,
    }
    for k, v in bs.items():
        m[f"b_{k}"] = v.astype(np.complex128)

    lines = []

    def run(key, solver, dt, mat, b, x0=None, rtol=1e-5, atol=0.0, maxiter=None, restart=None,
            M=None):
        lines.append(";".join(str(v) for v in
                              (key, solver, dt, mat, b, x0, rtol, atol, maxiter, restart, M)))
        A = mats[mat].astype(dt)
        bb = bs[b].astype(dt) if np.dtype(dt).kind == "c" else bs[b].real.astype(dt)
        kw = dict(rtol=rtol, atol=atol, maxiter=maxiter)
        if x0 is not None:
            kw["x0"] = (bs[x0].astype(dt) if np.dtype(dt).kind == "c" else bs[x0].real.astype(dt))
        if M == "diag":
            d = (1 / A.diagonal()).astype(dt)
            kw["M"] = spl.LinearOperator(A.shape, matvec=lambda r: d * r.ravel(), dtype=dt)
        elif M == "P":
            kw["M"] = mats["P"].astype(dt)
        try:
            if solver == "cg":
                x, info = spl.cg(A, bb, **kw)
            else:
                x, info = spl.gmres(A, bb, restart=restart, **kw)
        except Exception as e:  # noqa: BLE001: the error is the golden result
            m[f"{key}__error"] = error_text(e)
            return
        m[f"{key}__x"] = np.asarray(x).astype(dt)
        m[f"{key}__info"] = np.array([info], dtype=np.int64)

    for solver in ("cg", "gmres"):
        for dt in ("float32", "float64", "complex64", "complex128"):
            mat = ("H" if dt.startswith("complex") else "S") if solver == "cg" else "N"
            b = "c" if dt.startswith("complex") else "r"
            run(f"{solver}_{dt}", solver, dt, mat, b, rtol=1e-8 if dt.endswith("128")
                or dt == "float64" else 1e-4)
        for dt in ("float64", "complex128"):
            mat = ("H" if dt == "complex128" else "S") if solver == "cg" else "N"
            b = "c" if dt == "complex128" else "r"
            run(f"{solver}_{dt}_x0", solver, dt, mat, b, x0="x", rtol=1e-10)
            run(f"{solver}_{dt}_maxiter", solver, dt, mat, b, rtol=1e-12, maxiter=3, restart=4)
            run(f"{solver}_{dt}_zero", solver, dt, mat, "z", x0="x")
            run(f"{solver}_{dt}_diag", solver, dt, mat, b, rtol=1e-9, M="diag", restart=6)
            run(f"{solver}_{dt}_sparseM", solver, dt, mat, b, rtol=1e-9, M="P", restart=6)
            run(f"{solver}_{dt}_atol", solver, dt, mat, b, rtol=0.0, atol=1e-3)
            run(f"{solver}_{dt}_1x1", solver, dt, "O", "o")
        run(f"{solver}_S", solver, "float64", "S", "r", rtol=1e-9, restart=7)
        # The iteration count: scipy's iterations to converge, then maxiter one short of it.
        its = []
        A, bb = mats["S" if solver == "cg" else "N"], bs["r"]
        cb = dict(callback=lambda *_: its.append(1))
        if solver == "gmres":
            cb.update(restart=5, callback_type="x")
            spl.gmres(A, bb, rtol=1e-10, **cb)
        else:
            spl.cg(A, bb, rtol=1e-10, **cb)
        k = len(its)
        mat = "S" if solver == "cg" else "N"
        run(f"{solver}_count_{k}", solver, "float64", mat, "r", rtol=1e-10, maxiter=k,
            restart=5)
        run(f"{solver}_count_{k + 1}", solver, "float64", mat, "r", rtol=1e-10, maxiter=k + 1,
            restart=5)
        run(f"{solver}_count_{k - 1}", solver, "float64", mat, "r", rtol=1e-10, maxiter=k - 1,
            restart=5)
        # Errors: not square, b and x0 of other lengths, M of another shape, atol < 0.
        mats["W"] = sp.csr_matrix(np.ones((3, 4)))
        for k2, a in (("W", mats["W"]),):
            m[f"{k2}_data"] = a.data.astype(np.complex128)
            m[f"{k2}_indices"] = a.indices.astype(np.int64)
            m[f"{k2}_indptr"] = a.indptr.astype(np.int64)
        run(f"{solver}_err_square", solver, "float64", "W", "r")
        run(f"{solver}_err_b", solver, "float64", "O", "r")
        run(f"{solver}_err_x0", solver, "float64", "S", "r", x0="o")
        run(f"{solver}_err_M", solver, "float64", "O", "o", M="P")
        run(f"{solver}_err_atol", solver, "float64", "S", "r", atol=-1.0)

    # scipy.sparse.random's density errors (its values cannot be compared: docs/differences.md).
    for name, d in (("random_err_high", 1.5), ("random_err_low", -0.1)):
        try:
            sp.random(3, 3, density=d)
        except ValueError as e:
            m[name] = error_text(e)

    m["cases"] = np.frombuffer("\n".join(lines).encode(), dtype=np.uint8)
    np.savez(out / "sparse_solvers.npz", **m)
