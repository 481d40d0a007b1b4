"""NumPy's outputs for linalg::solve's mixed-precision mode (tests/test_linalg_refine.cpp):
linalg_refine.npz. NumPy has no such mode: the refined solve must give numpy.linalg.solve's
solution, so its members are numpy.linalg.solve's results (and errors) on the inputs the test
solves with every refine mode. Inputs are members named in_<name>, results and errors
(<name>__error) the others.

The well-conditioned matrices are random with n + 1 added to the diagonal, n = 1, 2, 50, 200, with
a matrix (n, 3) and a vector (n,) right-hand side, in float64, complex128, float32 and complex64;
batches, a broadcast batch, a vector against a batch, transposed and negative-stride views, an
empty batch; int32 input (computed in float64). Beyond those: a 50 x 50 matrix of condition number
1e10 (float64 and complex128: no low format's refinement converges on it, the full-precision
fallback solves it), the well-conditioned 50 x 50 matrix times 1e6 (past float16's range), a
singular matrix and two of solve's shape errors.
"""
import numpy as np

from numpy_errors import error_text, record

DTYPES = ["float64", "complex128", "float32", "complex64"]
SIDES = [1, 2, 50, 200]


def matrices(rng, shape, dt):
    n = shape[-1]
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return (a + (n + 1) * np.eye(n)).astype(dt)


def vectors(rng, shape, dt):
    v = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


def ill_conditioned(rng, n, dt):
    """U diag(s) V^H with singular values from 1 down to 1e-10: condition number 1e10."""
    def unitary():
        m = vectors(rng, (n, n), dt)
        return np.linalg.qr(m)[0]

    s = np.logspace(0, -10, n)
    return ((unitary() * s) @ unitary().conj().T).astype(dt)


def generate(out):
    rng = np.random.default_rng(20261207)
    m = {}
    solve = np.linalg.solve

    def inp(name, a):
        m[f"in_{name}"] = np.asarray(a)
        return np.asarray(a)

    def res(name, f):
        record(m, name, f)

    for dt in DTYPES:
        for n in SIDES:
            tag = f"{dt}_{n}"
            a = inp(tag, matrices(rng, (n, n), dt))
            b = inp(f"{tag}_b", vectors(rng, (n, 3), dt))
            v = inp(f"{tag}_v", vectors(rng, (n,), dt))
            res(f"solve_{tag}", lambda: solve(a, b))
            res(f"solve_{tag}_v", lambda: solve(a, v))
        a = m[f"in_{dt}_50"]
        b = m[f"in_{dt}_50_b"]
        res(f"solve_{dt}_T", lambda: solve(a.T, b))
        res(f"solve_{dt}_neg", lambda: solve(a[::-1, ::-1], b))
        ab = inp(f"{dt}_batch", matrices(rng, (3, 50, 50), dt))
        bb = inp(f"{dt}_batch_b", vectors(rng, (3, 50, 2), dt))
        res(f"solve_{dt}_batch", lambda: solve(ab, bb))
        res(f"solve_{dt}_batch_vector", lambda: solve(ab, m[f"in_{dt}_50_v"]))
        ac = inp(f"{dt}_bcast", matrices(rng, (2, 1, 20, 20), dt))
        bc = inp(f"{dt}_bcast_b", vectors(rng, (3, 20, 2), dt))
        res(f"solve_{dt}_bcast", lambda: solve(ac, bc))  # (2,1,20,20) with (3,20,2)
        ae = inp(f"{dt}_empty", np.zeros((0, 3, 3), dt))
        be = inp(f"{dt}_empty_b", np.zeros((0, 3, 2), dt))
        res(f"solve_{dt}_empty", lambda: solve(ae, be))
        big = inp(f"{dt}_big", a * 1e6)  # past float16's 65504
        res(f"solve_{dt}_big", lambda: solve(big, b))
        if dt in ("float64", "complex128"):
            ill = inp(f"{dt}_ill", ill_conditioned(rng, 50, dt))
            res(f"solve_{dt}_ill", lambda: solve(ill, b))

    ai = inp("int32", np.round(rng.standard_normal((5, 5)) * 3 + 12 * np.eye(5)).astype("int32"))
    bi = inp("int32_b", rng.standard_normal((5, 2)))
    res("solve_int32", lambda: solve(ai, bi))

    sing = inp("singular", np.ones((3, 3)))
    res("solve_singular", lambda: solve(sing, np.ones(3)))
    one = np.ones
    res("err_solve_vector", lambda: solve(one((3, 3)), one(2)))
    res("err_solve_batch", lambda: solve(one((2, 3, 3)), one((4, 3, 1))))
    np.savez(out / "linalg_refine.npz", **m)
