"""NumPy's outputs for cumsum, cumprod, nancumsum, nancumprod and diff (tests/test_scan.cpp).

Names: scan_<input> for inputs; scan_<input>_<op>_<axis> for results, axis one of 0, 1, 2, m1
(-1), m2 (-2) or flat (axis=None).
"""
import numpy as np

AXES = {2: ["0", "1", "m1", "flat"], 3: ["0", "1", "2", "m1", "m2", "flat"]}
OPS = {"cumsum": np.cumsum, "cumprod": np.cumprod, "nancumsum": np.nancumsum,
       "nancumprod": np.nancumprod}


def axis_of(spec):
    return None if spec == "flat" else -int(spec[1:]) if spec.startswith("m") else int(spec)


def generate(out):
    save = lambda name, a: np.save(out / f"scan_{name}.npy", a)
    rng = np.random.default_rng(11)

    def with_specials(a):
        flat = a.reshape(-1)
        flat[[1, 7, 12]] = [np.nan, np.inf, -np.inf]
        flat[-2] = np.nan
        return a

    c = lambda shape: rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    inputs = {
        "b": rng.random((4, 5)) > 0.4,
        "i8": rng.integers(-128, 128, (3, 4, 5), dtype=np.int8),
        "u8": rng.integers(0, 256, (4, 5), dtype=np.uint8),
        "i32": rng.integers(-1000, 1000, (4, 5), dtype=np.int32),
        "u32": rng.integers(0, 2**32, (3, 4, 5), dtype=np.uint32),
        "i64": np.array([[2**62, 2**62, 2**62, -5, 3],
                         [-2**63, -1, 3, 7, 2**40]], dtype=np.int64),
        "u64": np.array([[2**63, 2**63, 5, 2**32 + 1], [1, 2, 3, 4]], dtype=np.uint64),
        "f16": (rng.standard_normal((3, 4, 5)) * 4).astype(np.float16),
        "f32": rng.standard_normal((3, 4, 5)).astype(np.float32),
        "f64": rng.standard_normal((4, 5)),
        "c64": c((4, 5)).astype(np.complex64),
        "c128": c((3, 4, 5)),
        # NaN and inf, for NaN propagation and the nan- variants
        "f16n": with_specials((rng.standard_normal((4, 5)) * 4).astype(np.float16)),
        "f32n": with_specials(rng.standard_normal((3, 4, 5)).astype(np.float32)),
        "f64n": with_specials(rng.standard_normal((4, 5))),
        "c128n": with_specials(c((4, 5))),
    }
    inputs["c128n"].reshape(-1)[3] = complex(1.0, np.nan)  # NaN in the imaginary part only
    for name, a in inputs.items():
        save(name, a)
        ops = ["cumsum", "cumprod"] + (["nancumsum", "nancumprod"] if a.dtype.kind in "fc" else [])
        for op in ops:
            for spec in AXES[a.ndim]:
                with np.errstate(all="ignore"):
                    save(f"{name}_{op}_{spec}", OPS[op](a, axis=axis_of(spec)))

    # float16 rounds every partial sum: a running sum of ones stops at 2048
    save("f16_ones_cumsum", np.cumsum(np.ones(3000, np.float16)))
    # dtype= (cunp: cumsum<D>)
    save("i8_cumsum_int8_flat", np.cumsum(inputs["i8"], dtype=np.int8))
    save("f16_cumsum_float32_1", np.cumsum(inputs["f16"], axis=1, dtype=np.float32))
    save("i32_cumsum_float64_0", np.cumsum(inputs["i32"], axis=0, dtype=np.float64))
    save("u8_cumprod_uint8_m1", np.cumprod(inputs["u8"], axis=-1, dtype=np.uint8))
    save("b_cumsum_bool_1", np.cumsum(inputs["b"], axis=1, dtype=np.bool_))
    with np.errstate(all="ignore"):  # NaN is replaced before the cast to int64
        save("f64n_nancumprod_int64_flat",
             np.nancumprod(inputs["f64n"][:, :3] * 0 + 2, dtype=np.int64))

    # views: negative strides, transposes, size-1 dimensions
    f64 = inputs["f64"]
    rev = f64[::-1, ::-2]
    for spec in AXES[2]:
        save(f"rev_cumsum_{spec}", np.cumsum(rev, axis=axis_of(spec)))
    i8t = inputs["i8"].transpose(2, 0, 1)
    for spec in AXES[3]:
        save(f"i8t_cumsum_{spec}", np.cumsum(i8t, axis=axis_of(spec)))
    ones_dims = np.arange(5, dtype=np.float64).reshape(1, 5, 1) + 0.5
    save("ones_dims", ones_dims)
    for spec in ["0", "1", "2", "flat"]:
        save(f"ones_dims_cumprod_{spec}", np.cumprod(ones_dims, axis=axis_of(spec)))

    # expressions: a * b + 1 along an axis, a + b flattened
    f32 = inputs["f32"]
    g32 = rng.standard_normal((3, 4, 5)).astype(np.float32)
    save("g32", g32)
    save("expr_cumsum_1", np.cumsum(f32 * g32 + np.float32(1), axis=1))
    save("expr_cumsum_flat", np.cumsum(f32 + g32))
    with np.errstate(all="ignore"):  # inf + -inf
        save("expr_nancumsum_flat", np.nancumsum(inputs["f32n"] * np.float32(2)))

    # diff
    i32 = inputs["i32"]
    for n in range(4):
        save(f"diff_i32_{n}_m1", np.diff(i32, n=n, axis=-1))
    save("diff_i32_2_0", np.diff(i32, n=2, axis=0))
    save("diff_i32_6_0", np.diff(i32, n=6, axis=0))
    save("diff_u8_1_m1", np.diff(inputs["u8"]))
    for n in (1, 2):
        save(f"diff_b_{n}_m1", np.diff(inputs["b"], n=n))
    with np.errstate(all="ignore"):
        save("diff_f64n_1_0", np.diff(inputs["f64n"], axis=0))
        save("diff_f16_3_1", np.diff(inputs["f16"], n=3, axis=1))
    save("diff_c128_1_2", np.diff(inputs["c128"], axis=2))
    save("diff_rev_2_m1", np.diff(rev, n=2))
    save("diff_expr_1_m1", np.diff(f32 * g32))
