"""NumPy's outputs for boolean selection (tests/test_selection.cpp): a[m], np.putmask, a[m] = v,
nonzero, argwhere, flatnonzero, compress, extract, select, isin and digitize.

One archive per dtype, selection_<dtype>.npz, and selection_mixed.npz (across dtypes) and
selection_errors.npz (errors that do not depend on the dtype). Inputs are <dtype>_<name>, results
<dtype>_<case>; where NumPy raises, <case>__error holds "ExceptionType: message" as uint8 text.
The C++ test reads every member of an archive (archive::require_all_used), so the cases here and
there are kept side by side by name.
Values hold many zeros (nonzero), -0.0 and NaN (NaN is nonzero and equal to nothing).
"""
import warnings

import numpy as np

ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
       "float16", "float32", "float64", "complex64", "complex128"]
REAL = [d for d in ALL if not d.startswith("complex")]
FLOAT_POOL = [0.0, -0.0, 0.0, 1.5, -2.0, np.nan, np.inf, 3.0, -0.5]


def values(rng, dtype, shape):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -3, 4, shape).astype(dt)
    if dt.kind == "f":
        return rng.choice(np.array(FLOAT_POOL), shape).astype(dt)
    z = np.empty(shape, dtype=dt)
    z.real = rng.choice(np.array([0.0, -0.0, 1.0, np.nan, 2.5]), shape)
    z.imag = rng.choice(np.array([0.0, 0.0, -1.0, np.nan]), shape)
    return z


def error_text(e):
    name = "AxisError" if isinstance(e, np.exceptions.AxisError) else type(e).__name__
    return np.frombuffer(f"{name}: {e}".encode(), dtype=np.uint8)


class Members(dict):
    def put(self, name, fn):
        """NumPy's result of fn() as member `name`, or its error as `name__error`."""
        try:
            r = fn()
        except (ValueError, TypeError, IndexError, OverflowError) as e:
            self[name + "__error"] = error_text(e)
            return
        if isinstance(r, tuple):  # nonzero: stacked, one row per axis
            r = np.stack(r) if r else np.empty((0, 0), np.int64)
        self[name] = np.asarray(r)


def assigned(a, fn):
    """fn applied to a copy of a (np.putmask, a[m] = v), and the copy as the result."""
    b = a.copy()
    fn(b)
    return b


def set_index(b, m, v):
    b[m] = v


