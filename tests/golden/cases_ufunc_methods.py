"""NumPy's outputs for the ufunc methods (tests/test_ufunc_methods.cpp): reduce, accumulate,
reduceat and outer; and a ufunc's where= (add__where, absolute__where: out of ones, the mask m,
or its row 0 broadcast).

ufunc_methods_<dtype>.npz holds the inputs x (3, 4), m (a mask of x's shape) and y (5,), and
member <ufunc>__<method>__<variant> for each associative ufunc NumPy has a loop of the dtype for
(REDUCING) and each binary ufunc of OUTER, or <...>__error ("ExceptionType: message" as uint8
text) where NumPy raises. Values are small integers (or multiples of 1/4), so that every result
is exact; x holds a zero, and for inexact dtypes a NaN.
"""
import warnings

import numpy as np

DTYPES = ["bool", "int8", "uint8", "int64", "float32", "float64", "complex128"]
REDUCING = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
            "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"]
OUTER = ["add", "subtract", "multiply", "maximum", "less", "logical_xor", "bitwise_or"]
# variant -> (method, keyword arguments): the test's `methods` table, same order.
METHODS = {
    "reduce__a0": ("reduce", {"axis": 0}),
    "reduce__a1": ("reduce", {"axis": 1}),
    "reduce__none": ("reduce", {"axis": None}),
    "reduce__a1k": ("reduce", {"axis": 1, "keepdims": True}),
    "reduce__iw_a1": ("reduce", {"axis": 1, "initial": 1, "where": "m"}),
    "accumulate__a0": ("accumulate", {"axis": 0}),
    "accumulate__a1": ("accumulate", {"axis": 1}),
    "reduceat__a1": ("reduceat", {"indices": [0, 3, 1, 2], "axis": 1}),
    "reduceat__a0": ("reduceat", {"indices": [0, 2], "axis": 0}),
    "reduceat__am1_one": ("reduceat", {"indices": [1], "axis": -1}),
}


def has_loop(ufunc, dtype):
    """Whether NumPy has a loop of ufunc for inputs of dtype (without casting to another kind)."""
    return any(t.startswith(np.dtype(dtype).char * ufunc.nin) for t in ufunc.types)


def inputs(dtype, rng):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        x = rng.random((3, 4)) < 0.6
        y = rng.random(5) < 0.5
    elif dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -5
        x = rng.integers(lo, 6, (3, 4)).astype(dt)
        y = rng.integers(lo, 6, 5).astype(dt)
    else:
        x = (rng.integers(-8, 9, (3, 4)) / 4).astype(dt)
        y = (rng.integers(-8, 9, 5) / 4).astype(dt)
        if dt.kind == "c":
            x = x + 1j * (rng.integers(-4, 5, (3, 4)) / 4)
            y = y + 1j * (rng.integers(-4, 5, 5) / 4)
        x[2, 1] = np.nan
    x[1, 2] = 0
    return {"x": x, "m": rng.random((3, 4)) < 0.7, "y": y}


def error_text(e):
    name = "AxisError" if isinstance(e, np.exceptions.AxisError) else type(e).__name__
    return np.frombuffer(f"{name}: {e}".encode(), dtype=np.uint8)


def generate(out):
    rng = np.random.default_rng(1808)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for dtype in DTYPES:
                sets = inputs(dtype, rng)
                members = dict(sets)
                x = sets["x"]
                for name in REDUCING:
                    u = getattr(np, name)
                    if not has_loop(u, dtype):
                        continue
                    for variant, (method, kw) in METHODS.items():
                        kw = dict(kw)
                        if kw.get("where") == "m":
                            kw["where"] = sets["m"]
                        if method == "reduceat":
                            args = (x, kw.pop("indices"))
                        else:
                            args = (x,)
                        key = f"{name}__{variant}"
                        try:
                            members[key] = np.asarray(getattr(u, method)(*args, **kw))
                        except (ValueError, TypeError) as e:
                            members[key + "__error"] = error_text(e)
                # where= of a ufunc: only the selected elements of out change.
                o = np.ones_like(x)
                np.add(x, x[::-1], out=o, where=sets["m"])
                members["add__where"] = o
                o = np.ones_like(x)
                np.absolute(x, out=o, where=sets["m"][0])
                members["absolute__where"] = o
                for name in OUTER:
                    u = getattr(np, name)
                    if has_loop(u, dtype):
                        members[f"{name}__outer"] = u.outer(x, sets["y"])
                np.savez(out / f"ufunc_methods_{dtype}.npz", **members)
