"""NumPy's outputs for numpy.pad (tests/test_padding.cpp).

pad_<dtype>.npz holds the inputs (in_<name>) and, for each case <c> of CASES, its arguments as
members the C++ test reads back, so that this table is the only list of cases:
  <c>__in      the input (uint8 text): an in_<name>, or a view of one the test builds by name
               (x2_rev = x2[::-1, ::-2], x3_t = x3.transpose(2, 0, 1), x3_step = x3[:, ::2, 1:])
  <c>__mode    the mode string (uint8 text)
  <c>__width   pad_width as np.asarray gives it: shape () one width, (2,) a pair, (n, 2) per axis
  <c>__cv, <c>__ev, <c>__sl   constant_values, end_values, stat_length, in the same forms (and
               dtypes: bool, int64, float64 or complex128, as np.array makes them)
  <c>__slnone  present when stat_length=None is given
  <c>__rt      reflect_type (uint8 text)
and NumPy's result <c>, or <c>__error ("ExceptionType: message" as uint8 text).

Values of constant_values that NumPy gets as one value or one pair reach it as NumPy scalars,
which wrap or truncate where Python scalars raise; cunp stores every value as a Python scalar
(docs/differences.md), so such cases here use values on which the two agree, and the per-axis
tables (Python scalars in NumPy too) hold the out-of-range ones.
"""
import warnings

import numpy as np

DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64",
          "complex128"]
NAN, INF = float("nan"), float("inf")
STATS = ["maximum", "minimum", "mean", "median"]


def inputs(dtype, rng):
    dt = np.dtype(dtype)

    def draw(shape):
        if dt.kind == "b":
            return rng.random(shape) < 0.5
        if dt.kind in "iu":
            lo = 0 if dt.kind == "u" else -40
            return rng.integers(lo, 60, shape).astype(dt)
        part = rng.integers(-24, 25, shape) / 4
        if dt.kind == "c":
            part = part + 1j * rng.integers(-24, 25, shape) / 4
        return part.astype(dt)

    x2 = draw((3, 4))
    x2[0, 0] = 0  # an edge equal to linear_ramp's default end: a step of 0
    out = {"x0": draw(()), "x1": draw((5,)), "x1one": draw((1,)), "x2": x2,
           "x24": draw((2, 4)), "x3": draw((2, 3, 4)), "e": draw((0, 3)), "e30": draw((3, 0))}
    if dt.kind in "fc":
        xn = draw((2, 5))
        xn[1, 2] = np.nan
        out["xn"] = xn
    return out


def views(sets):
    return {"x2_rev": sets["x2"][::-1, ::-2], "x3_t": sets["x3"].transpose(2, 0, 1),
            "x3_step": sets["x3"][:, ::2, 1:]}