def dtype_cases(rng, d, m):
    dt = np.dtype(d)
    x1 = values(rng, d, (37,))
    x2 = values(rng, d, (6, 7))
    x3 = values(rng, d, (3, 4, 5))
    a0 = values(rng, d, ())
    m1 = rng.random(37) < 0.5
    m2 = rng.random((6, 7)) < 0.5
    m2c = np.array([True, False, True, True, False, True])
    m2s = rng.random((6, 4)) < 0.5
    m3 = rng.random((3, 4)) < 0.5
    m3a = np.array([True, False, True])
    k2 = rng.integers(-1, 3, (6, 7)).astype(np.int8)
    k34 = rng.integers(-1, 3, (3, 4)).astype(np.int8)
    rev = x2[::-1, ::-2]
    for name, v in (("x1", x1), ("x2", x2), ("x3", x3), ("a0", a0)):
        m[f"{d}_{name}"] = v
    for name, v in (("m1", m1), ("m2", m2), ("m2s", m2s), ("m3", m3), ("k2", k2),
                    ("k34", k34)):
        m[f"{d}_{name}"] = v

    # a[m]
    m.put(f"{d}_mask_full1", lambda: x1[m1])
    m.put(f"{d}_mask_full2", lambda: x2[m2])
    m.put(f"{d}_mask_rows2", lambda: x2[m2c])
    m.put(f"{d}_mask_lead3", lambda: x3[m3])
    m.put(f"{d}_mask_rows3", lambda: x3[m3a])
    m.put(f"{d}_mask_false2", lambda: x2[np.zeros((6, 7), bool)])
    m.put(f"{d}_mask_true2", lambda: x2[np.ones((6, 7), bool)])
    m.put(f"{d}_mask_rev", lambda: rev[m2s])
    m.put(f"{d}_mask_revmask", lambda: x2[m2[::-1, :]])
    m.put(f"{d}_mask_expr", lambda: x2[k2 > 1])
    m.put(f"{d}_mask_expr_lead3", lambda: x3[k34 > 0])
    m.put(f"{d}_mask_0d_true", lambda: a0[np.True_])
    m.put(f"{d}_mask_0d_false", lambda: a0[np.False_])
    m.put(f"{d}_mask_1d_0dtrue", lambda: x1[np.array(True)])
    m.put(f"{d}_mask_1d_0dfalse", lambda: x1[np.array(False)])
    m.put(f"{d}_mask_empty_rows", lambda: x2[:0][np.zeros(0, bool)])
    m.put(f"{d}_mask_empty_inner", lambda: x2[:, :0][m2c])

    # nonzero and its relatives
    m.put(f"{d}_nz1", lambda: np.nonzero(x1))
    m.put(f"{d}_nz2", lambda: np.nonzero(x2))
    m.put(f"{d}_nz3", lambda: np.nonzero(x3))
    m.put(f"{d}_nz_rev", lambda: np.nonzero(rev))
    m.put(f"{d}_nz_0d", lambda: np.nonzero(a0))
    m.put(f"{d}_argw2", lambda: np.argwhere(x2))
    m.put(f"{d}_argw3", lambda: np.argwhere(x3))
    m.put(f"{d}_argw_rev", lambda: np.argwhere(rev))
    m.put(f"{d}_argw_0d", lambda: np.argwhere(a0))
    m.put(f"{d}_flatnz2", lambda: np.flatnonzero(x2))
    m.put(f"{d}_flatnz_rev", lambda: np.flatnonzero(rev))
    m.put(f"{d}_flatnz_0d", lambda: np.flatnonzero(a0))

    # compress and extract
    c6 = np.array([2, 0, -1, 0, 0, 1], np.int8)
    c4 = np.array([True, False, False, True])
    c8 = np.array([1, 0, 1, 0, 0, 1, 0, 0], np.int8)
    cf = np.array([np.nan, 0.0, -0.0, 0.5, 0.0])
    m[f"{d}_cf"] = cf
    m.put(f"{d}_cmp_a0", lambda: np.compress(c6, x2, axis=0))
    m.put(f"{d}_cmp_short_a1", lambda: np.compress(c4, x2, axis=1))
    m.put(f"{d}_cmp_neg", lambda: np.compress(c4, x3, axis=-2))
    m.put(f"{d}_cmp_last", lambda: np.compress(cf, x3, axis=-1))
    m.put(f"{d}_cmp_none", lambda: np.compress(c8, x2))
    m.put(f"{d}_cmp_long_ok", lambda: np.compress(c8, x2, axis=0))
    m.put(f"{d}_cmp_long_bad", lambda: np.compress(c8, x2[:4], axis=0))
    m.put(f"{d}_cmp_rev", lambda: np.compress(cf, rev, axis=1))
    m.put(f"{d}_cmp_0d", lambda: np.compress(np.array([True]), a0, axis=0))
    m.put(f"{d}_cmp_0d_none", lambda: np.compress(np.array([False]), a0))
    m.put(f"{d}_ext2", lambda: np.extract(k2, x2))
    m.put(f"{d}_ext_short", lambda: np.extract(m3, x2))
    m.put(f"{d}_ext_long_bad", lambda: np.extract(m2, x3[:2]))
    m.put(f"{d}_ext_rev", lambda: np.extract(m2s, rev))

    # np.putmask: values cycled over the flat positions
    v3 = values(rng, d, (3,))
    v60 = values(rng, d, (60,))
    vb = np.array([True, False, True])
    m[f"{d}_v3"] = v3
    m[f"{d}_v60"] = v60
    m.put(f"{d}_pm_short", lambda: assigned(x2, lambda b: np.putmask(b, m2, v3)))
    m.put(f"{d}_pm_long", lambda: assigned(x2, lambda b: np.putmask(b, m2, v60)))
    m.put(f"{d}_pm_shape", lambda: assigned(x2, lambda b: np.putmask(b, m2.reshape(7, 6), v3)))
    m.put(f"{d}_pm_intmask", lambda: assigned(x2, lambda b: np.putmask(b, k2, v3)))
    m.put(f"{d}_pm_scalar", lambda: assigned(x2, lambda b: np.putmask(b, m2, 1)))
    m.put(f"{d}_pm_bool_values", lambda: assigned(x2, lambda b: np.putmask(b, m2, vb)))
    m.put(f"{d}_pm_rev", lambda: assigned(x2, lambda b: np.putmask(b[::-1, ::-2], m2s, v3)))
    m.put(f"{d}_pm_3d", lambda: assigned(x3, lambda b: np.putmask(b, x3 != 0, v60)))

    # a[m] = v: v broadcast to the selection
    count = int(m2.sum())
    vc = values(rng, d, (count,))
    rows = int(m2c.sum())
    vr = values(rng, d, (rows, 7))
    vrow = values(rng, d, (7,))
    vcol = values(rng, d, (rows, 1))
    v35 = values(rng, d, (int(m3.sum()), 5))
    ve = values(rng, d, (int((k2 > 1).sum()),))
    vs = values(rng, d, (int(m2s.sum()),))
    for name, v in (("vc", vc), ("vr", vr), ("vrow", vrow), ("vcol", vcol), ("v35", v35),
                    ("ve", ve), ("vs", vs)):
        m[f"{d}_{name}"] = v
    m.put(f"{d}_as_full", lambda: assigned(x2, lambda b: set_index(b, m2, vc)))
    m.put(f"{d}_as_full_one", lambda: assigned(x2, lambda b: set_index(b, m2, vc[:1])))
    m.put(f"{d}_as_full_scalar", lambda: assigned(x2, lambda b: set_index(b, m2, 1)))
    m.put(f"{d}_as_rows_row", lambda: assigned(x2, lambda b: set_index(b, m2c, vrow)))
    m.put(f"{d}_as_rows_full", lambda: assigned(x2, lambda b: set_index(b, m2c, vr)))
    m.put(f"{d}_as_rows_col", lambda: assigned(x2, lambda b: set_index(b, m2c, vcol)))
    m.put(f"{d}_as_lead3", lambda: assigned(x3, lambda b: set_index(b, m3, v35)))
    m.put(f"{d}_as_lead3_row", lambda: assigned(x3, lambda b: set_index(b, m3, v35[0])))
    m.put(f"{d}_as_expr", lambda: assigned(x2, lambda b: set_index(b, k2 > 1, ve)))
    m.put(f"{d}_as_expr_scalar", lambda: assigned(x2, lambda b: set_index(b, k2 > 1, 1)))
    m.put(f"{d}_as_rev", lambda: assigned(x2, lambda b: set_index(b[::-1, ::-2], m2s, vs)))
    m.put(f"{d}_as_self", lambda: assigned(x2, lambda b: set_index(b, m2c, b[:4])))

    # isin: the test elements of another shape, with repeats and the element's special values
    t = values(rng, d, (4, 3))
    m[f"{d}_t"] = t
    m.put(f"{d}_isin", lambda: np.isin(x2, t))
    m.put(f"{d}_isin_inv", lambda: np.isin(x2, t, invert=True))
    m.put(f"{d}_isin_rev", lambda: np.isin(rev, t[::-1]))
    m.put(f"{d}_isin_0d", lambda: np.isin(a0, t))
    m.put(f"{d}_isin_empty", lambda: np.isin(x2, t[:0], invert=True))

    if d in REAL:
        bins = np.sort(values(rng, d, (5,)))
        if dt.kind == "f":
            bins = bins[~np.isnan(bins)]
        m[f"{d}_bins"] = bins
        m.put(f"{d}_dig", lambda: np.digitize(x2, bins))
        m.put(f"{d}_dig_right", lambda: np.digitize(x2, bins, right=True))
        m.put(f"{d}_dig_dec", lambda: np.digitize(x2, bins[::-1]))
        m.put(f"{d}_dig_dec_right", lambda: np.digitize(rev, bins[::-1], right=True))
        m.put(f"{d}_dig_0d", lambda: np.digitize(a0, bins))

    # select: conditions and choices broadcast; the default weak
    c1 = m2[0]
    m.put(f"{d}_sel", lambda: np.select([m2, c1, k2 > 0], [x2, x2[0], rev[0, 0]], default=0))
    m.put(f"{d}_sel_default", lambda: np.select([m2, k2 > 0], [x2, x2[::-1]], default=x2[1]))


