"""NumPy's isclose, allclose, array_equal and numpy.testing reports (tests/test_checking.cpp).

isclose cases: checking_<case>_{a,b}.npy (inputs) and checking_<case>_{default,loose,nan}.npy
(isclose with the defaults; rtol=1e-3, atol=1e-6; equal_nan=True), and checking_<case>_reduced.npy
holding [allclose, allclose(equal_nan=True), array_equal, array_equal(equal_nan=True)].
Report cases: checking_msg_<case>_{a,b}.npy and checking_msg_<case>.txt, the AssertionError text.
"""
import numpy as np
from numpy.testing import assert_allclose, assert_array_equal

# Relative and absolute nudges around isclose's default tolerances (rtol 1e-5, atol 1e-8) and the
# loose ones (rtol 1e-3, atol 1e-6).
REL = [0.0, 1e-7, 5e-6, 1e-5, 2e-5, 1e-4, 9e-4, 1e-3, 2e-3, 0.5]
ABS = [5e-9, 1e-8, 2e-8, 1e-6, 3e-6]
BASE = [0.0, 1.0, -1.0, 1e-9, 1e-7, 3e-4, 1e3, 1e10, 123.456, -2.5e-3, 7.0, 3e5]
SPECIAL = [(np.inf, np.inf), (np.inf, -np.inf), (-np.inf, -np.inf), (np.inf, 1e30), (1e30, np.inf),
           (np.nan, np.nan), (np.nan, 1.0), (1.0, np.nan), (np.nan, np.inf), (0.0, -0.0),
           (1e-8, 0.0), (0.0, 1e-8), (2e-8, 0.0)]


def float_pairs(t, rng):
    """x and y of dtype t around the tolerance borders, both ways round, plus specials."""
    xs, ys = [], []
    for v in BASE:
        for d in REL:
            for s in (1, -1):
                xs.append(v * (1 + s * d))
                ys.append(v)
        for e in ABS:
            xs.append(v + e)
            ys.append(v)
    for x, y in SPECIAL:
        xs.append(x)
        ys.append(y)
    n = 64
    y = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)
    x = y * (1 + rng.choice(REL, n) * rng.choice([-1, 1], n)) + rng.choice([0.0] + ABS, n)
    with np.errstate(over="ignore"):
        x = np.concatenate([np.array(xs), x]).astype(t)
        y = np.concatenate([np.array(ys), y]).astype(t)
        # Exactly on the border of the default tolerance in t's arithmetic, and one ulp either side.
        if np.dtype(t).kind == "f":
            b = np.array([1.0, 3.0, 1e3, 0.1, 7e-3, 2.0**-10], dtype=t)
            edge = b + (1e-8 + 1e-5 * np.abs(b))  # NumPy's tolerance, in t's arithmetic
            up, down = np.full_like(b, np.inf), np.zeros_like(b)
            x = np.concatenate([x, edge, np.nextafter(edge, up), np.nextafter(edge, down)])
            y = np.concatenate([y, b, b, b])
    return x, y


def complex_pairs(t, rng):
    r = np.finfo(t).dtype.type
    xr, yr = float_pairs(r, rng)
    xi, yi = float_pairs(r, rng)
    x = (xr + 1j * np.roll(xi, 5)).astype(t)
    y = (yr + 1j * np.roll(yi, 5)).astype(t)
    n = 40
    y2 = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(t)
    x2 = (y2 * (1 + rng.choice(REL, n) * np.exp(1j * rng.uniform(0, 6.3, n)))).astype(t)
    return np.concatenate([x, x2]), np.concatenate([y, y2])


def int_pairs(t, rng):
    info = np.iinfo(t)
    y = rng.integers(max(info.min, -10**6), min(info.max, 10**6), 80, endpoint=True).astype(t)
    x = (y.astype(np.float64) + rng.choice([0, 0, 1, -1, 2], 80)).clip(info.min, info.max).astype(t)
    ext = np.array([info.min, info.max, 0, 1, info.max], dtype=t)
    ext_y = np.array([info.min, info.max, 1, 0, info.max - 1], dtype=t)
    return np.concatenate([x, ext]), np.concatenate([y, ext_y])


def pairs(tx, ty, rng):
    def make(t):
        k = np.dtype(t).kind
        return (complex_pairs if k == "c" else int_pairs if k in "iu" else float_pairs)(t, rng)

    if tx == ty:
        return make(tx)
    x, _ = make(tx)
    _, y = make(ty)
    n = min(len(x), len(y))
    return x[:n], y[:n]


