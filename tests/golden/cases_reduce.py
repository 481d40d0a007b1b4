"""NumPy's outputs for reductions (tests/test_reduce.cpp).

reduce_<dtype>_<set>.npz holds, for one input set, every reduction NumPy defines on the dtype
under every axis form: member <set>__<function>__<variant> is NumPy's result, or, when NumPy
raises, <set>__<function>__<variant>__error holds "ExceptionType: message" as uint8 text. The
test walks the same table and requires every member to have been checked.

Input sets (3-D, so that every axis form applies): x (3, 4, 5); rev, tr, bc: views of x the
test builds the same way (x[::-1, :, ::-2], x.transpose(2, 0, 1), broadcast_to(x[:, 1:2, :],
(3, 4, 5))); one (1, 3, 1); empty (0, 3, 0); nan (2, 3, 4) with NaN and infinities (inexact
dtypes). Floating values are multiples of 1/8 of at most 2 in magnitude, so that every sum is
exact in every order and the test compares sums exactly; integer values are spread so that
int64/uint64 sums and every prod wrap.

bfloat16 has no NumPy dtype; ml_dtypes' bfloat16 rounds every addition to bfloat16 (a sum of
1000 x 0.1 gives 32), whereas cunp accumulates in float32 as NumPy does for float16. Its golden
results are NumPy's float32 results of the same values, rounded once to bfloat16.

reduce_special.npz: float16 pairwise sums, a large float32 sum, integer wrap, expression inputs,
fractional ddof and numpy.average with weights.
"""
import warnings

import numpy as np

from numpy_errors import error_text

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128"]

# name -> (axis, keepdims); the test's `variants` table in the same order.
VARIANTS = {"none": (None, False), "a0": (0, False), "a1": (1, False), "am1": (-1, False),
            "a02": ((0, 2), False), "noax": ((), False), "a1k": (1, True), "nonek": (None, True)}
ARG_VARIANTS = ["none", "a0", "a1", "am1", "a1k", "nonek"]  # argmax takes one axis or none
DDOFS = {"": 0, "_ddof1": 1, "_ddof3": 3}  # 3: the length of x's axis 0 (ddof >= n)

PLAIN = ["sum", "prod", "nansum", "nanprod", "mean", "nanmean", "max", "min", "amax", "amin",
         "nanmax", "nanmin", "any", "all", "count_nonzero", "ptp", "average"]
ARGS = ["argmax", "argmin", "nanargmax", "nanargmin"]
VARS = ["var", "std", "nanvar", "nanstd"]

NAN, INF = np.nan, np.inf
NAN_SET = np.array([[[1, NAN, 3, -2], [NAN, NAN, NAN, NAN], [INF, 2, -INF, 0.5]],
                    [[4, 0, NAN, 4], [-1, -3, INF, 2], [NAN, INF, 1, INF]]])


def bf16_bits(a):
    """float32 values rounded to nearest even bfloat16, as '<V2' (how np.save writes ml_dtypes'
    bfloat16 and what cunp::load<bfloat16> reads)."""
    a = np.array(a, np.float32)  # a copy, C-ordered, 0-d kept 0-d
    u = a.view(np.uint32).astype(np.uint64)
    bits = np.where(np.isnan(a), 0x7FC0, (u + 0x7FFF + ((u >> 16) & 1)) >> 16)
    return np.asarray(bits, np.uint16).reshape(a.shape).view("V2")


def storage(dtype):
    """The NumPy dtype that computes for `dtype` (bfloat16: float32)."""
    return np.dtype("float32" if dtype == "bfloat16" else dtype)