def mixed_cases(m):
    # isin across dtypes: integers exactly, others in the common type
    i8 = np.array([[-3, 1, 2], [127, -128, 5]], np.int8)
    i64 = np.array([2, 300, -128, 7, 2], np.int64)
    f16 = np.array([1.0, 1.0009765625, np.nan, -0.0, 2049.0], np.float16)
    f64 = np.array([1.0009765625, 0.0, np.nan, 2049.0], np.float64)
    u8 = np.array([0, 1, 255], np.uint8)
    b = np.array([True, False])
    i32 = np.array([[1, -1], [0, 255]], np.int32)
    c = np.array([1 + 1j, 2 + 0j, complex(np.nan, 0), -0.0 + 0j])
    for name, v in (("i8", i8), ("i64", i64), ("f16", f16), ("f64", f64), ("u8", u8), ("b", b),
                    ("i32", i32), ("c", c)):
        m[f"mixed_{name}"] = v
    m.put("mixed_isin_i8_i64", lambda: np.isin(i8, i64))
    m.put("mixed_isin_f16_f64", lambda: np.isin(f16, f64))
    m.put("mixed_isin_i32_u8", lambda: np.isin(i32, u8))
    m.put("mixed_isin_b_i32", lambda: np.isin(b, i32))
    m.put("mixed_isin_c_f64", lambda: np.isin(c, f64))
    m.put("mixed_isin_f64_c", lambda: np.isin(f64, c, invert=True))

    # digitize: NaN in x and in the bins, integers against float bins, bins of one value
    x = np.array([np.nan, -1.0, 0.0, 1.0, 2.5, 3.0, np.inf, -np.inf])
    b_nan = np.array([0.0, 1.0, np.nan])
    b_dec_nan = np.array([np.nan, 3.0, 1.0])
    b_same = np.array([1.0, 1.0, 1.0])
    xi = np.array([-2, 0, 1, 2, 3, 9], np.int16)
    bf = np.array([0.5, 1.0, 2.5], np.float32)
    b_big = np.array([2**63 + 1, 2**63, 2], np.uint64)
    x_big = np.array([2**63, 2**63 + 1, 3, 2], np.uint64)
    for name, v in (("dx", x), ("b_nan", b_nan), ("b_dec_nan", b_dec_nan), ("b_same", b_same),
                    ("xi", xi), ("bf", bf), ("b_big", b_big), ("x_big", x_big)):
        m[f"mixed_{name}"] = v
    m.put("mixed_dig_nan", lambda: np.digitize(x, b_nan))
    m.put("mixed_dig_nan_right", lambda: np.digitize(x, b_nan, right=True))
    m.put("mixed_dig_dec_nan", lambda: np.digitize(x, b_dec_nan))
    m.put("mixed_dig_same", lambda: np.digitize(x, b_same))
    m.put("mixed_dig_same_right", lambda: np.digitize(x, b_same, right=True))
    m.put("mixed_dig_int", lambda: np.digitize(xi, bf))
    m.put("mixed_dig_int_right", lambda: np.digitize(xi, bf[::-1], right=True))
    m.put("mixed_dig_big", lambda: np.digitize(x_big, b_big))
    m.put("mixed_dig_empty_bins", lambda: np.digitize(x, x[:0]))
    m.put("mixed_dig_bad", lambda: np.digitize(x, np.array([1.0, 3.0, 2.0])))
    m.put("mixed_dig_bad_nan", lambda: np.digitize(x, np.array([np.nan, 1.0, 2.0])))
    m.put("mixed_dig_complex_x", lambda: np.digitize(c, bf))
    m.put("mixed_dig_complex_bins", lambda: np.digitize(x, c))
    m.put("mixed_dig_2d_bins", lambda: np.digitize(x, i32))
    m.put("mixed_dig_0d_bins", lambda: np.digitize(x, np.array(1.0)))

    # select: the result type of the choices and a weak default; the errors
    f = np.array([[1.5, -2.0, 0.0], [3.0, 4.0, -1.0]], np.float32)
    cnd = f > 0
    m["mixed_sel_f"] = f
    m.put("mixed_sel_i8_f32", lambda: np.select([cnd, f < -1], [i8, i8[:, ::-1]], default=1.5))
    m.put("mixed_sel_wrap", lambda: np.select([cnd], [i8], default=300))
    m.put("mixed_sel_bool", lambda: np.select([cnd], [cnd]))
    m.put("mixed_sel_f32_f64", lambda: np.select([cnd], [f], default=np.float64(0.25)))
    m.put("mixed_sel_0d", lambda: np.select([np.array(True)], [np.array(3.0)]))
    m.put("mixed_sel_len", lambda: np.select([cnd, cnd], [f]))
    m.put("mixed_sel_empty", lambda: np.select([], []))
    m.put("mixed_sel_cond_shapes", lambda: np.select([cnd, cnd[0, :2]], [f, f]))
    m.put("mixed_sel_choice_shapes", lambda: np.select([cnd], [f[:, :2]]))
    m.put("mixed_sel_default_shape", lambda: np.select([cnd], [f], default=f[0, :2]))
    m.put("mixed_sel_not_bool", lambda: np.select([i8], [f]))