ISCLOSE_CASES = [
    ("f64", "float64", "float64"), ("f32", "float32", "float32"), ("f16", "float16", "float16"),
    ("f32_f64", "float32", "float64"), ("f64_f32", "float64", "float32"),
    ("f16_f32", "float16", "float32"), ("i32_f32", "int32", "float32"),
    ("f32_i32", "float32", "int32"), ("i64", "int64", "int64"), ("u8", "uint8", "uint8"),
    ("i8", "int8", "int8"), ("u64_f64", "uint64", "float64"), ("c64", "complex64", "complex64"),
    ("c128", "complex128", "complex128"), ("c64_f64", "complex64", "float64"),
    ("f32_c128", "float32", "complex128"), ("f16_c64", "float16", "complex64"),
]


def generate(out):
    def save(name, a):
        np.save(out / f"checking_{name}.npy", a)

    rng = np.random.default_rng(2024)
    with np.errstate(all="ignore"):
        for name, tx, ty in ISCLOSE_CASES:
            x, y = pairs(tx, ty, rng)
            if tx == "bool":
                x, y = x.astype(bool), y.astype(bool)
            save(f"{name}_a", x)
            save(f"{name}_b", y)
            save(f"{name}_default", np.isclose(x, y))
            save(f"{name}_loose", np.isclose(x, y, rtol=1e-3, atol=1e-6))
            save(f"{name}_nan", np.isclose(x, y, equal_nan=True))
            save(f"{name}_reduced", np.array([np.allclose(x, y), np.allclose(x, y, equal_nan=True),
                                              np.array_equal(x, y),
                                              np.array_equal(x, y, equal_nan=True)]))
        # bool operands: isclose computes in float64.
        bx = rng.integers(0, 2, 20).astype(bool)
        by = rng.integers(0, 2, 20).astype(bool)
        save("bool_a", bx)
        save("bool_b", by)
        save("bool_default", np.isclose(bx, by))

        # Close enough under the defaults, and equal up to NaNs at the same places.
        near = np.linspace(-3, 3, 50)
        save("near_a", near * (1 + 1e-7))
        save("near_b", near)
        save("near_reduced", np.array([np.allclose(near * (1 + 1e-7), near), True,
                                       np.array_equal(near * (1 + 1e-7), near), False]))
        same = np.array([1.0, np.nan, 3.0, np.nan], dtype=np.float32)
        save("samenan_a", same)
        save("samenan_b", same.copy())
        save("samenan_reduced", np.array([np.allclose(same, same.copy()),
                                          np.allclose(same, same.copy(), equal_nan=True),
                                          np.array_equal(same, same.copy()),
                                          np.array_equal(same, same.copy(), equal_nan=True)]))
        cn = np.array([1 + 1j, complex(np.nan, 1), complex(2, np.nan)], dtype=np.complex128)
        cm = np.array([1 + 1j, complex(1, np.nan), complex(np.nan, np.nan)], dtype=np.complex128)
        save("cnan_a", cn)
        save("cnan_b", cm)
        save("cnan_reduced", np.array([np.allclose(cn, cm), np.allclose(cn, cm, equal_nan=True),
                                       np.array_equal(cn, cm),
                                       np.array_equal(cn, cm, equal_nan=True)]))

        # Broadcasting, C++ scalars (weak, like Python scalars) and empty operands.
        col = np.array([[1.0], [2.0], [3.0]])
        row = np.array([1.0, 2.00001, 3.0001, 2.0 + 1e-9])
        save("col", col)
        save("row", row)
        save("bcast", np.isclose(col, row))
        m = (rng.standard_normal((2, 3)) + 1).astype(np.float32)
        v = np.array([1.0, 1.00001, 1.001], dtype=np.float32)
        save("m23", m)
        save("v3", v)
        save("bcast_f32", np.isclose(m, v, rtol=1e-1))
        f32 = (1 + np.array(REL + [-r for r in REL] + [np.nan, np.inf])).astype(np.float32)
        save("s_f32", f32)
        save("s_f32_one", np.isclose(f32, 1.0))
        save("s_one_f32", np.isclose(1.0, f32))
        i32 = np.array([2, 3, -2, 0], dtype=np.int32)
        save("s_i32", i32)
        save("s_i32_half", np.isclose(i32, 2.5, atol=0.5))
        u8 = np.array([0, 255, 44, 45], dtype=np.uint8)
        save("s_u8", u8)
        save("s_u8_300", np.isclose(u8, 300, atol=255))
        save("s_300_u8", np.isclose(300, u8, atol=255))
        f16 = np.array([3.0, 3.001, 2.999, 3.01, np.nan], dtype=np.float16)
        save("s_f16", f16)
        save("s_f16_3", np.isclose(f16, 3))
        save("s_f16_3_nan", np.isclose(f16, np.nan, equal_nan=True))
        c64 = np.array([1 + 1j, 1 + 1.00001j, 1.001 + 1j, 0], dtype=np.complex64)
        save("s_c64", c64)
        save("s_c64_1p1j", np.isclose(c64, 1 + 1j))
        save("empty_f64", np.zeros(0))
        save("empty_2x0", np.isclose(np.zeros((2, 0)), np.zeros(0)))

    write_reports(out, rng)