def cases(dtype):
    """name -> (input, pad_width, mode, kwargs)."""
    dt = np.dtype(dtype)
    # Negative ramps into unsigned dtypes are C's undefined casts (NumPy's result depends on the
    # CPU; cunp saturates): the ends stay positive there.
    sign = 1 if dt.kind == "u" else -1
    c = {
        # constant
        "c_default": ("x2", 2, "constant", {}),
        "c_scalar": ("x2", 1, "constant", {"constant_values": 3}),
        "c_pair": ("x2", (1, 2), "constant", {"constant_values": (1, 2)}),
        "c_axes": ("x2", ((1, 2), (0, 3)), "constant", {"constant_values": ((1, 2), (3, 4))}),
        "c_axes1": ("x2", ((1, 2),), "constant", {"constant_values": ((5, 6),)}),
        "c_3d": ("x3", ((1, 0), (0, 2), (2, 1)), "constant",
                 {"constant_values": ((1, 2), (3, 4), (5, 6))}),
        "c_0d": ("x0", 3, "constant", {}),
        "c_0d_pair": ("x0", ((1, 2),), "constant", {"constant_values": 4}),
        "c_zero": ("x3", 0, "constant", {}),
        "c_rev": ("x2_rev", ((2, 1), (1, 3)), "constant", {"constant_values": 2}),
        "c_t": ("x3_t", 1, "constant", {"constant_values": (5, 6)}),
        "c_empty": ("e", 1, "constant", {"constant_values": 7}),
        "c_empty_axes": ("e", ((2, 1), (0, 0)), "constant", {}),
        "c_float": ("x2", 1, "constant", {"constant_values": 2.75}),
        "c_float_axes": ("x2", 1, "constant",
                         {"constant_values": ((2.5, 1.5), (0.25, 1))}),
        "c_neg_float_axes": ("x2", 1, "constant",
                             {"constant_values": ((-1.5, 1), (2, 3))}),
        "c_over_axes": ("x2", 1, "constant", {"constant_values": ((300, 1), (2, 3))}),
        "c_neg_axes": ("x2", 1, "constant", {"constant_values": ((-1, 1), (2, 3))}),
        "c_nan_axes": ("x2", 1, "constant", {"constant_values": ((NAN, 1), (2, 3))}),
        "c_inf_axes": ("x2", 1, "constant", {"constant_values": ((1, 2), (INF, 3))}),
        "c_complex_axes": ("x2", 1, "constant", {"constant_values": ((1j, 1), (2, 3))}),
        "c_big_axes": ("x2", 1, "constant", {"constant_values": ((2**63, 1), (2, 3))}),
        "c_bool_axes": ("x2", 1, "constant", {"constant_values": ((True, False), (False, True))}),
        # edge
        "e_1d": ("x1", (2, 3), "edge", {}),
        "e_2d": ("x2", ((1, 2), (3, 0)), "edge", {}),
        "e_3d": ("x3", 2, "edge", {}),
        "e_0d": ("x0", 2, "edge", {}),
        "e_zero": ("x2", 0, "edge", {}),
        "e_rev": ("x2_rev", ((2, 1), (1, 2)), "edge", {}),
        "e_step": ("x3_step", ((1, 1), (2, 0), (0, 3)), "edge", {}),
        "e_empty": ("e", ((0, 0), (1, 1)), "edge", {}),
        "e_empty_err": ("e", 1, "edge", {}),
        "e_empty_err1": ("e30", 1, "reflect", {}),
        "w_empty_err": ("e", ((1, 0), (0, 0)), "wrap", {}),
        "s_empty": ("e", ((0, 0), (2, 1)), "mean", {"stat_length": 1}),
        "l_empty": ("e", ((0, 0), (2, 2)), "linear_ramp", {"end_values": 1}),
        # wrap
        "w_1d": ("x1", 3, "wrap", {}),
        "w_big": ("x1", (11, 23), "wrap", {}),
        "w_2d": ("x2", ((5, 2), (9, 4)), "wrap", {}),
        "w_3d": ("x3", ((1, 1), (4, 0), (2, 9)), "wrap", {}),
        "w_one": ("x1one", 4, "wrap", {}),
        "w_rev": ("x2_rev", (3, 5), "wrap", {}),
        "w_t": ("x3_t", ((6, 1), (0, 2), (3, 3)), "wrap", {}),
        "w_0d": ("x0", 2, "wrap", {}),
        # linear_ramp
        "l_default": ("x2", 3, "linear_ramp", {}),
        "l_scalar": ("x2", 2, "linear_ramp", {"end_values": 5}),
        "l_float": ("x2", 3, "linear_ramp", {"end_values": sign * 2.5}),
        "l_pair": ("x1", (4, 2), "linear_ramp", {"end_values": (10, sign * 3)}),
        "l_axes": ("x2", ((3, 1), (2, 4)), "linear_ramp", {"end_values": ((1, 2), (3, 4))}),
        "l_axes_float": ("x3", ((1, 2), (0, 3), (2, 1)), "linear_ramp",
                         {"end_values": ((1.5, 2), (3, sign * 4), (0.25, 7))}),
        "l_complex": ("x1", 2, "linear_ramp", {"end_values": 1 + 2j}),
        "l_complex_axes": ("x2", 2, "linear_ramp", {"end_values": ((1j, 2), (3, 4))}),
        "l_bool": ("x2", 2, "linear_ramp", {"end_values": True}),
        "l_0d": ("x0", 2, "linear_ramp", {"end_values": 1j}),
        "l_rev": ("x2_rev", 3, "linear_ramp", {"end_values": 7}),
        "l_step": ("x3_step", ((2, 1), (0, 2), (3, 0)), "linear_ramp", {"end_values": 2}),
        "l_wide": ("x1", 40, "linear_ramp", {"end_values": 3}),
        # errors of the arguments
        "err_neg": ("x2", -1, "constant", {}),
        "err_neg_pair": ("x2", (1, -2), "edge", {}),
        "err_neg_axes": ("x2", ((1, 1), (0, -1)), "constant", {}),
        "err_neg_axes_count": ("x2", ((1, 1), (0, -1), (1, 1)), "constant", {}),
        "err_axes_count": ("x2", ((1, 1), (1, 1), (1, 1)), "constant", {}),
        "err_axes_count_1d": ("x1", ((1, 1), (1, 1)), "wrap", {}),
        "err_axes_count_0d": ("x0", ((1, 1), (2, 2)), "constant", {}),
        "err_cv_count": ("x2", 1, "constant", {"constant_values": ((1, 2), (3, 4), (5, 6))}),
        "err_ev_count": ("x2", 1, "linear_ramp", {"end_values": ((1, 2), (3, 4), (5, 6))}),
        "err_sl_count": ("x2", 1, "mean", {"stat_length": ((1, 2), (3, 4), (5, 6))}),
        "err_sl_neg": ("x2", 1, "median", {"stat_length": -1}),
        "err_sl_neg_count": ("x2", 1, "mean", {"stat_length": ((1, -2), (3, 4), (5, 6))}),
        "err_kw_edge": ("x2", 1, "edge", {"constant_values": 3}),
        "err_kw_constant": ("x2", 1, "constant", {"reflect_type": "odd"}),
        "err_kw_wrap": ("x2", 1, "wrap", {"stat_length": 2}),
        "err_kw_mean": ("x2", 1, "mean", {"end_values": 2}),
        "err_kw_ramp": ("x2", 1, "linear_ramp", {"constant_values": 2}),
        "err_kw_empty": ("x2", 1, "empty", {"reflect_type": "even"}),
        "err_kw_slnone": ("x2", 1, "symmetric", {"stat_length": None}),
        "err_mode": ("x2", 1, "foo", {}),
        "err_mode_case": ("x2", 1, "Reflect", {}),
    }
    for mode in ("reflect", "symmetric"):
        m = mode[0]
        for rt in ("even", "odd"):
            kw = {} if rt == "even" else {"reflect_type": "odd"}
            t = f"{m}{rt[0]}"
            c.update({
                f"{t}_1d": ("x1", 3, mode, kw),
                f"{t}_big": ("x1", (12, 17), mode, kw),
                f"{t}_2d": ("x2", ((2, 5), (7, 1)), mode, kw),
                f"{t}_3d": ("x3", ((1, 3), (2, 2), (5, 0)), mode, kw),
                f"{t}_one": ("x1one", 3, mode, kw),
                f"{t}_rev": ("x2_rev", 3, mode, kw),
                f"{t}_t": ("x3_t", ((1, 2), (3, 4), (0, 1)), mode, kw),
                f"{t}_step": ("x3_step", 3, mode, kw),
                f"{t}_0d": ("x0", 2, mode, kw),
            })
    # Means of means (a later axis averages an earlier axis's pad) are exact here, the counts
    # powers of 2 but along the last axis: sums in another order (docs/differences.md) would
    # differ from NumPy's where the values cancel.
    for stat in STATS:
        t = f"st_{stat}"
        c.update({
            f"{t}_default": ("x24", 2, stat, {}),
            f"{t}_len": ("x2", ((1, 2), (3, 1)), stat, {"stat_length": 2}),
            f"{t}_lenpair": ("x1", 3, stat, {"stat_length": (1, 3)}),
            f"{t}_lenaxes": ("x3", 2, stat, {"stat_length": ((1, 2), (1, 2), (2, 4))}),
            f"{t}_lenbig": ("x1", 2, stat, {"stat_length": 100}),
            f"{t}_rev": ("x2_rev", 2, stat, {"stat_length": ((1, 1), (2, 3))}),
            f"{t}_step": ("x3_step", (1, 2), stat, {}),
            f"{t}_0d": ("x0", 2, stat, {}),
            f"{t}_slnone": ("x24", 1, stat, {"stat_length": None}),
            f"{t}_one": ("x1one", 2, stat, {}),
        })
        if stat in ("maximum", "minimum"):
            c[f"{t}_len0"] = ("x2", 1, stat, {"stat_length": 0})
            c[f"{t}_len0_unused"] = ("x2", ((0, 0), (1, 1)), stat,
                                     {"stat_length": ((0, 2), (3, 4))})
        if dt.kind in "fc":
            c[f"{t}_nan"] = ("xn", 2, stat, {})
            if stat in ("mean", "median"):
                c[f"{t}_len0"] = ("x2", 1, stat, {"stat_length": 0})
    return c


