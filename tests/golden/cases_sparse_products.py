"""scipy.sparse's products and arithmetic for tests/test_sparse_products.cpp: sparse_products.npz.

Member `cases` lists the calls, one a line, as the C++ test parses them: fields separated by ';',
the function, the value dtype, the index dtype, then the operands and arguments. A sparse operand
is a format (csr, csc, coo) and a matrix name: its arrays are members
in_<dtype>_<index>_<name>_<format>_{data,indices,indptr} (csr, csc) or _{data,row,col} (coo),
its shape in_<dtype>_<index>_<name>_shape. A dense operand is a member name (dn_<dtype>_<name>),
or that name with ".T" for the transposed view of it.

A call's result is the member named by its line: a dense result as it is; a sparse one as
<line>__format (its format's name), <line>__shape and its entries: a CSR or CSC result in
canonical form (scipy's result after sum_duplicates(): sorted, no duplicate) as
<line>__{data,indices,indptr}, a COO one as scipy gives it (cunp's order must match) as
<line>__{data,row,col}. NumPy's or scipy's error: <line>__error.

Matrices: random ones (R, S), the same matrices stored non-canonically (U, SU: entries split into
duplicates and each line shuffled), explicit zeros and empty rows and columns (Z), no entries (E),
1 x 1, a column and a row, zero extents, and pairs whose sums or products cancel to exact zeros
(which scipy leaves out of the result).
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spl

from numpy_errors import error_text

ALL_T = ["float32", "float64", "complex64", "complex128"]
ARITH_T = ["float64", "complex64"]
INDEX = ["int32", "int64"]
FORMATS = ["csr", "csc", "coo"]


def text(v):
    """An argument as the C++ test parses it."""
    if v is None:
        return "None"
    if isinstance(v, complex):
        return f"{v.real!r}{v.imag:+}j"
    if isinstance(v, float) and np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return str(v)


def generate(out):
    rng = np.random.default_rng(20261205)
    m = {}
    lines = []

    def values(n, dt):
        v = rng.standard_normal(n)
        if np.dtype(dt).kind == "c":
            v = v + 1j * rng.standard_normal(n)
        return v.astype(dt)

    def random_matrix(rows, cols, density, dt):
        a = sp.random(rows, cols, density=density, format="csr", random_state=rng,
                      dtype=np.float64)
        a.data = values(a.nnz, dt)
        return a

    def noncanonical(a, fmt):
        """a (canonical) in `fmt` with some entries split into two that add up to them and each
        line (csr/csc) or the whole list (coo) shuffled."""
        c = a.tocoo()
        row, col, data = list(c.row), list(c.col), list(c.data)
        for k in range(0, len(data), 3):  # a duplicate for every third entry
            half = data[k] * np.asarray(0.25, dtype=c.dtype)
            data[k] = data[k] - half
            row.append(row[k])
            col.append(col[k])
            data.append(half)
        row, col, data = np.array(row), np.array(col), np.array(data, dtype=c.dtype)
        if fmt == "coo":
            p = rng.permutation(len(data))
            return sp.coo_matrix((data[p], (row[p], col[p])), shape=a.shape)
        major, minor = (row, col) if fmt == "csr" else (col, row)
        # by line, each line in a random order
        order = np.lexsort((rng.random(len(data)), major))
        nlines = a.shape[0] if fmt == "csr" else a.shape[1]
        indptr = np.zeros(nlines + 1, dtype=np.int64)
        np.add.at(indptr, major + 1, 1)
        indptr = np.cumsum(indptr)
        cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
        r = cls((data[order], minor[order], indptr), shape=a.shape)
        assert not r.has_canonical_format
        return r

    def zeros_and_gaps(dt):
        """6 x 5: rows 1 and 3 and columns 0 and 4 empty, two stored zeros."""
        d = np.zeros((6, 5), dtype=dt)
        for i, j in [(0, 1), (0, 3), (2, 2), (4, 1), (4, 2), (5, 3)]:
            d[i, j] = values(1, dt)[0]
        a = sp.csr_matrix(d)
        # stored zeros at (2, 1) and (5, 2), kept by the constructor from arrays
        c = a.tocoo()
        row = np.concatenate([c.row, [2, 5]])
        col = np.concatenate([c.col, [1, 2]])
        data = np.concatenate([c.data, np.zeros(2, dtype=dt)])
        return sp.coo_matrix((data, (row, col)), shape=(6, 5)).tocsr()

    def matrices(dt):
        """The named matrices of dtype dt, each as {format: scipy matrix}."""
        R = random_matrix(6, 5, 0.45, dt)
        S = random_matrix(5, 4, 0.5, dt)
        Z = zeros_and_gaps(dt)
        named = {
            "R": R, "S": S, "Z": Z,
            "E": sp.csr_matrix((6, 5), dtype=dt),
            "one": sp.csr_matrix(values(1, dt).reshape(1, 1)),
            "col": random_matrix(6, 1, 0.7, dt),
            "row": random_matrix(1, 5, 0.7, dt),
            "e0": sp.csr_matrix((0, 5), dtype=dt),
            "e1": sp.csr_matrix((6, 0), dtype=dt),
            "f0": sp.csr_matrix((0, 4), dtype=dt),
            "Rneg": -R,  # R + Rneg and R - R cancel everywhere
            "K1": sp.csr_matrix(np.array([[1.0, 1.0]], dtype=dt)),  # K1 @ K2 = [[0]]
            "K2": sp.csr_matrix(np.array([[1.0], [-1.0]], dtype=dt)),
        }
        out = {}
        for name, a in named.items():
            out[name] = {"csr": a.tocsr(), "csc": a.tocsc(), "coo": a.tocoo()}
        out["U"] = {f: noncanonical(R, f) for f in FORMATS}
        out["SU"] = {f: noncanonical(S, f) for f in FORMATS}
        # Z keeps its stored zeros in every format
        out["Z"] = {"csr": Z, "csc": Z.tocsc(), "coo": Z.tocoo()}
        return out

    def save_matrix(prefix, a, fmt):
        a = a.asformat(fmt)
        m[prefix + f"_{fmt}_data"] = a.data
        if fmt == "coo":
            m[prefix + f"_{fmt}_row"] = a.row.astype(index)
            m[prefix + f"_{fmt}_col"] = a.col.astype(index)
        else:
            m[prefix + f"_{fmt}_indices"] = a.indices.astype(index)
            m[prefix + f"_{fmt}_indptr"] = a.indptr.astype(index)

    def key_of(fields):
        key = ";".join(text(x) if not isinstance(x, str) else x for x in fields)
        assert key not in lines, key
        lines.append(key)
        return key

    def record(key, f):
        try:
            r = f()
        except Exception as e:  # scipy's error is the expected result
            m[f"{key}__error"] = error_text(e)
            return
        if sp.issparse(r):
            fmt = r.format
            m[f"{key}__format"] = np.frombuffer(fmt.encode(), dtype=np.uint8)
            m[f"{key}__shape"] = np.array(r.shape, dtype=np.int64)
            m[f"{key}__data"] = r.data
            if fmt == "coo":
                m[f"{key}__row"] = r.row.astype(np.int64)
                m[f"{key}__col"] = r.col.astype(np.int64)
            else:
                r = r.copy()
                r.sum_duplicates()
                m[f"{key}__data"] = r.data
                m[f"{key}__indices"] = r.indices.astype(np.int64)
                m[f"{key}__indptr"] = r.indptr.astype(np.int64)
        else:
            m[key] = np.asarray(r)

    def dense(dt, name, a):
        m[f"dn_{dt}_{name}"] = np.asarray(a, dtype=dt)
        return m[f"dn_{dt}_{name}"]

    # --- the inputs
    mats = {}
    for dt in ALL_T:
        for index in INDEX:
            ms = matrices(dt)
            mats[dt, index] = ms
            for name, forms in ms.items():
                prefix = f"in_{dt}_{index}_{name}"
                m[prefix + "_shape"] = np.array(forms["csr"].shape, dtype=np.int64)
                for fmt in FORMATS:
                    save_matrix(prefix, forms[fmt], fmt)
    dn = {}
    for dt in ALL_T:
        for n in (0, 1, 4, 5, 6):
            dn[dt, f"x{n}"] = dense(dt, f"x{n}", values(n, dt))
        dn[dt, "X5"] = dense(dt, "X5", values(15, dt).reshape(5, 3))
        dn[dt, "X5t"] = dense(dt, "X5t", values(15, dt).reshape(3, 5))  # X5t.T is 5 x 3
        dn[dt, "X51"] = dense(dt, "X51", values(5, dt).reshape(5, 1))
        dn[dt, "X4"] = dense(dt, "X4", values(8, dt).reshape(4, 2))
        dn[dt, "X0"] = dense(dt, "X0", values(0, dt).reshape(0, 3))
        dn[dt, "X1"] = dense(dt, "X1", values(3, dt).reshape(1, 3))
        dn[dt, "Y6"] = dense(dt, "Y6", values(12, dt).reshape(2, 6))
        dn[dt, "Y6t"] = dense(dt, "Y6t", values(12, dt).reshape(6, 2))  # Y6t.T is 2 x 6
        dn[dt, "Y5"] = dense(dt, "Y5", values(10, dt).reshape(2, 5))
        dn[dt, "Y0"] = dense(dt, "Y0", values(0, dt).reshape(2, 0))
        dn[dt, "X3d"] = dense(dt, "X3d", values(10, dt).reshape(5, 1, 2))
        dn[dt, "s0"] = dense(dt, "s0", values(1, dt).reshape(()))
        if dt not in ARITH_T:
            continue
        dn[dt, "D"] = dense(dt, "D", values(30, dt).reshape(6, 5))
        dn[dt, "Dt"] = dense(dt, "Dt", values(30, dt).reshape(5, 6))  # Dt.T is 6 x 5
        dn[dt, "Drow"] = dense(dt, "Drow", values(5, dt).reshape(1, 5))
        dn[dt, "Dcol"] = dense(dt, "Dcol", values(6, dt).reshape(6, 1))
        dn[dt, "D25"] = dense(dt, "D25", values(10, dt).reshape(2, 5))

    def operand(dt, name):
        """A dense operand by name, '.T' for the transposed view."""
        if name.endswith(".T"):
            return dn[dt, name[:-2]].T
        return dn[dt, name]

    # --- products: every value and index type, every format
    vec_cases = [("R", "x5"), ("U", "x5"), ("Z", "x5"), ("E", "x5"), ("one", "x1"),
                 ("col", "x1"), ("row", "x5"), ("e0", "x5"), ("e1", "x0"), ("R", "x4"),
                 ("R", "s0"), ("R", "X3d")]
    mat_cases = [("R", "X5"), ("U", "X5"), ("R", "X5t.T"), ("U", "X5t.T"), ("Z", "X5"),
                 ("E", "X5"), ("R", "X51"), ("col", "X1"), ("e0", "X5"), ("e1", "X0"),
                 ("R", "X4"), ("R", "X4.T")]
    rvec_cases = [("R", "x6"), ("U", "x6"), ("Z", "x6"), ("row", "x1"), ("e0", "x0"),
                  ("e1", "x6"), ("R", "x5")]
    rmat_cases = [("R", "Y6"), ("U", "Y6"), ("R", "Y6t.T"), ("U", "Y6t.T"), ("E", "Y6"),
                  ("e0", "Y0"), ("R", "Y5"), ("row", "X51")]
    for dt in ALL_T:
        for index in INDEX:
            ms = mats[dt, index]
            for fmt in FORMATS:
                for fn, cases in [("matvec", vec_cases), ("matmat", mat_cases)]:
                    for name, x in cases:
                        if fmt == "coo" and x == "X3d":  # scipy's n-d COO matmul: not cunp's
                            continue
                        key = key_of((fn, dt, index, fmt, name, x))
                        record(key, lambda: ms[name][fmt] @ operand(dt, x))
                for fn, cases in [("rmatvec", rvec_cases), ("rmatmat", rmat_cases)]:
                    for name, x in cases:
                        key = key_of((fn, dt, index, fmt, name, x))
                        record(key, lambda: operand(dt, x) @ ms[name][fmt])
                # the transpose of a matrix as an operand: A.T @ x
                for name, x in [("R", "x6"), ("U", "x6"), ("R", "Y6t")]:
                    key = key_of(("tmatmul", dt, index, fmt, name, x))
                    record(key, lambda: ms[name][fmt].T @ operand(dt, x))
            # sparse @ sparse
            pairs = [("R", "S"), ("U", "SU")]
            for fa in FORMATS:
                for fb in FORMATS:
                    for a, b in pairs:
                        key = key_of(("spgemm", dt, index, fa, a, fb, b))
                        record(key, lambda: ms[a][fa] @ ms[b][fb])
            for a, b, fa, fb in [("Z", "S", "csr", "csr"), ("E", "S", "csr", "csc"),
                                 ("e1", "f0", "csr", "csr"), ("e1", "f0", "coo", "csc"),
                                 ("e1", "f0", "csc", "coo"), ("col", "row", "csr", "csr"),
                                 ("col", "row", "csc", "coo"), ("K1", "K2", "csr", "csr"),
                                 ("K1", "K2", "csc", "csc"), ("K1", "K2", "coo", "coo"),
                                 ("R", "R", "csr", "csr"),
                                 ("e0", "S", "csc", "csr"), ("R", "Rneg", "csr", "csc")]:
                key = key_of(("spgemm", dt, index, fa, a, fb, b))
                record(key, lambda: ms[a][fa] @ ms[b][fb])
            # the transpose as an operand: A.T @ B
            for fa, fb in [("csr", "csr"), ("csc", "coo")]:
                key = key_of(("tspgemm", dt, index, fa, "R", fb, "Rneg"))
                record(key, lambda: ms["R"][fa].T @ ms["Rneg"][fb])

    # --- arithmetic: float64 and complex64, both index types
    for dt in ARITH_T:
        for index in INDEX:
            ms = mats[dt, index]
            pairs = [("R", "U"), ("U", "R")]
            for fa in FORMATS:
                for fb in FORMATS:
                    for a, b in pairs:
                        for fn, f in [("add", lambda x, y: x + y), ("sub", lambda x, y: x - y),
                                      ("mul", lambda x, y: x.multiply(y))]:
                            key = key_of((fn, dt, index, fa, a, fb, b))
                            record(key, lambda: f(ms[a][fa], ms[b][fb]))
            for a, b, fa, fb in [("R", "Z", "csr", "csr"), ("Z", "Z", "csc", "coo"),
                                 ("R", "E", "coo", "csc"), ("R", "Rneg", "csr", "csr"),
                                 ("U", "U", "csr", "coo"), ("one", "one", "csr", "csc"),
                                 ("col", "col", "coo", "coo"), ("e0", "e0", "csr", "csr"),
                                 ("R", "S", "csr", "csr"), ("R", "S", "csc", "coo")]:
                for fn, f in [("add", lambda x, y: x + y), ("sub", lambda x, y: x - y),
                              ("mul", lambda x, y: x.multiply(y))]:
                    key = key_of((fn, dt, index, fa, a, fb, b))
                    record(key, lambda: f(ms[a][fa], ms[b][fb]))
            # with dense operands
            for fmt in FORMATS:
                for name, d in [("R", "D"), ("U", "D"), ("Z", "Drow"), ("U", "Dcol"),
                                ("R", "x5"), ("R", "D25"), ("R", "x6"),
                                ("E", "D"), ("R", "Dt.T")]:
                    key = key_of(("muld", dt, index, fmt, name, d))
                    record(key, lambda: ms[name][fmt].multiply(operand(dt, d)))
                for name, d in [("R", "D"), ("U", "D"), ("R", "x5"), ("R", "Dcol"),
                                ("R", "D25"), ("R", "Dt.T")]:
                    for fn, f in [("addd", lambda x, y: x + y), ("subd", lambda x, y: x - y),
                                  ("raddd", lambda x, y: y + x), ("rsubd", lambda x, y: y - x)]:
                        key = key_of((fn, dt, index, fmt, name, d))
                        record(key, lambda: np.asarray(f(ms[name][fmt], operand(dt, d))))
                # scalars, negation, abs
                for name in ("R", "U", "Z", "E"):
                    for s in (2.5, 3, -1.5 + 0.5j):
                        key = key_of(("scale", dt, index, fmt, name, s))
                        record(key, lambda: ms[name][fmt] * s)
                        key = key_of(("rscale", dt, index, fmt, name, s))
                        record(key, lambda: s * ms[name][fmt])
                    for s in (4, 3.0, 0.5 - 2j, 0, 0.0, 0j):
                        key = key_of(("div", dt, index, fmt, name, s))
                        record(key, lambda: ms[name][fmt] / s)
                    key = key_of(("neg", dt, index, fmt, name))
                    record(key, lambda: -ms[name][fmt])
                    key = key_of(("abs", dt, index, fmt, name))
                    # abs sums duplicates in place in scipy: on a copy here
                    record(key, lambda: abs(ms[name][fmt].copy()))
                # norms
                for name in ("R", "U", "Z", "E", "one", "e0", "e1", "col"):
                    for o in (None, "fro", "f", np.inf, -np.inf, 1, -1, 3, "nuc"):
                        key = key_of(("norm", dt, index, fmt, name, o))
                        record(key, lambda: spl.norm(ms[name][fmt].copy(), o))
                for name in ("R", "U", "Z", "S"):
                    for o in (2, -2):
                        # scipy: svds for 2 (ARPACK), NotImplementedError for -2; cunp computes
                        # both from the singular values, which NumPy's norm of the dense matrix
                        # gives
                        key = key_of(("norm", dt, index, fmt, name, o))
                        record(key, lambda: np.linalg.norm(ms[name][fmt].toarray(), o))
    # float32: scipy divides in float64
    for index in INDEX:
        ms = mats["float32", index]
        for fmt in FORMATS:
            for s in (4, 3.0):
                key = key_of(("div", "float32", index, fmt, "R", s))
                record(key, lambda: ms["R"][fmt] / s)

    m["cases"] = np.frombuffer("\n".join(lines).encode(), dtype=np.uint8)
    np.savez(out / "sparse_products.npz", **m)