def error_cases(m):
    """Errors that do not depend on the dtype, with the operand that each must leave alone."""
    x2 = np.arange(42, dtype=np.float64).reshape(6, 7)
    x1 = np.arange(5, dtype=np.float64)
    m["err_x2"] = x2
    m.put("err_mask_axis0", lambda: x2[np.ones(5, bool)])
    m.put("err_mask_axis1", lambda: x2[np.ones((6, 6), bool)])
    m.put("err_mask_dims", lambda: x1[np.ones((5, 1), bool)])
    m.put("err_as_axis1", lambda: assigned(x2, lambda b: set_index(b, np.ones((6, 8), bool), 1)))
    m.put("err_as_2d", lambda: assigned(x2, lambda b: set_index(b, x2 > 3, x2[:2, :2])))
    m.put("err_as_count", lambda: assigned(x2, lambda b: set_index(b, x2 > 3, x1)))
    m.put("err_as_count0", lambda: assigned(x2, lambda b: set_index(b, x2 > 100, x1)))
    m.put("err_as_rows", lambda: assigned(x2, lambda b: set_index(b, x2[:, 0] > 10, x1)))
    m.put("err_as_rows_count", lambda: assigned(
        x2, lambda b: set_index(b, x2[:, 0] > 10, np.ones((2, 7)))))
    m.put("err_as_rows_dims", lambda: assigned(
        x2, lambda b: set_index(b, x2[:, 0] > 10, np.ones((2, 4, 7)))))
    m.put("err_as_overflow", lambda: assigned(
        x2.astype(np.uint8), lambda b: set_index(b, x2 > 3, 300)))
    m.put("err_pm_size", lambda: assigned(x2, lambda b: np.putmask(b, np.ones(41, bool), x1)))
    m.put("err_pm_cast", lambda: assigned(
        x2.astype(np.int64), lambda b: np.putmask(b, x2 > 3, x1)))
    m.put("err_pm_cast_f16", lambda: assigned(
        x2.astype(np.float16), lambda b: np.putmask(b, x2 > 3, x1.astype(np.float32))))
    m.put("err_pm_overflow", lambda: assigned(
        x2.astype(np.uint8), lambda b: np.putmask(b, x2 > 3, 300)))
    m.put("err_pm_readonly", lambda: np.putmask(
        np.broadcast_to(x1, (3, 5)), np.ones((3, 5), bool), 1.0))
    m.put("err_nz_0d", lambda: np.nonzero(np.array(1.0)))
    m.put("err_cmp_2d", lambda: np.compress(x2 > 3, x2))
    m.put("err_cmp_0d_cond", lambda: np.compress(np.array(True), x2))
    m.put("err_cmp_axis", lambda: np.compress(x1 > 1, x2, axis=2))
    m.put("err_cmp_0d_axis", lambda: np.compress(x1 > 1, np.array(1.0), axis=1))
    m.put("err_cmp_empty_axis", lambda: np.compress(x1 > 1, x2[:, :0], axis=1))
    m.put("err_cmp_empty_ok", lambda: np.compress(x1 > 10, x2[:, :0], axis=1))
    m.put("err_cmp_long", lambda: np.compress(np.arange(10) % 4 == 3, x2, axis=0))
    m.put("err_ext_long", lambda: np.extract(np.ones((7, 7)), x2))
    m.put("err_ext_0d", lambda: np.extract(np.array(5), np.array(2.0)))


def generate(out):
    rng = np.random.default_rng(20261219)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for d in ALL:
                m = Members()
                dtype_cases(rng, d, m)
                np.savez(out / f"selection_{d}.npz", **m)
            for name, cases in (("mixed", mixed_cases), ("errors", error_cases)):
                m = Members()
                cases(m)
                np.savez(out / f"selection_{name}.npz", **m)
