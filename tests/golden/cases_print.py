"""NumPy's repr() of many arrays (tests/test_print.cpp).

Each case is print_<name>.npy (a C-ordered base array) and print_<name>.txt (repr() of the base
after a view transform), listed in print_cases.txt as "name dtype transform". Transforms make
strided views in C++: none, T (all axes reversed), flip0 (x[::-1]), rev2last (x[..., ::-2]).
bfloat16 bases are saved as their uint16 bits; their repr needs ml_dtypes (skipped without it).
"""
import numpy as np

try:
    import ml_dtypes
except ImportError:  # the bfloat16 cases are then left out of the manifest; the test says so
    ml_dtypes = None

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]


def transform(x, how):
    if how == "T":
        return x.T
    if how == "flip0":
        return x[::-1]
    if how == "rev2last":
        return x[..., ::-2]
    return x


def rows(chunk):
    """A run of consecutive values as rows of 40 (the last, shorter run as a column)."""
    return chunk.reshape(-1, 40 if len(chunk) == 1000 else 1)


def cases():
    """Yields (name, dtype name, base array, transform)."""
    rng = np.random.default_rng(20240611)
    shapes = {"0d": (), "empty": (0,), "empty0x3": (0, 3), "empty3x0": (3, 0), "vec": (7,),
              "2x3": (2, 3), "3x4x5": (3, 4, 5), "big": (2000,), "40x40": (40, 40),
              "1001": (1001,), "1000": (1000,), "12x12x12": (12, 12, 12), "1x1x1": (1, 1, 1)}

    for t in INTS:
        info = np.iinfo(t)
        for sname, shape in shapes.items():
            n = int(np.prod(shape))
            x = (np.arange(n) % (min(info.max, 1000) + 1)).astype(t).reshape(shape)
            if info.min < 0:
                x = (x.astype(np.int64) - np.int64(n // 2) % 100).astype(t).reshape(shape)
            yield f"{t}_{sname}", t, x, "none"
        extremes = np.array([info.min, info.max, 0, 1, info.max // 3], dtype=t)
        yield f"{t}_extremes", t, extremes, "none"
        random = rng.integers(info.min, info.max, (6, 9), dtype=t, endpoint=True)
        yield f"{t}_random", t, random, "none"
        yield f"{t}_T", t, rng.integers(0, 100, (3, 5)).astype(t), "T"
        yield f"{t}_flip0", t, np.arange(24, dtype=t).reshape(4, 6), "flip0"
        yield f"{t}_rev2last", t, np.arange(60, dtype=t).reshape(3, 4, 5), "rev2last"
        yield f"{t}_big_T", t, np.arange(1500).astype(t).reshape(50, 30), "T"
        yield f"{t}_big_rev2last", t, np.arange(4400).astype(t).reshape(10, 11, 40), "rev2last"
    # A row that just fits the line, so dtype= goes to the next line, and one that wraps.
    for n in (9, 10, 11, 12, 16):
        yield f"int8_row_{n}", "int8", np.full(n, -100, dtype=np.int8), "none"
    wide = np.arange(-5, 55, dtype=np.int64).reshape(3, 20) * 10**12
    yield "int64_wide_rows", "int64", wide, "none"
    huge = np.array([2**64 - 1, 2**63, 0, 12345678901234567890], dtype=np.uint64)
    yield "uint64_huge", "uint64", huge, "none"

    yield "bool_0d", "bool", np.array(True), "none"
    yield "bool_0d_false", "bool", np.array(False), "none"
    for sname in ["empty", "empty0x3", "vec", "2x3", "3x4x5", "big", "40x40"]:
        shape = shapes[sname]
        yield f"bool_{sname}", "bool", rng.random(shape) < 0.5, "none"
    yield "bool_T", "bool", rng.random((2, 5)) < 0.5, "T"

    for t in FLOATS:
        f = np.dtype(t).type

        def arr(values, shape=None):
            with np.errstate(all="ignore"):
                a = np.array(values, dtype=np.float64).astype(t)
            return a.reshape(shape) if shape is not None else a

        for sname, shape in shapes.items():
            n = int(np.prod(shape))
            yield f"{t}_{sname}", t, arr(np.arange(n) * 0.25 - n / 16, shape), "none"
        yield f"{t}_0d_frac", t, np.array(f(3.5)), "none"
        yield f"{t}_0d_nan", t, np.array(f(np.nan)), "none"
        yield f"{t}_0d_exp", t, np.array(f(1.5e-7)), "none"
        yield f"{t}_thirds", t, arr([1 / 3, 2 / 3, 1.0, 10 / 3]), "none"
        yield f"{t}_tenths", t, arr([0.1, 0.2, 0.3, 0.7, 1.1]), "none"
        yield f"{t}_ints", t, arr([1, 2, 3, -4]), "none"
        yield f"{t}_neg_zero", t, arr([0.0, -0.0, 1.5]), "none"
        yield f"{t}_zeros", t, arr([0.0, 0.0]), "none"
        yield f"{t}_only_neg_zero", t, arr([-0.0]), "none"
        yield f"{t}_nan_inf", t, arr([np.nan, np.inf, -np.inf, 1.25, -2.0]), "none"
        yield f"{t}_nan_only", t, arr([np.nan, np.nan]), "none"
        yield f"{t}_inf_neginf", t, arr([np.inf, -np.inf]), "none"
        yield f"{t}_nan_posinf", t, arr([np.nan, np.inf]), "none"
        yield f"{t}_nan_long", t, arr([np.nan, 123.456, 0.001]), "none"
        yield f"{t}_ratio_sci", t, arr([1.0, 1500.0, 2.5]), "none"
        yield f"{t}_small_sci", t, arr([5e-5, 1.0, 0.5]), "none"
        yield f"{t}_sci_nan", t, arr([5e-5, np.nan, -np.inf, 1.0]), "none"
        yield f"{t}_sci_neg_zero", t, arr([-0.0, 3e-5, 0.0]), "none"
        yield f"{t}_big", t, arr([1e3, 5e5, 1e6, 1.5e7, 1e8, 3e8]), "none"
        for v in [v for v in [1e-4, 1e3, 1e6, 1e8] if v < np.finfo(t).max]:
            base = f(v)
            for step, tag in [(-1, "below"), (0, "at"), (1, "above")]:
                x = base if step == 0 else np.nextafter(base, f(np.inf) if step > 0 else f(0))
                yield f"{t}_edge_{v:g}_{tag}", t, np.array([x, f(1)], dtype=t), "none"
        yield f"{t}_ratio_1000", t, arr([1.0, 1000.0]), "none"
        yield f"{t}_ratio_1001", t, arr([1.0, 1001.0]), "none"
        yield f"{t}_random", t, arr(rng.standard_normal((4, 6))), "none"
        mags = 10.0 ** rng.integers(-6, 6, 20)
        yield f"{t}_random_mag", t, arr(rng.standard_normal(20) * mags), "none"
        yield f"{t}_wide", t, arr(np.arange(1, 31) / 7.0), "none"
        yield f"{t}_wide_2d", t, arr(np.arange(1, 49) / 7.0, (3, 16)), "none"
        yield f"{t}_big_random", t, arr(rng.standard_normal(2000) * 100), "none"
        yield f"{t}_40x40_random", t, arr(rng.uniform(-1, 1, (40, 40))), "none"
        yield f"{t}_summary_sci", t, arr(np.geomspace(1e-3, 1e3, 1500)), "none"
        yield f"{t}_summary_3d", t, arr(rng.standard_normal((10, 11, 12))), "none"
        yield f"{t}_T", t, arr(rng.standard_normal((3, 4)) * 10), "T"
        yield f"{t}_flip0", t, arr(np.arange(12) * 0.5, (4, 3)), "flip0"
        yield f"{t}_rev2last", t, arr(np.arange(60) / 8, (3, 4, 5)), "rev2last"
        yield f"{t}_big_T", t, arr(rng.standard_normal((50, 30))), "T"
        yield f"{t}_big_flip0", t, arr(rng.standard_normal((40, 30)) * 1e4), "flip0"
        yield f"{t}_big_rev2last", t, arr(rng.standard_normal((10, 11, 40))), "rev2last"
        bits = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}[t]
        raw = rng.integers(0, np.iinfo(bits).max, 24, dtype=bits, endpoint=True)
        yield f"{t}_random_bits", t, raw.view(t).reshape(4, 6), "none"
        if t != "float16":
            yield f"{t}_huge_tiny", t, arr([1e30, -1e-30, 7.0]), "none"
            tiny = np.finfo(t).smallest_subnormal
            yield f"{t}_subnormal", t, np.array([tiny, 1.0], dtype=t), "none"
        if t == "float64":
            yield "float64_exp3", "float64", arr([1e100, 1e-300, -2.5e200]), "none"
            yield "float64_17digits", "float64", arr([0.1 + 0.2, 1 / 3, 2.0**-20]), "none"
    # Every float16 value, 1000 consecutive bit patterns a case (about one binade: positional or
    # scientific notation depending on the magnitude), for binary16's shortest digits.
    all_half = np.arange(65536, dtype=np.uint16).view(np.float16)
    for i in range(0, 65536, 1000):
        yield f"float16_all_{i:05d}", "float16", rows(all_half[i:i + 1000]), "none"

    for t in ["complex64", "complex128"]:
        r = "float32" if t == "complex64" else "float64"

        def carr(re, im, shape=None):
            a = np.empty(len(re), dtype=t)
            with np.errstate(all="ignore"):
                a.real = np.array(re, dtype=np.float64).astype(r)
                a.imag = np.array(im, dtype=np.float64).astype(r)
            return a.reshape(shape) if shape is not None else a

        yield f"{t}_basic", t, carr([1, 0], [2, -1]), "none"
        yield f"{t}_0d", t, np.array(1.5 - 2j, dtype=t), "none"
        yield f"{t}_empty", t, np.zeros(0, dtype=t), "none"
        yield f"{t}_empty0x3", t, np.zeros((0, 3), dtype=t), "none"
        yield f"{t}_2x3", t, carr(np.arange(6) / 4, np.arange(6) - 2.5, (2, 3)), "none"
        yield f"{t}_nan_inf", t, carr([np.nan, 1, np.inf, -np.inf], [1, np.nan, -np.inf, 0]), "none"
        yield f"{t}_mixed_mag", t, carr([1e-6, 3, 1e7], [2, 1e9, -0.5]), "none"
        yield f"{t}_sci_imag", t, carr([1, 2, 3], [1e-8, 0, 5]), "none"
        yield f"{t}_neg_zero", t, carr([-0.0, 0.0], [-0.0, 1.0]), "none"
        re, im = rng.standard_normal(12), rng.standard_normal(12)
        yield f"{t}_random", t, carr(re, im, (3, 4)), "none"
        yield f"{t}_wide", t, carr(np.arange(20) / 3, np.arange(20) / 7), "none"
        yield f"{t}_big", t, carr(rng.standard_normal(1500), rng.standard_normal(1500)), "none"
        yield f"{t}_T", t, carr(np.arange(6), -np.arange(6), (2, 3)), "T"
        yield f"{t}_flip0", t, carr(np.arange(8) * 1.5, np.ones(8), (4, 2)), "flip0"

    if ml_dtypes is not None:
        def bf(values, shape=(-1,)):
            return np.array(values, dtype=np.float32).astype(ml_dtypes.bfloat16).reshape(shape)

        yield "bfloat16_vec", "bfloat16", bf([1.5, 2, 3.14159, 1e10, np.nan, -np.inf, -0.0]), "none"
        yield "bfloat16_0d", "bfloat16", bf(3.14159, ()), "none"
        yield "bfloat16_empty", "bfloat16", bf([]), "none"
        yield "bfloat16_empty0x3", "bfloat16", bf([], (0, 3)), "none"
        yield "bfloat16_2x3", "bfloat16", bf(np.arange(6) / 3, (2, 3)), "none"
        yield "bfloat16_big", "bfloat16", bf(rng.standard_normal(2000)), "none"
        yield "bfloat16_40x40", "bfloat16", bf(rng.standard_normal(1600), (40, 40)), "none"
        yield "bfloat16_wide", "bfloat16", bf(np.arange(40) / 7), "none"
        yield "bfloat16_T", "bfloat16", bf(np.arange(12) * 1e-5, (3, 4)), "T"
        yield "bfloat16_rev2last", "bfloat16", bf(np.arange(60), (3, 4, 5)), "rev2last"
        all_bf = np.arange(65536, dtype=np.uint16).view(ml_dtypes.bfloat16)
        for i in range(0, 65536, 1000):
            yield f"bfloat16_all_{i:05d}", "bfloat16", rows(all_bf[i:i + 1000]), "none"


def generate(out):
    lines = []
    for name, dtype, base, how in cases():
        base = np.ascontiguousarray(base)
        text = repr(transform(base, how))
        stored = base.view(np.uint16) if dtype == "bfloat16" else base
        np.save(out / f"print_{name}.npy", stored)
        (out / f"print_{name}.txt").write_text(text)
        lines.append(f"{name} {dtype} {how}")
    (out / "print_cases.txt").write_text("\n".join(lines) + "\n")
    if ml_dtypes is None:
        print("cases_print: ml_dtypes is not installed, the bfloat16 repr cases are left out")