def text(s):
    return np.frombuffer(s.encode(), dtype=np.uint8)


def generate(out):
    rng = np.random.default_rng(20260419)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty means, complex casts
        with np.errstate(all="ignore"):
            for dtype in DTYPES:
                sets = inputs(dtype, rng)
                members = {f"in_{k}": v for k, v in sets.items()}
                arrays = dict(sets, **views(sets))
                for name, (src, width, mode, kw) in cases(dtype).items():
                    members[f"{name}__in"] = text(src)
                    members[f"{name}__mode"] = text(mode)
                    members[f"{name}__width"] = np.asarray(width, dtype=np.int64)
                    for key, tag in (("constant_values", "cv"), ("end_values", "ev"),
                                     ("stat_length", "sl")):
                        if key in kw and kw[key] is None:
                            members[f"{name}__slnone"] = text("")
                        elif key in kw:
                            members[f"{name}__{tag}"] = np.asarray(kw[key])
                    if "reflect_type" in kw:
                        members[f"{name}__rt"] = text(kw["reflect_type"])
                    try:
                        members[name] = np.pad(arrays[src], width, mode, **kw)
                    except (ValueError, TypeError, OverflowError) as e:
                        members[f"{name}__error"] = text(f"{type(e).__name__}: {e}")
                np.savez(out / f"pad_{dtype}.npz", **members)
