"""NumPy's outputs for joining and splitting (tests/test_joining.cpp): concatenate, stack,
hstack, vstack, dstack, column_stack, split, array_split, hsplit, vsplit, dsplit.

join_<dtype>.npz holds the inputs (INPUTS) and, for each case of CASES, member <case> (NumPy's
result), or for a list result <case>__n (the number of pieces) and <case>__<k>, or <case>__error
("ExceptionType: message" as uint8 text) where NumPy raises. The test builds the same views of
the inputs (view_sets), walks the same table by name and requires every member to be checked.
bfloat16 values are stored as ml_dtypes' '<V2' bits (cases_reduce.bf16_bits); every value is one
that bfloat16 holds, so that moving it is exact.
"""
import numpy as np

from cases_reduce import bf16_bits
from numpy_errors import error_text

DTYPES = ["bool", "int8", "uint16", "int64", "float16", "bfloat16", "float32", "float64",
          "complex128"]
SHAPES = {"x0": (), "x1": (5,), "y1": (3,), "e1": (0,), "x2": (3, 4), "y2": (3, 2),
          "z2": (2, 4), "e2": (0, 4), "x3": (2, 3, 4), "o3": (1, 3, 1)}
FLOAT_POOL = [-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 1.5, 3.0, 96.0, np.inf, -np.inf, np.nan]


def storage(dtype):
    """The NumPy dtype that holds `dtype`'s values (bfloat16: float32)."""
    return np.dtype("float32" if dtype == "bfloat16" else dtype)


def values(rng, dtype, shape):
    """Distinct-looking values of dtype: signs, extremes that float64 holds exactly, and NaN, the
    infinities and both zeros for inexact types."""
    dt = storage(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = rng.random(n) < 0.5
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, n).astype(dt)
        if n > 2 and dt.itemsize < 8:
            v[0], v[-1] = info.min, info.max
        elif n > 2:
            v[0], v[-1] = -(2**52) if dt.kind == "i" else 2**52, 2**53
    elif dt.kind == "f":
        v = rng.choice(np.array(FLOAT_POOL), n).astype(dt)
    else:
        v = np.empty(n, dt)
        v.real = rng.choice(np.array(FLOAT_POOL), n)
        v.imag = rng.choice(np.array(FLOAT_POOL), n)
    return np.asarray(v).astype(dt).reshape(shape)


def inputs(rng, dtype):
    sets = {name: values(rng, dtype, shape) for name, shape in SHAPES.items()}
    sets["i8"] = rng.integers(-100, 100, (3, 4)).astype(np.int8)  # for mixed-type concatenation
    sets["u8"] = rng.integers(0, 250, (2, 4)).astype(np.uint8)
    return sets


def view_sets(s):
    """The views the test builds from the stored inputs, by the same names."""
    return dict(s, rev=s["x2"][::-1, ::-2], t2=s["x2"].T, rev3=s["x3"][:, ::-1, ::-2],
                col=s["x2"][:, 1], row=s["x2"][1:2])


