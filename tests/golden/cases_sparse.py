"""scipy.sparse's outputs for cunp's sparse matrix classes and construction functions
(tests/test_sparse.cpp): sparse.npz.

Inputs are scipy's own arrays: a CSR matrix as <name>__indices, <name>__indptr, <name>__shape
(int64; the test converts them to its index type) and <name>__data_<dtype>; a COO matrix as
<name>__row, <name>__col; a dense one as <name>__dense_<dtype>. Results are <case>_<dtype>__<what>,
scipy's errors <case>__error ("Type: message" bytes). Matrices cover empty rows and columns,
0 nnz, 0 x 0, 1 x 1, n x 1, 1 x n, unsorted and duplicate indices, explicit zeros, and an indptr
whose last value leaves entries out (scipy prunes them).
"""
import warnings

import numpy as np
import scipy.sparse as sp

from numpy_errors import error_text

ALL = ["float32", "float64", "complex64", "complex128"]
LIGHT = ["float64", "complex64"]

# name: (values, indices, indptr, shape). Values are made complex for complex dtypes.
CSR = {
    "basic": ([1.5, -2.0, 3.25, 4.0, -5.5, 6.0, 7.0], [0, 3, 1, 4, 2, 0, 4],
              [0, 2, 4, 5, 7], (4, 5)),
    "unsorted": ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [3, 0, 4, 1, 2, 4, 0],
                 [0, 2, 4, 5, 7], (4, 5)),
    "dups": ([1.0, 2.0, 0.0, 4.0, 5.0, -1.0, 0.5, 3.0, 2.5], [2, 2, 0, 4, 1, 4, 0, 2, 0],
             [0, 3, 6, 6, 9], (4, 5)),
    "empty_lines": ([1.0, 2.0, 3.0], [2, 0, 2], [0, 0, 1, 1, 2, 3, 3], (6, 3)),
    "zero_nnz": ([], [], [0, 0, 0, 0], (3, 4)),
    "empty_0x0": ([], [], [0], (0, 0)),
    "one": ([2.5], [0], [0, 1], (1, 1)),
    "col": ([1.0, -2.0, 3.0], [0, 0, 0], [0, 1, 1, 2, 3, 3], (5, 1)),
    "row": ([4.0, 5.0, 6.0, 7.0], [4, 0, 2, 0], [0, 4], (1, 5)),
    "zeros": ([0.0, 1.0, 0.0, 0.0, 2.0], [0, 1, 2, 0, 2], [0, 3, 5], (2, 3)),
    "pruned": ([1.0, 2.0, 3.0, 9.0, 9.0], [0, 1, 2, 7, -3], [0, 1, 3], (2, 3)),
}
# name: (values, row, col, shape or None: inferred)
COO = {
    "coo_dups": ([1.0, 2.0, 3.0, 0.0, 4.0, 5.0, -2.0], [2, 0, 2, 1, 0, 2, 2], [1, 3, 1, 0, 0, 1, 4],
                 (3, 5)),
    "coo_canon": ([1.0, 2.0, 3.0], [0, 1, 1], [1, 0, 2], (2, 3)),
    "coo_empty": ([], [], [], (2, 3)),
    "coo_inferred": ([1.0, 2.0, 3.0], [0, 4, 1], [2, 0, 6], None),
    "coo_one": ([7.0], [0], [0], (1, 1)),
}
# name: float64 values (-0.0 is zero, NaN is not)
DENSE = {
    "d_mixed": [[0.0, 1.5, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0],
                [3.0, -0.0, np.nan, 0.0, 4.0], [0.0, 5.0, 0.0, 0.0, 6.0]],
    "d_zeros": [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
    "d_empty": np.zeros((0, 3)),
    "d_one": [[3.0]],
    "d_tall": [[1.0], [0.0], [2.0]],
}
# check_format(full_check=True)'s errors: (values, indices, indptr, shape)
CSR_ERRORS = {
    "indptr_size": ([1.0, 2.0], [0, 1], [0, 1, 2], (3, 3)),
    "indptr_start": ([1.0, 2.0], [0, 1], [1, 1, 2], (2, 3)),
    "indices_size": ([1.0, 2.0], [0, 1, 2], [0, 1, 2], (2, 3)),
    "indptr_last": ([1.0, 2.0], [0, 1], [0, 1, 3], (2, 3)),
    "index_high": ([1.0, 2.0], [0, 3], [0, 1, 2], (2, 3)),
    "index_negative": ([1.0, 2.0], [0, -1], [0, 1, 2], (2, 3)),
    "indptr_decreasing": ([1.0, 2.0, 3.0], [0, 1, 2], [0, 2, 1, 3], (3, 3)),
}
COO_ERRORS = {
    "coo_length": ([1.0, 2.0], [0, 1, 1], [0, 1, 2], (3, 3)),
    "coo_row_high": ([1.0, 2.0], [0, 3], [0, 1], (3, 3)),
    "coo_col_high": ([1.0, 2.0], [0, 1], [0, 4], (3, 3)),
    "coo_row_negative": ([1.0, 2.0], [0, -1], [0, 1], (3, 3)),
    "coo_col_negative": ([1.0, 2.0], [0, 1], [-2, 1], (3, 3)),
    "coo_infer_empty": ([], [], [], None),
}
DIAGONALS = [-2, -1, 0, 1, 2, 5, -7]


def values(v, dt):
    v = np.asarray(v, dtype=np.float64)
    if np.dtype(dt).kind == "c":
        v = v + 1j * np.round(np.arange(v.size) * 0.5 - 1.0, 1) * (v != 0)
    return v.astype(dt)


def generate(out):
    warnings.simplefilter("ignore", FutureWarning)
    archives = {}
    m = {}

    def use(name):
        nonlocal m
        m = archives.setdefault(name, {})

    def save(name, a):
        m[name] = np.asarray(a)

    def raw_csr(name, a):
        save(name + "__data", a.data)
        save(name + "__indices", a.indices.astype(np.int64))
        save(name + "__indptr", a.indptr.astype(np.int64))

    def raw_coo(name, a):
        save(name + "__data", a.data)
        save(name + "__row", a.row.astype(np.int64))
        save(name + "__col", a.col.astype(np.int64))

    def error(name, f):
        try:
            f()
        except Exception as e:  # scipy's error is the expected result
            m[name + "__error"] = error_text(e)
            return
        raise AssertionError(name + " raised nothing")

    def csr_inputs(name, dts):
        v, ix, ptr, shape = CSR[name]
        save(name + "__indices", np.array(ix, dtype=np.int64))
        save(name + "__indptr", np.array(ptr, dtype=np.int64))
        save(name + "__shape", np.array(shape, dtype=np.int64))
        for dt in dts:
            save(f"{name}__data_{dt}", values(v, dt))

    # ---- CSR inputs: conversions (every dtype: sparse_convert), canonical form
    # (sparse_canonical), diagonal and sum (sparse_reduce), tril and triu (sparse_construct)
    for name, (v, ix, ptr, shape) in CSR.items():
        for arch, dts in (("sparse_convert", ALL), ("sparse_canonical", LIGHT),
                          ("sparse_reduce", LIGHT), ("sparse_construct", LIGHT)):
            use(arch)
            csr_inputs(name, dts)
        for dt in ALL:

            # A fresh matrix for each call: scipy's operations may rewrite arrays that other
            # matrices share (sum_duplicates through a csr_array made without a copy).
            def mk():
                a = sp.csr_matrix((values(v, dt), np.array(ix), np.array(ptr)), shape=shape)
                a.check_format(full_check=True)
                return a

            t = f"{name}_{dt}"
            use("sparse_convert")
            save(t + "__dense", mk().toarray())
            save(t + "__nnz", np.int64(mk().nnz))
            raw_csr(t + "__csc", mk().tocsc())
            raw_coo(t + "__coo", mk().tocoo())
            raw_csr(t + "__cscsr", mk().tocsc().tocsr())
            if dt not in LIGHT:
                continue
            use("sparse_canonical")
            a = mk()
            save(t + "__flags", np.array([a.has_sorted_indices, a.has_canonical_format], np.uint8))
            b = mk()
            b.sort_indices()
            raw_csr(t + "__sorted", b)
            b = mk()
            b.sum_duplicates()
            raw_csr(t + "__canonical", b)
            b = mk()
            b.eliminate_zeros()
            raw_csr(t + "__nonzero", b)
            use("sparse_reduce")
            for k in DIAGONALS:
                save(f"{t}__diagonal_{k}", mk().diagonal(k))
            save(t + "__sum", sp.csr_array(mk()).sum())
            for axis in (0, 1):
                save(f"{t}__sum_{axis}", sp.csr_array(mk()).sum(axis=axis))
            use("sparse_canonical")
            c = sp.csc_matrix(mk())
            save(t + "__csc_flags", np.array([c.has_sorted_indices, c.has_canonical_format],
                                            np.uint8))
            use("sparse_reduce")
            for k in DIAGONALS:
                save(f"{t}__csc_diagonal_{k}", sp.csc_matrix(mk()).diagonal(k))
            for axis in (0, 1):
                save(f"{t}__csc_sum_{axis}", sp.csc_array(mk()).sum(axis=axis))
            use("sparse_construct")
            for k in (-1, 0, 2):
                raw_coo(f"{t}__tril_{k}", sp.tril(mk(), k))
                raw_coo(f"{t}__triu_{k}", sp.triu(mk(), k))
    use("sparse_reduce")
    error("sum_axis", lambda: sp.csr_array(np.eye(2)).sum(axis=2))

    # ---- COO inputs
    use("sparse_coo")
    for name, (v, row, col, shape) in COO.items():
        save(name + "__row", np.array(row, dtype=np.int64))
        save(name + "__col", np.array(col, dtype=np.int64))
        if shape is not None:
            save(name + "__shape", np.array(shape, dtype=np.int64))
        for dt in LIGHT:
            save(f"{name}__data_{dt}", values(v, dt))
            args = (values(v, dt), (np.array(row, dtype=np.int64), np.array(col, dtype=np.int64)))
            a = sp.coo_matrix(args, shape=shape)
            t = f"{name}_{dt}"
            save(t + "__shape", np.array(a.shape, dtype=np.int64))
            save(t + "__dense", a.toarray())
            raw_csr(t + "__csr", a.tocsr())
            raw_csr(t + "__csc", a.tocsc())
            b = a.copy()
            b.sum_duplicates()
            raw_coo(t + "__canonical", b)
            b = a.copy()
            b.eliminate_zeros()
            raw_coo(t + "__nonzero", b)
            for k in DIAGONALS:
                save(f"{t}__diagonal_{k}", a.diagonal(k))
            s = sp.coo_array(a)
            save(t + "__sum", s.sum())
            for axis in (0, 1):
                save(f"{t}__sum_{axis}", s.sum(axis=axis))

    # ---- dense inputs (also read transposed: a non-contiguous view)
    use("sparse_dense")
    for name, d in DENSE.items():
        for dt in LIGHT:
            x = np.array(d, dtype=np.float64).astype(dt)
            save(f"{name}__dense_{dt}", x)
            for tag, y in (("", x), ("_T", x.T)):
                t = f"{name}{tag}_{dt}"
                raw_csr(t + "__csr", sp.csr_matrix(y))
                raw_csr(t + "__csc", sp.csc_matrix(y))
                raw_coo(t + "__coo", sp.coo_matrix(y))

    # ---- construction errors
    use("sparse_errors")
    for name, (v, ix, ptr, shape) in CSR_ERRORS.items():
        save(name + "__data", np.array(v))
        save(name + "__indices", np.array(ix, dtype=np.int64))
        save(name + "__indptr", np.array(ptr, dtype=np.int64))
        save(name + "__shape", np.array(shape, dtype=np.int64))
        error(name, lambda: sp.csr_matrix((np.array(v), np.array(ix), np.array(ptr)),
                                          shape=shape).check_format(full_check=True))
        # the same arrays as CSC (indices are rows, indptr runs over columns)
        error("csc_" + name, lambda: sp.csc_matrix((np.array(v), np.array(ix), np.array(ptr)),
                                                   shape=shape[::-1]).check_format(True))
    for name, (v, row, col, shape) in COO_ERRORS.items():
        save(name + "__data", np.array(v, dtype=np.float64))
        save(name + "__row", np.array(row, dtype=np.int64))
        save(name + "__col", np.array(col, dtype=np.int64))
        if shape is not None:
            save(name + "__shape", np.array(shape, dtype=np.int64))
        error(name, lambda: sp.coo_matrix((np.array(v, dtype=np.float64),
                                           (np.array(row, dtype=np.int64),
                                            np.array(col, dtype=np.int64))), shape=shape))

    # ---- eye, identity
    use("sparse_construct")
    for i, (rows, cols, k) in enumerate([(3, None, 0), (3, 4, 1), (4, 3, -2), (3, 4, 4), (3, 4, 5),
                                         (0, None, 0), (1, None, 0), (2, 5, -1), (-1, None, 0)]):
        save(f"eye_{i}__args", np.array([rows, -1 if cols is None else cols, k], np.int64))
        try:
            e = sp.eye(rows, cols, k)
        except ValueError:
            error(f"eye_{i}", lambda: sp.eye(rows, cols, k))
            continue
        for dt in LIGHT:
            save(f"eye_{i}_{dt}__dense", e.toarray().astype(dt))
            save(f"eye_{i}_{dt}__nnz", np.int64(e.tocsr().nnz))
    for n in (0, 1, 3):
        save(f"identity_{n}__dense", sp.identity(n).toarray())

    # ---- diags: (diagonals, offsets, shape or None)
    diag_cases = [
        ([[1, 2, 3], [4, 5], [6]], [0, 1, -2], None),
        ([[1], [-2], [1]], [-1, 0, 1], (4, 4)),
        ([[1, 0, 2]], [0], None),
        ([[1, 2, 3, 4]], [0], (3, 3)),
        ([[1, 2], [3, 4, 5]], [1, -1], (2, 4)),
        ([[0, 0]], [2], (3, 5)),
        ([[1, 2]], [0, 1], None),
        ([[1]], [5], (3, 3)),
        ([[1, 2]], [0], (3, 3)),
        ([[1, 2], [3, 4]], [1, 1], (3, 3)),
        ([], [], None),
        ([], [], (2, 2)),
        ([[0, 0, 0]], [2], (3, 5)),
    ]
    for i, (ds, offsets, shape) in enumerate(diag_cases):
        save(f"diags_{i}__count", np.int64(len(ds)))
        save(f"diags_{i}__offsets", np.array(offsets, dtype=np.int64))
        if shape is not None:
            save(f"diags_{i}__shape", np.array(shape, dtype=np.int64))
        for dt in LIGHT:
            for j, d in enumerate(ds):
                save(f"diags_{i}_{dt}__d{j}", values(d, dt))
        try:
            sp.diags([values(d, "float64") for d in ds], offsets, shape=shape)
        except Exception:
            error(f"diags_{i}", lambda: sp.diags([values(d, "float64") for d in ds], offsets,
                                                 shape=shape))
            continue
        for dt in LIGHT:
            r = sp.diags([values(d, dt) for d in ds], offsets, shape=shape, dtype=dt).tocsr()
            raw_csr(f"diags_{i}_{dt}__csr", r)
            save(f"diags_{i}_{dt}__shape", np.array(r.shape, dtype=np.int64))

    # ---- kron, hstack, vstack
    for dt in LIGHT:
        def mat(name):
            v, ix, ptr, shape = CSR[name]
            return sp.csr_matrix((values(v, dt), np.array(ix), np.array(ptr)), shape=shape)

        for a, b in (("basic", "col"), ("row", "dups"), ("zero_nnz", "basic"), ("one", "one")):
            # astype: scipy's product with no entries is float64 whatever the operands' dtype
            k = sp.kron(mat(a), mat(b), format="coo").astype(dt)
            raw_coo(f"kron_{a}_{b}_{dt}", k)
            save(f"kron_{a}_{b}_{dt}__shape", np.array(k.shape, dtype=np.int64))
        for fmt in ("csr", "csc", "coo"):
            blocks = [mat("basic").asformat(fmt), mat("unsorted").asformat(fmt),
                      mat("dups").asformat(fmt)]
            for how, f in (("h", sp.hstack), ("v", sp.vstack)):
                r = f(blocks, format=fmt)
                t = f"{how}stack_{fmt}_{dt}"
                (raw_coo if fmt == "coo" else raw_csr)(t, r)
                save(t + "__shape", np.array(r.shape, dtype=np.int64))
            for how, f in (("h", sp.hstack), ("v", sp.vstack)):
                error(f"{how}stack_{fmt}_mismatch",
                      lambda: f([mat("basic").asformat(fmt), mat("col").asformat(fmt)]))
    error("hstack_empty", lambda: sp.hstack([]))
    error("vstack_empty", lambda: sp.vstack([]))

    for name, members in archives.items():
        np.savez(out / f"{name}.npz", **members)
