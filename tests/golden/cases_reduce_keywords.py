"""NumPy's outputs for the reduction keywords (tests/test_reduce_keywords.cpp): where=, initial=,
dtype=, out= and ddof with where=.

reduce_kw_<dtype>.npz holds the inputs x (3, 4, 5), m (its mask), mrow (4, 5) and mcol (3, 1, 5)
(masks broadcast along the missing axes) and member <function>__<variant> for each reduction and
keyword form of VARIANTS (or <...>__error, "ExceptionType: message" as uint8 text, where NumPy
raises). The variant "rev" reduces the view x[::-1, :, ::-2] under the view m[::-1, :, ::-2],
"empty" the view x[:0] with initial= over axis 0. Values are multiples of 1/8 (sums exact in
every order), integers spread so that products wrap.
"""
import warnings

import numpy as np

from numpy_errors import error_text

DTYPES = ["bool", "int8", "int64", "uint64", "float16", "float32", "float64", "complex128"]

# name -> (input, axis, keepdims, mask, with initial): the test's `variants` table, same order.
VARIANTS = {
    "w_none": ("x", None, False, "m", False),
    "w_a1": ("x", 1, False, "m", False),
    "wrow_a0": ("x", 0, False, "mrow", False),
    "wcol_a02k": ("x", (0, 2), True, "mcol", False),
    "i_a1": ("x", 1, False, None, True),
    "iw_none": ("x", None, False, "m", True),
    "iw_a2k": ("x", 2, True, "m", True),
    "rev_w_a1": ("rev", 1, False, "mrev", False),
    "empty_i_a0": ("empty", 0, False, None, True),
}
INITIAL_FNS = ["sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin"]
WHERE_FNS = ["mean", "nanmean", "any", "all"]
VAR_FNS = ["var", "std", "nanvar", "nanstd"]  # with ddof=1


def initial_of(dtype):
    return True if dtype == "bool" else 3


def inputs(dtype, rng):
    dt = np.dtype(dtype)
    n = 60
    if dt.kind == "b":
        v = rng.random(n) < 0.6
    elif dt == np.int8:
        v = rng.integers(-100, 101, n)
    elif dt == np.int64:
        v = rng.integers(-2**41, 2**41, n) * 2**20
    elif dt == np.uint64:
        v = rng.integers(0, 2**44, n, dtype=np.uint64) * np.uint64(2**20)
    else:
        def part():
            return rng.integers(4, 17, n) * rng.choice([-1, 1], n) / 8
        v = part() + 1j * part() if dt.kind == "c" else part()
    x = np.asarray(v).astype(dt).reshape(3, 4, 5)
    if dt.kind in "fc":
        x[0, 1, 2] = np.nan
    if dt.kind == "f":  # complex products of an infinity depend on the grouping (differences.md)
        x[2, 3, 0] = np.inf
    m = rng.random((3, 4, 5)) < 0.7
    m[1, :, 4] = False  # a slice with nothing selected: empty-slice results
    return {"x": x, "m": m, "mrow": rng.random((4, 5)) < 0.7,
            "mcol": rng.random((3, 1, 5)) < 0.7}



def calls(dtype, sets):
    """(member name, function) for every case of dtype."""
    out = []
    init = initial_of(dtype)
    for v, (src, axis, kd, mask, with_init) in VARIANTS.items():
        kw = {"axis": axis, "keepdims": kd}
        if mask is not None:
            kw["where"] = sets[mask]
        fns = INITIAL_FNS if with_init else INITIAL_FNS + WHERE_FNS + VAR_FNS
        for f in fns:
            if f in VAR_FNS and dtype == "bool":
                continue  # NumPy's var of bool: TypeError; cunp computes it (differences.md)
            args = dict(kw, initial=init) if with_init else dict(kw)
            if f in VAR_FNS:
                args["ddof"] = 1
            out.append((f"{f}__{v}", lambda f=f, src=src, args=args:
                        getattr(np, f)(sets[src], **args)))
    # dtype=: the accumulator and result dtype.
    x = sets["x"]
    if dtype != "complex128":
        out.append(("sum_f32__dtype", lambda: np.sum(x, axis=1, dtype=np.float32)))
        out.append(("mean_f32__dtype", lambda: np.mean(x, axis=1, dtype=np.float32)))
        out.append(("prod_f64__dtype", lambda: np.prod(x, axis=0, dtype=np.float64)))
    if dtype in ["bool", "int8", "float16", "float32", "float64"]:  # squares fit float32
        out.append(("var_f32__dtype", lambda: np.var(x, axis=1, dtype=np.float32)))
    if dtype in ["bool", "int8", "int64", "uint64"]:  # NaN and inf to int8: platform-defined
        out.append(("sum_i8__dtype", lambda: np.sum(x, axis=2, dtype=np.int8)))
    # out=: float64 (complex128) outputs, cast from the result dtype.
    odt = np.complex128 if dtype == "complex128" else np.float64
    o = np.zeros((3, 5), odt)
    np.sum(x, axis=1, out=o)
    out.append(("sum__out_a1", lambda o=o: o))
    o2 = np.zeros((3, 4, 1), odt)
    np.max(x, axis=2, keepdims=True, out=o2, initial=initial_of(dtype), where=sets["m"])
    out.append(("max__out_iw_a2k", lambda o=o2: o2))
    return out


def generate(out):
    rng = np.random.default_rng(1802)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty means, ddof >= n, casts
        with np.errstate(all="ignore"):
            for dtype in DTYPES:
                sets = inputs(dtype, rng)
                members = {k: sets[k] for k in ["x", "m", "mrow", "mcol"]}
                sets["rev"], sets["mrev"] = sets["x"][::-1, :, ::-2], sets["m"][::-1, :, ::-2]
                sets["empty"] = sets["x"][:0]
                for name, fn in calls(dtype, sets):
                    try:
                        members[name] = np.asarray(fn())
                    except (ValueError, TypeError, OverflowError) as e:
                        members[name + "__error"] = error_text(e)
                np.savez(out / f"reduce_kw_{dtype}.npz", **members)