def cases(s):
    """name -> function: the test's table, same names."""
    x0, x1, y1, e1, x2, y2, z2, e2, x3 = (s[k] for k in
                                          ["x0", "x1", "y1", "e1", "x2", "y2", "z2", "e2", "x3"])
    rev, t2, rev3, col, row = s["rev"], s["t2"], s["rev3"], s["col"], s["row"]
    c = np.concatenate
    return {
        "cat_a0": lambda: c([x2, z2]),
        "cat_a1": lambda: c([x2, y2], axis=1),
        "cat_am1": lambda: c([y2, x2, y2], axis=-1),
        "cat_am2": lambda: c([z2, x2], axis=-2),
        "cat_rev": lambda: c([rev, y2, rev], axis=1),
        "cat_t": lambda: c([t2, t2[::-1]], axis=1),
        "cat_3d": lambda: c([x3, rev3[:, :, :1]], axis=2),
        "cat_empty_first": lambda: c([e2, x2, e2]),
        "cat_empty_only": lambda: c([e2, e2], axis=1),
        "cat_one": lambda: c([rev]),
        "cat_1d": lambda: c([x1, y1, e1, x1[::-2]]),
        "cat_rows": lambda: c([row, row, x2[2:3]]),
        "cat_none": lambda: c([x2, x1, x0], axis=None),
        "cat_none_views": lambda: c([rev, t2, rev3, e2], axis=None),
        "cat_none_0d": lambda: c([x0, x0], axis=None),
        "cat_err_size": lambda: c([x2, y2]),
        "cat_err_size3": lambda: c([x3, x3[:, :2, :3]], axis=1),
        "cat_err_ndim": lambda: c([x2, x1]),
        "cat_err_ndim2": lambda: c([x1, x1, x2]),
        "cat_err_0d": lambda: c([x0, x0]),
        "cat_err_axis": lambda: c([x2, x2], axis=2),
        "cat_err_axis_neg": lambda: c([x2, x2], axis=-3),
        "cat_err_list": lambda: c([]),
        "cat_err_list_none": lambda: c([], axis=None),
        "cat_mixed_i8": lambda: c([x2, s["i8"]], axis=1),
        "cat_mixed_3": lambda: c([s["u8"], x2, s["i8"]]),
        "cat_mixed_none": lambda: c([s["i8"], x1, x0], axis=None),
        "stack_a0": lambda: np.stack([x2, x2[::-1, ::-1], x2]),
        "stack_a1": lambda: np.stack([x2, x2[::-1]], axis=1),
        "stack_am1": lambda: np.stack([x1, x1[::-1]], axis=-1),
        "stack_0d": lambda: np.stack([x0, x0, x0]),
        "stack_empty": lambda: np.stack([e2, e2], axis=2),
        "stack_views": lambda: np.stack([rev, t2[:2].T], axis=-2),
        "stack_err_shape": lambda: np.stack([x2, z2]),
        "stack_err_ndim": lambda: np.stack([x1, x2]),
        "stack_err_axis": lambda: np.stack([x2, x2], axis=3),
        "stack_err_axis_neg": lambda: np.stack([x2, x2], axis=-4),
        "stack_err_list": lambda: np.stack([]),
        "hstack_1d": lambda: np.hstack([x1, y1, e1]),
        "hstack_2d": lambda: np.hstack([x2, y2, rev]),
        "hstack_0d": lambda: np.hstack([x0, x0]),
        "hstack_err": lambda: np.hstack([x2, z2]),
        "hstack_err_list": lambda: np.hstack([]),
        "vstack_2d": lambda: np.vstack([x2, z2, e2]),
        "vstack_1d": lambda: np.vstack([x1, x1[::-1]]),
        "vstack_0d": lambda: np.vstack([x0, x0]),
        "vstack_err": lambda: np.vstack([x1, y1]),
        "dstack_2d": lambda: np.dstack([x2, x2[::-1]]),
        "dstack_1d": lambda: np.dstack([x1, x1]),
        "dstack_0d": lambda: np.dstack([x0, x0]),
        "dstack_3d": lambda: np.dstack([x3, rev3]),
        "dstack_err": lambda: np.dstack([x2, z2]),
        "column_1d": lambda: np.column_stack([x1, x1[::-1]]),
        "column_0d": lambda: np.column_stack([x0, x0]),
        "column_mixed": lambda: np.column_stack([y2, col, rev]),
        "column_err": lambda: np.column_stack([x1, y1]),
        "column_err_list": lambda: np.column_stack([]),
        "split_3d_a2": lambda: np.split(x3, 2, axis=2),
        "split_3d_a1": lambda: np.split(x3, 3, axis=1),
        "split_3d_am2": lambda: np.split(x3, 3, axis=-2),
        "split_idx": lambda: np.split(x1, [2, -1, 10, 1]),
        "split_idx_a2": lambda: np.split(x3, [1], axis=2),
        "split_idx_none": lambda: np.split(x2, []),
        "split_empty": lambda: np.split(e1, 3),
        "split_empty_a0": lambda: np.split(e2, 2),
        "split_size1": lambda: np.split(x2, 4, axis=1),
        "split_views": lambda: np.split(rev, 2, axis=1),
        "split_err_neg": lambda: np.split(x2, -3),
        "split_err_equal": lambda: np.split(x1, 2),
        "split_err_equal_neg": lambda: np.split(x1, -2),
        "split_err_sections": lambda: np.split(x1, -1),
        "split_err_0d": lambda: np.split(x0, 1),
        "split_err_axis": lambda: np.split(x2, 2, axis=2),
        "split_err_axis_neg": lambda: np.split(x2, [1], axis=-3),
        "asplit_5_3": lambda: np.array_split(x1, 3),
        "asplit_more": lambda: np.array_split(x1, 7),
        "asplit_am1": lambda: np.array_split(x3, 3, axis=-1),
        "asplit_idx": lambda: np.array_split(x1, [3, -2, 20, 1]),
        "asplit_views": lambda: np.array_split(rev3, 2, axis=1),
        "asplit_err_zero": lambda: np.array_split(x1, 0),
        "asplit_err_0d": lambda: np.array_split(x0, 1),
        "hsplit_2d": lambda: np.hsplit(x2, 2),
        "hsplit_1d": lambda: np.hsplit(x1, [2]),
        "hsplit_err_0d": lambda: np.hsplit(x0, 1),
        "vsplit_2d": lambda: np.vsplit(x2, [1, 2]),
        "vsplit_err_1d": lambda: np.vsplit(x1, 1),
        "dsplit_3d": lambda: np.dsplit(x3, 2),
        "dsplit_err_2d": lambda: np.dsplit(x2, 1),
    }



def stored(dtype, a):
    """a as the archive stores it: bfloat16 results (float32 here) as their bits."""
    a = np.asarray(a)
    return bf16_bits(a) if dtype == "bfloat16" and a.dtype == np.float32 else a


def run_cases(dtype, table):
    """The archive members of every case of table: results, pieces of lists, or errors."""
    members = {}
    for name, fn in table.items():
        try:
            r = fn()
        except (ValueError, TypeError, IndexError) as e:
            members[name + "__error"] = error_text(e)
            continue
        if isinstance(r, list):
            members[name + "__n"] = np.array(len(r), np.int64)
            for k, piece in enumerate(r):
                members[f"{name}__{k}"] = stored(dtype, piece)
        else:
            members[name] = stored(dtype, r)
    return members


def generate(out):
    rng = np.random.default_rng(1919)
    for dtype in DTYPES:
        s = inputs(rng, dtype)
        members = run_cases(dtype, cases(view_sets(s)))
        members.update({k: stored(dtype, v) for k, v in s.items()})
        np.savez(out / f"join_{dtype}.npz", **members)