def inputs(dtype, rng):
    """The stored input sets of `dtype`: name -> array in storage(dtype)."""
    dt = storage(dtype)

    def values(shape):
        n = int(np.prod(shape))
        if dt.kind == "b":
            return (rng.random(n) < 0.6).reshape(shape)
        if dt == np.int8:
            v = rng.integers(-100, 101, n)
        elif dt == np.int32:
            v = rng.integers(-2**31, 2**31, n)
        elif dt == np.int64:  # multiples of 2^20: exact in float64, sums of 60 too
            v = rng.integers(-2**41, 2**41, n) * 2**20
        elif dt == np.uint8:
            v = rng.integers(0, 256, n)
        elif dt == np.uint64:
            v = rng.integers(0, 2**44, n, dtype=np.uint64) * np.uint64(2**20)
        else:  # multiples of 1/8 in +-[1/2, 2]
            def part():
                return rng.integers(4, 17, n) * rng.choice([-1, 1], n) / 8
            v = part() + 1j * part() if dt.kind == "c" else part()
        v = np.asarray(v).astype(dt)
        v[::17] = 0  # zeros for count_nonzero, any and all
        return v.reshape(shape)

    sets = {"x": values((3, 4, 5)), "one": values((1, 3, 1)), "empty": values((0, 3, 0))}
    if dt.kind in "fc":
        nan = NAN_SET.astype(dt)
        if dt.kind == "c":  # a NaN in an imaginary part only, and imaginary parts elsewhere
            nan = nan + 1j * np.array([0.5, 0, -1, 2] * 6).reshape(2, 3, 4).astype(dt)
            nan[0, 2, 1] = complex(2, NAN)
        sets["nan"] = nan
    return sets


def views(x):
    """The view sets, built from x as the test builds them."""
    return {"rev": x[::-1, :, ::-2], "tr": x.transpose(2, 0, 1),
            "bc": np.broadcast_to(x[:, 1:2, :], (3, 4, 5))}


def calls(dtype):
    """(member name without the set, function of x) for every reduction NumPy defines on dtype."""
    out = []
    for f in PLAIN:
        if f == "ptp" and dtype == "bool":  # NumPy: TypeError, cunp: does not compile
            continue
        for v, (axis, kd) in VARIANTS.items():
            out.append((f"{f}__{v}", lambda x, f=f, axis=axis, kd=kd:
                        getattr(np, f)(x, axis=axis, keepdims=kd)))
    for f in ARGS:
        for v in ARG_VARIANTS:
            axis, kd = VARIANTS[v]
            out.append((f"{f}__{v}", lambda x, f=f, axis=axis, kd=kd:
                        getattr(np, f)(x, axis=axis, keepdims=kd)))
    for f in VARS:
        for suffix, ddof in DDOFS.items():
            for v, (axis, kd) in VARIANTS.items():
                out.append((f"{f}{suffix}__{v}", lambda x, f=f, axis=axis, kd=kd, ddof=ddof:
                            getattr(np, f)(x, axis=axis, ddof=ddof, keepdims=kd)))
    return out


def as_stored(dtype, r):
    """A result as the archive stores it (bfloat16: float32 results rounded to bfloat16)."""
    r = np.asarray(r)
    if dtype == "bfloat16" and r.dtype == np.float32:
        return bf16_bits(r)
    return r



def per_dtype(dtype, rng):
    """{set name: archive members}: a stored set's input under its own name, then the results."""
    sets = inputs(dtype, rng)
    archives = {name: {name: bf16_bits(a) if dtype == "bfloat16" else a}
                for name, a in sets.items()}
    for name, a in views(sets["x"]).items():
        sets[name] = a
        archives[name] = {}
    for set_name, a in sets.items():
        members = archives[set_name]
        for name, fn in calls(dtype):
            key = f"{set_name}__{name}"
            try:
                members[key] = as_stored(dtype, fn(a))
            except ZeroDivisionError:
                # numpy.average of an empty output divides a.size by 0; cunp gives mean's
                # empty result.
                assert name.startswith("average__")
                members[key] = as_stored(dtype, np.mean(a, axis=VARIANTS[name[9:]][0],
                                                        keepdims=VARIANTS[name[9:]][1]))
            except (ValueError, TypeError) as e:
                members[key + "__error"] = error_text(e)
    return archives


