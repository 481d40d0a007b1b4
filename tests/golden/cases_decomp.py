"""NumPy's outputs for numpy.linalg's cholesky, qr, eigh, eigvalsh, svd, svdvals, eig and eigvals
(tests/test_decompositions.cpp): linalg_decomp.npz, and linalg_eig.npz for eig and eigvals. Inputs are members named in_<name>, results
and errors (<name>__error) the others; a result with several parts is <name>__<field>.

General matrices are random (square ones with n added to the diagonal); Hermitian positive
definite ones B B^H + n I, also with garbage in the triangle that must not be read. Shapes 0 x 0,
1 x 1, 4 x 4, tall 5 x 3, wide 3 x 5, batches and empty batches, 3 x 0 and 0 x 3. Factors that are
unique (cholesky; qr through LAPACK's reflectors; eigenvalues, singular values) are compared with
NumPy's (eig's eigenvalues sorted, np.sort's order: eig_<tag>); eigenvectors and singular
vectors, unique only up to phase, by their properties.
"""
import numpy as np

from numpy_errors import error_text

DTYPES = ["float32", "float64", "complex64", "complex128", "int32"]
SQUARE = [(0, 0), (1, 1), (4, 4), (2, 3, 4, 4), (0, 3, 3)]
GENERAL = SQUARE + [(5, 3), (3, 5), (2, 5, 3), (3, 0), (0, 3)]


def tag_of(dt, shape):
    return f"{dt}_{'x'.join(map(str, shape))}"


def random(rng, shape, dt):
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if shape[-1] == shape[-2] and shape[-1] > 0:
        a = a + shape[-1] * np.eye(shape[-1])
    if np.dtype(dt).kind == "i":
        a = np.round(3 * a)
    return a.astype(dt)


def hermitian_pd(rng, shape, dt):
    n = shape[-1]
    b = random(rng, shape, "complex128" if np.dtype(dt).kind == "c" else "float64")
    a = b @ np.conj(np.swapaxes(b, -1, -2)) + n * np.eye(n)
    if np.dtype(dt).kind == "i":
        a = np.round(a)
    return a.astype(dt)


def generate(out):
    rng = np.random.default_rng(20261207)
    m = {}
    L = np.linalg

    def inp(name, a):
        m[f"in_{name}"] = np.asarray(a)
        return np.asarray(a)

    def res(name, f, fields=None):
        try:
            r = f()
        except Exception as e:  # NumPy's error is the expected result
            m[f"{name}__error"] = error_text(e)
            return
        if isinstance(r, dict):
            for field, v in r.items():
                m[f"{name}__{field}"] = np.asarray(v)
        elif fields is None:
            m[name] = np.asarray(r)
        else:
            for field in fields:
                m[f"{name}__{field}"] = np.asarray(getattr(r, field))

    for dt in DTYPES:
        for shape in SQUARE:
            t = tag_of(dt, shape)
            h = inp(f"hpd_{t}", hermitian_pd(rng, shape, dt))
            res(f"chol_{t}", lambda: L.cholesky(h))
            res(f"chol_{t}_upper", lambda: L.cholesky(h, upper=True))
            res(f"eigvalsh_{t}", lambda: L.eigvalsh(h))
            res(f"svdh_{t}", lambda: L.svd(h, hermitian=True, compute_uv=False))
            if h.size:
                # the triangle not read holds garbage: the results are those of h
                g = h.copy()
                iu = np.triu_indices(shape[-1], 1)
                g[..., iu[0], iu[1]] = 7
                inp(f"hpd_{t}_lower_only", g)
                gu = np.conj(np.swapaxes(g, -1, -2))
                inp(f"hpd_{t}_upper_only", gu)
        for shape in GENERAL:
            t = tag_of(dt, shape)
            a = inp(t, random(rng, shape, dt))
            for mode in ("reduced", "complete"):
                res(f"qr_{t}_{mode}", lambda: L.qr(a, mode=mode), ("Q", "R"))
            res(f"qr_{t}_r", lambda: L.qr(a, mode="r"))
            res(f"qr_{t}_raw", lambda: dict(zip(("h", "tau"), L.qr(a, mode="raw"))))
            res(f"svdvals_{t}", lambda: L.svdvals(a))
            for full in (True, False):
                res(f"svd_{t}_{'full' if full else 'reduced'}",
                    lambda: L.svd(a, full_matrices=full), ("U", "S", "Vh"))
        a = m[f"in_{tag_of(dt, (4, 4))}"]
        res(f"qr_{dt}_T", lambda: L.qr(a.T), ("Q", "R"))
        res(f"svdvals_{dt}_neg", lambda: L.svdvals(a[::-1, ::-2]))
        h = m[f"in_hpd_{tag_of(dt, (4, 4))}"]
        res(f"chol_{dt}_neg", lambda: L.cholesky(h[::-1, ::-1]))

    one = np.ones
    res("err_chol_not_pd", lambda: L.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]])))
    res("err_chol_1d", lambda: L.cholesky(one(3)))
    res("err_chol_square", lambda: L.cholesky(one((2, 3))))
    res("err_qr_mode", lambda: L.qr(one((2, 2)), mode="xyz"))
    res("err_qr_1d", lambda: L.qr(one(3)))
    res("err_eigh_uplo", lambda: L.eigh(one((2, 2)), UPLO="X"))
    res("err_eigvalsh_uplo", lambda: L.eigvalsh(one((2, 2)), UPLO="l"))
    res("err_eigh_square", lambda: L.eigh(one((2, 3))))
    res("err_eigh_0d", lambda: L.eigh(np.float64(1)))
    res("err_svd_1d", lambda: L.svd(one(3)))
    res("err_svd_nan", lambda: L.svd(np.array([[np.nan, 1.0], [1.0, 1.0]])))
    res("err_svdvals_1d", lambda: L.svdvals(one(3)))
    res("err_svdh_square", lambda: L.svd(one((2, 3)), hermitian=True))
    nan = inp("nan", np.array([[1.0, np.nan], [np.nan, 2.0]]))
    res("eigvalsh_nan", lambda: L.eigvalsh(nan))
    np.savez(out / "linalg_decomp.npz", **m)

    m.clear()
    for dt in DTYPES:
        for shape in SQUARE + [(6, 6)]:
            t = tag_of(dt, shape)
            a = inp(t, random(rng, shape, dt))
            res(f"eig_{t}", lambda: np.sort(L.eigvals(a) + 0j, axis=-1))  # complex, as ours
    for name, a in (("rotation", [[0.0, -1.0], [1.0, 0.0]]), ("symmetric", [[2.0, 1.0], [1.0, 3.0]]),
                    ("triangular", [[1.0, 5.0, 7.0], [0.0, 2.0, 4.0], [0.0, 0.0, 3.0]])):
        a = inp(f"eig_{name}", np.array(a))
        res(f"eig_{name}", lambda: np.sort(L.eigvals(a) + 0j))
    one = np.ones
    res("err_eig_1d", lambda: L.eig(one(3)))
    res("err_eig_square", lambda: L.eig(one((2, 3))))
    res("err_eigvals_square", lambda: L.eigvals(one((2, 3))))
    res("err_eig_nan", lambda: L.eig(np.array([[np.nan, 1.0], [1.0, 1.0]])))
    np.savez(out / "linalg_eig.npz", **m)
