"""scipy.sparse.linalg's eigsh and svds for tests/test_sparse_eigen.cpp: sparse_eigen.npz.

Matrices (CSR arrays <name>_{data,indices,indptr,shape}): Hermitian ones with well separated
extreme eigenvalues (a random sparse symmetric or Hermitian part plus diag(linspace)), in float64
(H50, H120, H300) and complex128 (C80); random tall, wide and square ones for svds (T, W, Q).
Results: eigsh_<name>_<which>_<k> (eigenvalues in
scipy's return_eigenvectors=False order), svds_<name>_<k> (S, ascending);
scipy's errors as <case>__error. The start vector used with v0: v0_120.
"""
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spl

from numpy_errors import error_text


def generate(out):
    rng = np.random.default_rng(20261206)
    m = {}

    def put(name, a):
        a = sp.csr_matrix(a)
        a.sort_indices()
        m[name + "_data"] = a.data
        m[name + "_indices"] = a.indices.astype(np.int64)
        m[name + "_indptr"] = a.indptr.astype(np.int64)
        m[name + "_shape"] = np.array(a.shape, dtype=np.int64)
        return a

    def hermitian(n, complex_values=False):
        a = sp.random(n, n, density=4.0 / n, random_state=rng, dtype=np.float64)
        if complex_values:
            a = a + 1j * sp.random(n, n, density=4.0 / n, random_state=rng)
        h = (a + a.conj().T) * 0.5
        return h + sp.diags(np.linspace(-n / 4.0, n, n))

    mats = {"H50": put("H50", hermitian(50)), "H120": put("H120", hermitian(120)),
            "H300": put("H300", hermitian(300)), "C80": put("C80", hermitian(80, True))}
    for name, a in mats.items():
        for which in ["LM", "LA", "SA"] + ([] if name == "C80" else ["BE"]):
            for k in ([3, 6] if which == "BE" else [1, 3, 6]):  # ARPACK: BE needs k > 1
                m[f"eigsh_{name}_{which}_{k}"] = spl.eigsh(a, k, which=which,
                                                           return_eigenvectors=False)
    v0 = rng.standard_normal(120)
    m["v0_120"] = v0
    m["eigsh_v0"] = spl.eigsh(mats["H120"], 4, v0=v0, return_eigenvectors=False)

    def err(key, f):
        try:
            f()
        except Exception as e:  # noqa: BLE001: the error is the golden result
            m[key + "__error"] = error_text(e)
            return
        raise AssertionError(key + " did not raise")

    a = mats["H50"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        err("eigsh_k_n", lambda: spl.eigsh(a, 50))
    err("eigsh_k_0", lambda: spl.eigsh(a, 0))
    err("eigsh_square", lambda: spl.eigsh(a[:, :40], 3))
    err("eigsh_which", lambda: spl.eigsh(a, 3, which="XX"))
    err("eigsh_ncv", lambda: spl.eigsh(a, 3, ncv=3))
    err("eigsh_maxiter", lambda: spl.eigsh(a, 3, maxiter=0))
    err("eigsh_noconv", lambda: spl.eigsh(mats["H300"], 6, ncv=7, maxiter=1))
    err("eigsh_be_complex", lambda: spl.eigsh(mats["C80"], 3, which="BE"))
    err("eigsh_v0_zero", lambda: spl.eigsh(a, 3, v0=np.zeros(50)))

    T = put("T", sp.random(90, 40, density=0.1, random_state=rng))
    W = put("W", sp.random(40, 90, density=0.1, random_state=rng))
    Q = put("Q", sp.random(60, 60, density=0.1, random_state=rng))
    for name, b in {"T": T, "W": W, "Q": Q}.items():
        for k in [1, 3]:
            m[f"svds_{name}_{k}"] = spl.svds(b, k, return_singular_vectors=False)
    err("svds_k", lambda: spl.svds(T, 40))
    err("svds_which", lambda: spl.svds(T, 3, which="XX"))
    # scipy prints a set: its order follows the string hash, so fix it to one order.
    m["svds_which__error"] = error_text(ValueError("`which` must be in {'LM', 'SM'}."))
    err("svds_ncv", lambda: spl.svds(T, 3, ncv=2))
    err("svds_maxiter", lambda: spl.svds(T, 3, maxiter=0))
    err("svds_tol", lambda: spl.svds(T, 3, tol=-1.0))
    err("svds_v0", lambda: spl.svds(T, 3, v0=np.ones(7)))
    np.savez(out / "sparse_eigen.npz", **m)
