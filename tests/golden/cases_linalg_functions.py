"""NumPy's outputs for numpy.linalg's norm, matrix_norm, vector_norm, cond, matrix_rank, pinv,
lstsq, tensorsolve and tensorinv (tests/test_linalg_functions.cpp): linalg_functions.npz.

Member `cases` lists the calls, one a line, as the C++ test parses them: fields separated by
';', the function, the dtype, the inputs (members in_<dtype>_<input>), then the arguments (None,
numbers, inf, -inf, nan, names; an axis "k", a tuple "k,l", "(k,)" or "()"; keepdims and
hermitian 0 or 1; pinv's rtol "novalue" when left out). A call's result is the member named by
its line (lstsq's fields <line>__x, __residuals, __rank, __s), or NumPy's error <line>__error.

Inputs: general matrices are random (square ones with n added to the diagonal: well
conditioned); rank-deficient ones products of small integer matrices (exact in every dtype), so
that their zero singular values are far below every tolerance and the others far above;
Hermitian ones the same with X X^H. Tolerances and cutoffs are asserted to stay clear of every
singular value, so float32 computed in float32 (cunp) decides as NumPy (float64) does.
"""
import numpy as np

from numpy_errors import error_text

DTYPES = ["float32", "float64", "complex64", "complex128", "int32"]
INF = float("inf")
VORDS = [None, 2, INF, -INF, 0, 1, -1, 3, 0.5, -2]
MORDS = [None, "fro", "f", "nuc", INF, -INF, 1, -1, 2, -2]


def text(v):
    """An argument as the C++ test parses it."""
    if v is None:
        return "None"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, tuple):
        return "()" if not v else f"({v[0]},)" if len(v) == 1 else ",".join(map(str, v))
    if isinstance(v, float) and np.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, float) and np.isnan(v):
        return "nan"
    return str(v)


def cast(a, dt):
    a = np.asarray(a)
    if np.dtype(dt).kind == "i":
        return np.round(a.real).astype(dt)
    return a.astype(dt) if np.dtype(dt).kind == "c" else a.real.astype(dt)


def generate(out):
    with np.errstate(all="ignore"):  # NumPy's warnings for 1 / 0 in the p-norms
        make(out)