def special(rng):
    m = {}
    # float16: NumPy sums contiguous float16 pairwise in float32 and rounds once; a float16
    # running sum of 3000 x 0.1 would stall near 256.
    h = rng.random(5000).astype(np.float16)
    m["f16"] = h
    m["f16_sum"] = np.sum(h)
    m["f16_mean"] = np.mean(h)
    tenth = np.full(3000, 0.1, np.float16)
    m["f16_tenth_sum"] = np.sum(tenth)
    # float32 pairwise summation against NumPy's over 100003 elements.
    f = rng.random(100003).astype(np.float32)
    m["f32"] = f
    for name in ["sum", "mean", "var", "std"]:
        m[f"f32_{name}"] = getattr(np, name)(f)
    # Integer wrap: int64 and uint64 sums, int32 products in int64.
    i64 = np.array([2**62, 2**62, 5, -7], np.int64)
    u64 = np.array([2**63, 2**63, 3], np.uint64)
    i32 = np.array([[65536, 65536, 65536, 3], [-2**31, 2**31 - 1, 7, 1]], np.int32)
    m["i64"], m["u64"], m["i32"] = i64, u64, i32
    m["i64_sum"], m["u64_sum"] = np.sum(i64), np.sum(u64)
    m["i32_prod"], m["i32_prod_a1"] = np.prod(i32), np.prod(i32, axis=1)
    m["i64_prod"] = np.prod(np.array([2**32, 2**32 + 1, 3], np.int64))
    # Expression inputs.
    a = (rng.standard_normal((30, 40)) * 4).astype(np.float32)
    b = (rng.standard_normal((30, 40)) * 4).astype(np.float32)
    m["ea"], m["eb"] = a, b
    m["e_sum_mul"] = np.sum(a * b)
    m["e_max_sub_a1"] = np.max(a - b, axis=1)
    m["e_mean_where"] = np.mean(np.where(a > 0, a, b))
    m["e_argmax_mul_a0"] = np.argmax(a * b, axis=0)
    m["e_var_add_a1"] = np.var(a + b, axis=1)
    m["e_count_gt"] = np.count_nonzero(a > b, axis=0)
    # ddof 0.5 (NumPy takes any non-negative float).
    m["ddof_half_var_a1"] = np.var(a, axis=1, ddof=0.5)
    m["ddof_half_std"] = np.std(a, ddof=0.5)
    # numpy.average with weights.
    x = rng.integers(-8, 9, (3, 4, 5)).astype(np.float64) / 4
    w = rng.integers(1, 5, (3, 4, 5)).astype(np.float64)
    w1, w2 = np.array([1., 2., 0.5, 3.]), np.array([2., 1., 1., 4., 0.5])
    w02 = rng.integers(1, 5, (3, 5)).astype(np.float64)
    m["ax"], m["aw"], m["aw1"], m["aw2"], m["aw02"] = x, w, w1, w2, w02
    m["avg_w"] = np.average(x, weights=w)
    m["avg_w_a1"] = np.average(x, axis=1, weights=w)
    m["avg_w1_a1"] = np.average(x, axis=1, weights=w1)
    m["avg_w2_am1"] = np.average(x, axis=-1, weights=w2)
    m["avg_w2_am1_k"] = np.average(x, axis=-1, weights=w2, keepdims=True)
    m["avg_w02_a02"] = np.average(x, axis=(0, 2), weights=w02)
    m["avg_w20_a20"] = np.average(x, axis=(2, 0), weights=w02.T)
    xi = rng.integers(-50, 50, (3, 4)).astype(np.int32)
    wi = np.array([1, 2, 3, 4], np.int32)
    m["axi"], m["awi"] = xi, wi
    m["avg_int_a1"] = np.average(xi, axis=1, weights=wi)
    m["avg_f32_f64w_a1"] = np.average(x.astype(np.float32), axis=1, weights=w1)
    m["avg_f16_a1"] = np.average(x.astype(np.float16), axis=1, weights=w1.astype(np.float16))
    m["avg_c64_a1"] = np.average((x + 1j * x[::-1]).astype(np.complex64), axis=1,
                                 weights=w1.astype(np.float32))
    return m


def generate(out):
    rng = np.random.default_rng(2026)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty means, all-NaN slices, ddof >= n
        with np.errstate(all="ignore"):
            for dtype in DTYPES:
                for set_name, members in per_dtype(dtype, rng).items():
                    np.savez(out / f"reduce_{dtype}_{set_name}.npz", **members)
            np.savez(out / "reduce_special.npz", **special(rng))