def report(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except AssertionError as e:
        return str(e)
    raise RuntimeError(f"{fn.__name__} passed on {args}")


def write_reports(out, rng):
    """The AssertionError text of numpy.testing, case by case (the C++ test lists the calls)."""
    def case(name, a, b, fn, **kwargs):
        np.save(out / f"checking_msg_{name}_a.npy", a)
        np.save(out / f"checking_msg_{name}_b.npy", b)
        (out / f"checking_msg_{name}.txt").write_text(report(fn, a, b, **kwargs))

    close = assert_allclose
    equal = assert_array_equal
    case("basic", np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.1]), close)
    case("many", np.arange(10.0), np.arange(10.0) + 1, close, err_msg="hello")
    case("long_msg", np.arange(3.0), np.arange(3.0) + 1, close,
         err_msg="a message that is long enough to go on a line of its own " * 2)
    case("shape", np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0, 4.0]), close)
    case("nan_loc", np.array([1.0, np.nan, 3.0]), np.array([1.0, 2.0, np.nan]), close)
    case("inf_loc", np.array([1.0, np.inf, 3.0]), np.array([1.0, 2.0, np.inf]), close)
    case("inf_val", np.array([1.0, np.inf, 3.0, -np.inf]), np.array([1.0, -np.inf, 3.0, -np.inf]),
         close)
    case("big2d", np.arange(2000.0).reshape(40, 50), np.arange(2000.0).reshape(40, 50) * 1.1, close)
    case("f32", np.array([1.0, 2.0, 1e-5, 1 / 3], dtype=np.float32),
         np.array([1.5, 2.0, 2e-5, 0.3], dtype=np.float32), close, rtol=1e-3, atol=1e-6)
    case("f16", np.array([1.0, 2.0, 0.1], dtype=np.float16),
         np.array([1.5, 2.0, 0.2], dtype=np.float16), close)
    case("c128", np.array([1 + 2j, 2j, 3.5 - 1j]), np.array([1 + 2.5j, 1j, 3.5 - 1j]), close)
    case("c64", np.array([1e-5 + 1e7j, -1j], dtype=np.complex64),
         np.array([0, -2j], dtype=np.complex64), close)
    case("int", np.array([1, 2, 3], dtype=np.int32), np.array([1, 2, 5], dtype=np.int32), close)
    case("u8", np.array([1, 2, 3], dtype=np.uint8), np.array([1, 5, 0], dtype=np.uint8), close)
    case("zero_desired", np.array([1.0, 2.0]), np.array([0.0, 0.0]), close)
    case("zero_d", np.array(1.5), np.array(2.0), close)
    case("scalar_desired", np.array([1.0, 2.0, 2.0]), np.array(2.0), close)
    case("nan_unequal", np.array([1.0, np.nan, 3.0]), np.array([1.0, np.nan, 3.5]), close,
         equal_nan=False)
    case("mixed", np.array([1.0, 2.0, 3.25], dtype=np.float32), np.array([1, 2, 3], dtype=np.int64),
         close)
    cube = np.arange(24.0).reshape(2, 3, 4)
    case("three_d", cube, cube + 0.5 * (cube % 7 == 0), close)
    case("tiny", np.array([1e-20, 5e-300, 1e16]), np.array([2e-20, 0.0, 1.1e16]), close)
    case("eq_int", np.array([1, 2, 3], dtype=np.int32), np.array([1, 2, 4], dtype=np.int32), equal)
    case("eq_bool", np.array([True, False, True]), np.array([True, True, False]), equal)
    case("eq_i8_wrap", np.array([127, 0], dtype=np.int8), np.array([-1, 0], dtype=np.int8), equal)
    case("eq_u8", np.array([1, 2, 3], dtype=np.uint8), np.array([1, 5, 4], dtype=np.uint8), equal)
    case("eq_f32_zero", np.array([1.0, 2.0, 3.0], dtype=np.float32),
         np.zeros(3, dtype=np.float32), equal)
    case("eq_shape", np.zeros((2, 3)), np.zeros((3, 2)), equal)
    case("eq_nan", np.array([1.0, np.nan]), np.array([np.nan, 1.0]), equal)