def make(out):
    rng = np.random.default_rng(20261208)
    m = {}
    lines = []
    L = np.linalg

    def call(fields, f, parts=None, fix=lambda r: r):
        key = ";".join(text(x) if not isinstance(x, str) else x for x in fields)
        assert key not in lines, key
        lines.append(key)
        try:
            r = fix(f())
        except Exception as e:  # NumPy's error is the expected result
            m[f"{key}__error"] = error_text(e)
            return
        if parts is None:
            m[key] = np.asarray(r)
        else:
            for p, v in zip(parts, r):
                m[f"{key}__{p}"] = np.asarray(v)

    def gen(shape, cplx, scale=1.0):
        a = rng.standard_normal(shape)
        if cplx:
            a = a + 1j * rng.standard_normal(shape)
        return scale * a

    def integer_product(shape, inner, cplx):
        """An exact product of small integer matrices: rank <= inner."""
        def part(s):
            a = rng.integers(-3, 4, s).astype(float)
            return a + 1j * rng.integers(-3, 4, s) if cplx else a
        b = part(shape[:-1] + (inner,))
        c = part(shape[:-2] + (inner, shape[-1]))
        return b @ c

    def clear_of(s, cut, factor=2.0):
        """No singular value within a factor of cut."""
        s = np.asarray(s, dtype=float)
        assert np.all((s < cut / factor) | (s > cut * factor)), (s, cut)

    def between(s, i):
        """A cutoff ratio between the normalised singular values i and i + 1."""
        r = np.sqrt(s[i] * s[i + 1]) / s[0]
        clear_of(s / s[0], r, 1.05)
        return float(r)

    def lstsq_fields(r):  # the rank as int64 (NumPy's is LAPACK's int32)
        return r[0], r[1], np.int64(r[2]), r[3]

    for dt in DTYPES:
        cplx = np.dtype(dt).kind == "c"
        ints = np.dtype(dt).kind == "i"
        k = 3.0 if ints else 1.0  # integers: spread before rounding
        inputs = {}

        def inp(name, a):
            a = cast(a, dt)
            m[f"in_{dt}_{name}"] = a
            inputs[name] = a
            return a

        def square(shape):
            n = shape[-1]
            return gen(shape, cplx, k) + (k * n) * np.eye(n)

        inp("v", gen((5,), cplx, k))
        inp("v0", np.zeros((0,)))
        inp("s", np.array(-2.5 if not ints else -2))
        inp("s0", np.array(0.0))
        inp("vz", np.zeros((3,)))
        inp("M", gen((4, 3), cplx, k))
        inp("W", gen((3, 5), cplx, k))
        inp("Q", square((4, 4)))
        inp("B", square((2, 3, 3)))
        inp("B0", np.zeros((0, 3, 3)))
        inp("T", gen((2, 3, 4), cplx, k))
        inp("E", np.zeros((0, 3)))
        inp("E2", np.zeros((3, 0)))
        inp("EB", np.zeros((2, 0, 3)))
        inp("Z", np.zeros((3, 3)))
        inp("D", integer_product((5, 3), 2, cplx))  # rank 2
        db = np.stack([integer_product((4, 4), r, cplx) for r in (4, 2, 1)])
        inp("DB", db)  # ranks 4, 2, 1 (4: an integer matrix, full rank for this seed)
        x = integer_product((4, 2), 2, cplx)
        inp("HD", x @ np.conj(x.T))  # Hermitian, rank 2
        h = gen((4, 4), cplx, k)
        inp("H", h + np.conj(h.T) + np.diag([4.0, -3.0, 2.0, -6.0]) * k)  # Hermitian, indefinite
        for name, shape in [("b4", (4,)), ("b4k", (4, 2)), ("b3", (3,)), ("b3k", (3, 2)),
                            ("b5", (5,)), ("b5k", (5, 3)), ("b4e", (4, 0))]:
            inp(name, gen(shape, cplx, k))
        inp("b0", np.zeros((0,)))
        inp("b0k", np.zeros((0, 2)))
        inp("A6", square((6, 6)).reshape(2, 3, 6))
        inp("A6t", np.moveaxis(inputs["A6"], -1, 0))  # (6, 2, 3): axes=(0,) moves 0 last
        inp("A7", gen((2, 3, 7), cplx, k))
        inp("b23", gen((2, 3), cplx, k))
        inp("b22", gen((2, 2), cplx, k))
        inp("A24", square((24, 24)).reshape(6, 4, 2, 3, 4))
        inp("b64", gen((6, 4), cplx, k))
        inp("T24", square((24, 24)).reshape(4, 6, 8, 3))
        inp("T24b", inputs["T24"].reshape(24, 8, 3))
        inp("one", np.array([[2.0]]))
        inp("one1", np.array([2.0]))
        inp("Z2", np.zeros((2, 0)))
        inp("sq22", square((2, 2)))
        inp("e00", np.zeros((0, 0)))
        if not ints:
            inp("N", np.array([[np.nan, 1.0], [1.0, 2.0]]))
        assert np.linalg.matrix_rank(inputs["DB"]).tolist() == [4, 2, 1]
        assert np.linalg.matrix_rank(inputs["D"]) == 2
        assert np.linalg.matrix_rank(inputs["HD"], hermitian=True) == 2

        def a(name):
            return inputs[name]

        # norm: axis None
        for name in ("v", "v0", "s", "M", "T", "E", "EB", "Q"):
            for kd in (False, True):
                call(("norm", dt, name, None, None, kd), lambda: L.norm(a(name), None, None, kd))
        for name in ("v", "v0"):
            for o in VORDS[1:]:
                call(("norm", dt, name, o, None, False), lambda: L.norm(a(name), o))
        for name in ("M", "Q", "E", "E2"):
            for o in MORDS[1:]:
                for kd in (False, True):
                    call(("norm", dt, name, o, None, kd), lambda: L.norm(a(name), o, None, kd))
        # norm: one axis, two axes, of a 3-d input
        for ax in (0, 2, -2):
            for o in VORDS:
                for kd in (False, True):
                    call(("norm", dt, "T", o, ax, kd), lambda: L.norm(a("T"), o, ax, kd))
        call(("norm", dt, "T", 2, (1,), False), lambda: L.norm(a("T"), 2, (1,)))
        for ax in ((0, 1), (2, 0), (-1, -2), (1, 2)):
            for o in MORDS:
                for kd in (False, True):
                    call(("norm", dt, "T", o, ax, kd), lambda: L.norm(a("T"), o, ax, kd))
        for name in ("E", "E2", "EB"):
            for o in MORDS:
                call(("norm", dt, name, o, (-2, -1), False), lambda: L.norm(a(name), o, (-2, -1)))
        for o in VORDS:
            call(("norm", dt, "E", o, 0, True), lambda: L.norm(a("E"), o, 0, True))
        # norm's errors (and NaN as ord)
        for o, ax, name in [("fro", 0, "M"), ("nuc", None, "v"), (3, None, "M"),
                            ("xyz", None, "M"), ("xyz", 1, "M"), (2, None, "T"), (1, None, "s"),
                            (None, (0, 1, 2), "T"), (None, (1, -2), "T"), (2, (1, 3), "T"),
                            (2, 3, "T"), ("fro", 3, "T"), (float("nan"), (0, 1), "M"),
                            (float("nan"), None, "v"), (None, (), "T"), (2, 0, "s")]:
            call(("norm", dt, name, o, ax, False), lambda: L.norm(a(name), o, ax))
        # matrix_norm, vector_norm
        for name in ("T", "M", "B", "E", "v"):
            for o in MORDS[1:]:
                for kd in (False, True):
                    call(("matrix_norm", dt, name, o, kd),
                         lambda: L.matrix_norm(a(name), keepdims=kd, ord=o))
        for name, ax in [("T", None), ("T", 0), ("T", -1), ("T", (0, 2)), ("T", (2, 0)),
                         ("T", (0, 1, 2)), ("T", ()), ("T", (1,)), ("s", None), ("v0", None),
                         ("T", (0, 0)), ("T", (0, 5)), ("T", 5), ("T", (-4,))]:
            for o in VORDS + ["fro"]:
                for kd in (False, True):
                    call(("vector_norm", dt, name, o, ax, kd),
                         lambda: L.vector_norm(a(name), axis=ax, keepdims=kd, ord=o))
        # cond
        for name in ("Q", "B", "M", "W", "E", "v0", "v", "s", "B0", "e00"):
            for p in [None, 2, -2, "fro", "nuc", INF, -INF, 1, -1, 3, "xyz"]:
                call(("cond", dt, name, p), lambda: L.cond(a(name), p))
        for p in (None, 2, -2):  # a zero matrix: 0 / 0, which cond makes inf
            call(("cond", dt, "Z", p), lambda: L.cond(a("Z"), p))
        for p in ("fro", 1) if not ints else ():  # a NaN stays NaN (inv's path)
            call(("cond", dt, "N", p), lambda: L.cond(a("N"), p))
        # matrix_rank
        for name in ("M", "W", "Q", "D", "DB", "Z", "v", "vz", "s", "s0", "v0", "E", "EB", "B0"):
            call(("matrix_rank", dt, name, None, None, False), lambda: L.matrix_rank(a(name)))
        for name, tol, rtol in [("D", 0.1, None), ("DB", 0.1, None), ("DB", None, 1e-3),
                                ("M", None, 1e-4), ("D", None, 1e-3), ("M", 1.0, 1.0),
                                ("v", 0.5, None)]:
            if a(name).ndim >= 2 and (tol is None or rtol is None):
                sv = L.svd(a(name), compute_uv=False)
                clear_of(sv, tol) if tol is not None else clear_of(sv / sv[..., :1], rtol)
            call(("matrix_rank", dt, name, tol, rtol, False),
                 lambda: L.matrix_rank(a(name), tol=tol, rtol=rtol))
        for name in ("HD", "H", "M"):
            call(("matrix_rank", dt, name, None, None, True),
                 lambda: L.matrix_rank(a(name), hermitian=True))
        # pinv: rtol left out ("novalue"), None or a number
        low = dt in ("float32", "complex64")  # computed in float32: 1e-15 keeps the noise
        for name in ("Q", "M", "W", "B", "D", "DB", "E", "E2", "EB", "B0", "v", "s"):
            for rcond, rtol in [(None, "novalue"), (None, None), (None, 1e-4), (1e-4, "novalue"),
                                (1e-4, None), (1e-4, 1e-4)]:
                if low and rcond is None and rtol == "novalue" and name in ("D", "DB"):
                    continue
                if name == "s" and rcond is None and rtol is None:  # NumPy: max(()) fails
                    continue
                if name in ("D", "DB") and a(name).ndim >= 2:
                    sv = L.svd(a(name), compute_uv=False)
                    clear_of(sv / sv[..., :1], 1e-4)
                kw = {} if rtol == "novalue" else {"rtol": rtol}
                # an empty integer a: NumPy's empty result keeps int32 (cunp's is float64)
                call(("pinv", dt, name, rcond, rtol, False),
                     lambda: L.pinv(a(name), rcond=rcond, **kw),
                     fix=lambda r: r.astype(np.float64) if r.dtype.kind == "i" else r)
        for name in ("HD", "H", "M"):
            for rtol in ("novalue", None):
                if low and rtol == "novalue" and name == "HD":
                    continue
                kw = {} if rtol == "novalue" else {"rtol": rtol}
                call(("pinv", dt, name, None, rtol, True),
                     lambda: L.pinv(a(name), hermitian=True, **kw))
        cut = between(L.svd(a("M"), compute_uv=False), 1)
        call(("pinv", dt, "M", cut, "novalue", False), lambda: L.pinv(a("M"), rcond=cut))
        # lstsq
        pairs = [("M", "b4"), ("M", "b4k"), ("Q", "b4"), ("Q", "b4k"), ("W", "b3"), ("W", "b3k"),
                 ("D", "b5"), ("D", "b5k"), ("E", "b0"), ("E", "b0k"), ("E2", "b3k"),
                 ("E2", "b3"), ("M", "b4e"), ("v", "b4"), ("T", "b4"), ("M", "T"), ("M", "b3"),
                 ("M", "s"), ("Z", "b3")]
        for an, bn in pairs:
            for rcond in (None, -1, 1e-10):
                if an == "D" and rcond is not None:  # a cutoff below float32's (or float64's) noise
                    continue
                call(("lstsq", dt, an, bn, rcond), lambda: L.lstsq(a(an), a(bn), rcond),
                     ("x", "residuals", "rank", "s"), fix=lstsq_fields)
        for rcond in (between(L.svd(a("M"), compute_uv=False), 1), 0.0, 1.0, 2.0):
            call(("lstsq", dt, "M", "b4k", rcond), lambda: L.lstsq(a("M"), a("b4k"), rcond),
                 ("x", "residuals", "rank", "s"), fix=lstsq_fields)
        # tensorsolve, tensorinv
        for an, bn, axes in [("A6", "b23", None), ("A6t", "b23", (0,)), ("A24", "b64", None),
                             ("A7", "b23", None), ("A6", "b23", (5,)), ("A6", "b23", (-1,)),
                             ("sq22", "b22", None), ("one", "one", None), ("e00", "b0", None),
                             ("A6", "b22", None), ("A6", "b23", (0, 0))]:
            call(("tensorsolve", dt, an, bn, axes), lambda: L.tensorsolve(a(an), a(bn), axes))
        for name, ind in [("T24", 2), ("T24b", 1), ("A6", 2), ("A6", 1), ("A6", 0), ("A6", -1),
                          ("Z2", 1), ("one", 5), ("one1", 1), ("sq22", 1), ("e00", 1)]:
            call(("tensorinv", dt, name, ind), lambda: L.tensorinv(a(name), ind))

    m["cases"] = np.frombuffer("\n".join(lines).encode(), dtype=np.uint8)
    np.savez(out / "linalg_functions.npz", **m)
