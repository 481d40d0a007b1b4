"""NumPy's outputs for integer-array indexing (tests/test_indexing.cpp): take, put,
take_along_axis, put_along_axis, choose and the ufunc.at family.

indexing_<dtype>.npz holds, for each value dtype, the inputs (named as the test reads them) and
one member per case; put-like cases save the whole array after the call. indexing_index_dtypes
.npz runs each function with every index dtype the test uses. indexing_errors.npz holds NumPy's
errors ("ExceptionType: message" as uint8 text), member <case>__error. Values are small
integers (floats and complex numbers too, NaN aside), so that every update of the ufunc.at family
is exact whatever its order; only add_at__tol sums random floats.
"""
import numpy as np

from numpy_errors import error_text

DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64",
          "complex128"]
INDEX_DTYPES = ["int8", "uint8", "int32", "int64", "uint64"]


def values(rng, dtype, shape, lo=-4, hi=5, nan=False):
    """Small integer values of dtype (bool: random; unsigned: from 0); optionally one NaN."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind == "u":
        lo = max(lo, 0)
    a = rng.integers(lo, hi, shape).astype(dt)
    if dt.kind == "c":
        a = a + 1j * rng.integers(lo, hi, shape).astype(dt)
    if nan and dt.kind in "fc":
        a.reshape(-1)[1] = np.nan
    return a



def after(f, a):
    """The array a after f(a) (a put-like call), a copied first."""
    a = a.copy()
    f(a)
    return a


def dtype_cases(rng, d):
    m = {}
    x = values(rng, d, (3, 4, 5), nan=True)
    i2 = np.array([[2, -1, 0], [-3, 1, 1]], dtype=np.int64)
    iw = np.array([-7, 9, 2, -1, 13], dtype=np.int64)
    i1 = np.array([59, -60, 0, 7, 7, -1], dtype=np.int64)
    m.update(x=x, i2=i2, iw=iw, i1=i1)
    m["take__none"] = np.take(x, i1)
    for tag, ax in (("a0", 0), ("a1", 1), ("am1", -1)):
        m[f"take__{tag}"] = np.take(x, i2, axis=ax)
    m["take__a1__wrap"] = np.take(x, iw, axis=1, mode="wrap")
    m["take__a2__clip"] = np.take(x, iw, axis=2, mode="clip")
    m["take__none__wrap"] = np.take(x, iw * 17, mode="wrap")
    m["take__rev__a2"] = np.take(x[::-1, :, ::-2], i2, axis=2)
    m["take__idxrev__a1"] = np.take(x, i2[:, ::-1], axis=1)
    m["take__scalar__a1"] = np.take(x, -2, axis=1)
    m["take__scalar__none"] = np.asarray(np.take(x, 7))
    m["take__empty_idx__a1"] = np.take(x, np.zeros(0, np.int64), axis=1)
    m["take__empty_a__a1"] = np.take(x[:0], i2, axis=1)
    m["take__0d_idx__a1"] = np.take(x, np.array(2), axis=1)
    m["take__0d_a"] = np.take(x[1, 2, 3], np.array([0, -1, 0]))

    p = values(rng, d, (4, 5))
    pi = np.array([3, -1, 3, 7, 0], dtype=np.int64)
    pv = values(rng, d, (3,))
    pw = np.array([-21, 25, 4, -3], dtype=np.int64)
    m.update(p=p, pi=pi, pv=pv, pw=pw)
    m["put__cycle"] = after(lambda a: np.put(a, pi, pv), p)
    m["put__long_v"] = after(lambda a: np.put(a, pi[:2], np.concatenate([pv, pv])), p)
    m["put__wrap"] = after(lambda a: np.put(a, pw, pv, mode="wrap"), p)
    m["put__clip"] = after(lambda a: np.put(a, pw, pv, mode="clip"), p)
    m["put__view"] = after(lambda a: np.put(a[:, ::-2], pi, pv), p)
    m["put__scalar_v"] = after(lambda a: np.put(a, pi, pv[1]), p)
    m["put__scalar_idx"] = after(lambda a: np.put(a, -3, pv), p)
    m["put__empty_idx"] = after(lambda a: np.put(a, np.zeros(0, np.int64), pv), p)
    m["put__rev_v"] = after(lambda a: np.put(a, pi, pv[::-1]), p)

    t = values(rng, d, (3, 4))
    ti = np.array([[3, 0], [-1, -4], [1, 1]], dtype=np.int64)
    tb = np.array([[2, -1]], dtype=np.int64)
    t0 = np.array([[2, -1, 0, -3], [1, 1, 0, 2]], dtype=np.int64)
    tn = np.array([11, -12, 5, 5, 0], dtype=np.int64)
    tv = values(rng, d, (3, 2))
    m.update(t=t, ti=ti, t0=t0, tb=tb, tn=tn, tv=tv)
    m["tala__a1"] = np.take_along_axis(t, ti, axis=1)
    m["tala__a0"] = np.take_along_axis(t, t0, axis=0)
    m["tala__bcast"] = np.take_along_axis(t, tb, axis=1)
    m["tala__abcast"] = np.take_along_axis(t[:1], ti, axis=1)
    m["tala__none"] = np.take_along_axis(t, tn, axis=None)
    m["tala__rev"] = np.take_along_axis(t[::-1, ::-1], ti, axis=1)
    m["tala__empty"] = np.take_along_axis(t, ti[:, :0], axis=1)
    m["pala__a1"] = after(lambda a: np.put_along_axis(a, ti, tv, axis=1), t)
    m["pala__dup"] = after(lambda a: np.put_along_axis(a, np.zeros((3, 2), np.int64), tv, 1), t)
    m["pala__bcast_v"] = after(lambda a: np.put_along_axis(a, ti, tv[:, :1], axis=1), t)
    m["pala__scalar_v"] = after(lambda a: np.put_along_axis(a, tb, tv[0, 0], axis=1), t)
    m["pala__none"] = after(lambda a: np.put_along_axis(a, tn, tv[:, 0].repeat(2)[:5], None), t)
    m["pala__view"] = after(lambda a: np.put_along_axis(a[:, ::-1], ti, tv, axis=1), t)

    ci = np.array([[0, 1, 2, 2], [2, 1, 0, 0], [1, 1, 2, 0]], dtype=np.int8)
    c0 = values(rng, d, (3, 4))
    c1 = values(rng, d, (4,))
    c2 = values(rng, d, (3, 1))
    cw = np.array([-1, 3, 5, -4], dtype=np.int8)
    m.update(ci=ci, c0=c0, c1=c1, c2=c2, cw=cw)
    m["choose__raise"] = np.choose(ci, [c0, c1, c2])
    m["choose__wrap"] = np.choose(cw, [c0, c1, c2], mode="wrap")
    m["choose__clip"] = np.choose(cw, [c0, c1, c2], mode="clip")
    m["choose__rev"] = np.choose(ci[::-1, ::-2], [c0[:, ::2], c1[::-2], c2])

    aa = values(rng, d, (5, 3), lo=1, hi=4)
    ai = np.array([1, -1, 1, 0, 4, 1, 2], dtype=np.int64)
    av = values(rng, d, (7, 3), lo=-2, hi=3)
    am = values(rng, d, (7, 3), lo=-2, hi=3, nan=True)
    m.update(aa=aa, ai=ai, av=av, am=am)
    m["add_at"] = after(lambda a: np.add.at(a, ai, av), aa)
    if d != "bool":
        m["subtract_at"] = after(lambda a: np.subtract.at(a, ai, av), aa)
    m["multiply_at"] = after(lambda a: np.multiply.at(a, ai, av), aa)
    with np.errstate(invalid="ignore"):
        m["maximum_at"] = after(lambda a: np.maximum.at(a, ai, am), aa)
        m["minimum_at"] = after(lambda a: np.minimum.at(a, ai, am), aa)
    m["add_at__bcast"] = after(lambda a: np.add.at(a, ai, av[0]), aa)
    m["add_at__scalar"] = after(lambda a: np.add.at(a, ai, av[0, 0]), aa)
    m["add_at__2d_idx"] = after(lambda a: np.add.at(a, ai[:6].reshape(2, 3), av[:3]), aa)
    m["add_at__view"] = after(lambda a: np.add.at(a[::-1, ::2], ai, av[:, :2]), aa)
    m["add_at__empty_idx"] = after(lambda a: np.add.at(a, ai[:0], av[0]), aa)
    m["add_at__0d_idx"] = after(lambda a: np.add.at(a, np.array(-2), av[0, 0]), aa)
    if np.dtype(d).kind in "fc":
        tol_i = rng.integers(0, 4, 200)
        tol_v = rng.random(200).astype(d)
        m.update(tol_i=tol_i, tol_v=tol_v)
        m["add_at__tol"] = after(lambda a: np.add.at(a, tol_i, tol_v), np.zeros(4, d))
    return m


def index_dtype_cases(rng):
    m = {}
    x = values(rng, "float64", (3, 4, 5))
    t = values(rng, "int16", (3, 4))
    aa = values(rng, "int32", (5, 2))
    m.update(x=x, t=t, aa=aa)
    for i in INDEX_DTYPES:
        signed = np.dtype(i).kind == "i"
        idx = np.array([[3, -1, 0], [-4, 1, 2]] if signed else [[3, 1, 0], [0, 1, 2]], dtype=i)
        m[f"idx__{i}"] = idx
        # NumPy's put and choose cast indices safely to int64, which refuses uint64; cunp takes
        # uint64 as take does, so NumPy computes those with the same values as int64.
        safe = idx.astype(np.int64)
        m[f"take__{i}"] = np.take(x, idx, axis=1)
        m[f"take__none__{i}"] = np.take(x, idx)
        m[f"put__{i}"] = after(lambda a: np.put(a, safe, [-7, 8]), t)
        m[f"tala__{i}"] = np.take_along_axis(t, idx.T, axis=1)
        m[f"pala__{i}"] = after(lambda a: np.put_along_axis(a, idx[:1], 9, axis=1), t)
        m[f"add_at__{i}"] = after(lambda a: np.add.at(a, idx % 5, 3), aa)
        m[f"choose__{i}"] = np.choose(safe % 2, [x[0, :2, :3], -x[1, :2, :3]])
    # uint64 beyond int64 reads as negative. NumPy's wrap steps a negative index up by the
    # extent one at a time, so only the clip case has an index far below zero.
    big = np.array([2**64 - 1, 2**63 + 1, 5], dtype=np.uint64)
    m["big_u64"] = big
    m["take__big_u64__wrap"] = np.take(x, big[[0, 2]], axis=2, mode="wrap")
    m["take__big_u64__clip"] = np.take(x, big, axis=2, mode="clip")
    return m


def error_cases():
    x = np.zeros((3, 4, 5))
    t = np.zeros((3, 4))
    aa = np.zeros((5, 3))
    c = [np.zeros(4), np.ones(4)]
    cases = {
        "take_oob": lambda: np.take(x, [1, 9, -7, 12], axis=0),
        "take_oob_neg": lambda: np.take(x, [0, -4], axis=0),
        "take_oob_flat": lambda: np.take(x, [3, 60]),
        "take_oob_scalar": lambda: np.take(x, 5, axis=1),
        "take_oob_trailing": lambda: np.take(np.zeros((3, 0)), [7], axis=0),
        "take_empty_axis": lambda: np.take(np.zeros((2, 0)), [0], axis=1),
        "take_axis": lambda: np.take(x, [0], axis=3),
        "take_out_shape": lambda: np.take(x, [0], axis=0, out=np.zeros((2, 4, 5))),
        "put_oob": lambda: np.put(t.copy(), [0, 25, -30], [1.0]),
        "put_oob_scalar": lambda: np.put(t.copy(), -13, [1.0]),
        "put_empty": lambda: np.put(np.zeros(0), [0], [1.0]),
        "tala_oob": lambda: np.take_along_axis(t, np.array([[1, 2], [9, 1], [-7, 0]]), axis=1),
        "tala_ndim": lambda: np.take_along_axis(t, np.array([1]), axis=1),
        "tala_none_ndim": lambda: np.take_along_axis(t, np.array([[1]]), axis=None),
        "tala_bcast": lambda: np.take_along_axis(t, np.zeros((2, 2), np.int64), axis=1),
        "tala_axis": lambda: np.take_along_axis(t, np.zeros((1, 1), np.int64), axis=-3),
        "pala_oob": lambda: np.put_along_axis(t.copy(), np.array([[0], [4], [9]]), 1.0, axis=1),
        "pala_v_shape": lambda: np.put_along_axis(t.copy(), np.zeros((3, 2), np.int64),
                                                  np.ones(4), axis=1),
        "choose_oob": lambda: np.choose(np.array([0, 2, 1, 0]), c),
        "choose_oob_neg": lambda: np.choose(np.array([0, -1, 1, 0]), c),
        "choose_bcast": lambda: np.choose(np.array([0, 1, 0]), c),
        "choose_empty": lambda: np.choose(np.array([0]), []),
        "choose_too_many": lambda: np.choose(np.array([0]), [np.zeros(1)] * 64),
        "add_at_oob": lambda: np.add.at(aa.copy(), [0, 9, 7], 1.0),
        "add_at_oob_trailing": lambda: np.add.at(np.zeros((3, 0)), [9], 1.0),
        "add_at_0d": lambda: np.add.at(np.zeros(()), [0], 1.0),
        "add_at_bcast": lambda: np.add.at(aa.copy(), [0, 1], np.ones(2)),
    }
    m = {}
    for name, f in cases.items():
        try:
            f()
        except Exception as e:  # noqa: BLE001 - NumPy's exception is the golden value
            m[f"{name}__error"] = error_text(e)
        else:
            raise AssertionError(f"{name}: NumPy raised nothing")
    return m


def generate(out):
    rng = np.random.default_rng(1919)
    for d in DTYPES:
        np.savez(out / f"indexing_{d}.npz", **dtype_cases(rng, d))
    np.savez(out / "indexing_index_dtypes.npz", **index_dtype_cases(rng))
    np.savez(out / "indexing_errors.npz", **error_cases())
