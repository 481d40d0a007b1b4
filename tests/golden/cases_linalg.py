"""NumPy's outputs for numpy.linalg's det, slogdet, solve, inv and matrix_power
(tests/test_linalg.cpp): linalg_lu.npz. Inputs are members named in_<name>, results and errors
(<name>__error) the others; slogdet's two results are <name>__sign and <name>__logabsdet.

The matrices are random with n added to the diagonal (well conditioned: the tests' tolerances are
rounding's, not conditioning's), in shapes 0 x 0, 1 x 1, 3 x 3, 5 x 5 and batches, as given and as
transposed and negative-stride views; singular and NaN cases; every error.
"""
import numpy as np

from numpy_errors import error_text

DTYPES = ["float32", "float64", "complex64", "complex128", "int32"]


def matrices(rng, shape, dt):
    n = shape[-1]
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a + n * np.eye(n)
    if np.dtype(dt).kind == "i":
        a = np.round(a)
    return a.astype(dt)


def generate(out):
    rng = np.random.default_rng(20261206)
    m = {}
    L = np.linalg

    def inp(name, a):
        m[f"in_{name}"] = np.asarray(a)
        return np.asarray(a)

    def res(name, f):
        try:
            r = f()
        except Exception as e:  # NumPy's error is the expected result
            m[f"{name}__error"] = error_text(e)
            return
        if hasattr(r, "logabsdet"):
            m[f"{name}__sign"] = np.asarray(r.sign)
            m[f"{name}__logabsdet"] = np.asarray(r.logabsdet)
        else:
            m[name] = np.asarray(r)

    for dt in DTYPES:
        bdt = "float64" if dt == "int32" else dt
        for shape in [(0, 0), (1, 1), (3, 3), (5, 5), (2, 3, 4, 4), (0, 3, 3)]:
            tag = f"{dt}_{'x'.join(map(str, shape))}"
            a = inp(tag, matrices(rng, shape, dt))
            res(f"det_{tag}", lambda: L.det(a))
            res(f"slogdet_{tag}", lambda: L.slogdet(a))
            res(f"inv_{tag}", lambda: L.inv(a))
            b = inp(f"{tag}_b", rng.standard_normal(shape[:-1] + (2,)).astype(bdt))
            res(f"solve_{tag}", lambda: L.solve(a, b))
        a = m[f"in_{dt}_5x5"]
        res(f"det_{dt}_T", lambda: L.det(a.T))
        res(f"inv_{dt}_neg", lambda: L.inv(a[::-1, ::-1]))
        v = inp(f"{dt}_v", rng.standard_normal(5).astype(bdt))
        res(f"solve_{dt}_vector", lambda: L.solve(a, v))
        ab = m[f"in_{dt}_2x3x4x4"]
        res(f"solve_{dt}_batch_vector", lambda: L.solve(ab, v[:4]))
        bb = inp(f"{dt}_bb", rng.standard_normal((3, 4, 3)).astype(bdt))
        res(f"solve_{dt}_broadcast", lambda: L.solve(ab[:, :1], bb))  # (2,1,4,4) with (3,4,3)

    # Singular and non-finite matrices.
    sing = inp("singular", np.ones((3, 3)))
    res("det_singular", lambda: L.det(sing))
    res("slogdet_singular", lambda: L.slogdet(sing))
    res("solve_singular", lambda: L.solve(sing, np.ones(3)))
    res("inv_singular", lambda: L.inv(sing))
    big = inp("big", np.diag([1e200, 1e200]))
    res("det_big", lambda: L.det(big))
    res("slogdet_big", lambda: L.slogdet(big))

    # matrix_power: NumPy's binary decomposition, negative powers through inv.
    p = inp("power", matrices(rng, (4, 4), "float64") / 4)
    for k in (0, 1, 2, 3, 5, 8, -1, -3):
        res(f"power_{k}".replace("-", "m"), lambda: L.matrix_power(p, k))
    pi = inp("power_i", rng.integers(-2, 3, (2, 3, 3)))
    res("power_i_4", lambda: L.matrix_power(pi, 4))
    res("power_i_0", lambda: L.matrix_power(pi, 0))

    one = np.ones
    res("err_det_1d", lambda: L.det(one(3)))
    res("err_det_0d", lambda: L.det(one(())))
    res("err_det_square", lambda: L.det(one((2, 3))))
    res("err_inv_square", lambda: L.inv(one((2, 3))))
    res("err_solve_vector", lambda: L.solve(one((3, 3)), one(2)))
    res("err_solve_matrix", lambda: L.solve(one((3, 3)), one((2, 2))))
    res("err_solve_batch", lambda: L.solve(one((2, 3, 3)), one((4, 3, 1))))
    res("err_solve_0d", lambda: L.solve(np.eye(2), np.float64(5)))
    res("err_power_square", lambda: L.matrix_power(one((2, 3)), 2))
    res("err_power_1d", lambda: L.matrix_power(one(3), 2))
    np.savez(out / "linalg_lu.npz", **m)
