"""NumPy's outputs for element-wise operations (tests/test_ufunc.cpp)."""
import numpy as np

# cunp::dtype's order (bfloat16 has no NumPy dtype and is left out of the promotion tables).
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
NUMPY = [d for d in DTYPES if d != "bfloat16"]


def generate(out):
    save = lambda name, a: np.save(out / f"ufunc_{name}.npy", a)
    code = {d: i for i, d in enumerate(DTYPES)}
    # np.result_type for every pair: the codes of cunp::dtype.
    table = np.array([[code[str(np.result_type(a, b))] for b in NUMPY] for a in NUMPY], dtype=np.int8)
    save("result_type", table)
    # NEP 50 weak scalars: array dtype x (True, 1, 1.0, 1j).
    weak = np.array([[code[str((np.zeros(1, a) + s).dtype)] for s in (True, 1, 1.0, 1j)] for a in NUMPY],
                    dtype=np.int8)
    save("weak", weak)

    rng = np.random.default_rng(7)
    a = rng.standard_normal(1000).astype(np.float32) * 3
    b = rng.standard_normal(1000).astype(np.float32)
    a[[3, 10]] = [np.nan, np.inf]
    b[[4, 11]] = [-np.inf, np.nan]
    save("a", a)
    save("b", b)
    with np.errstate(all="ignore"):
        save("fused_f32", a * b + np.sin(a))
        save("where_f32", np.where(a > 0, a, b))
        save("divide_f32", a / b)
        save("maximum_f32", np.maximum(a, b))
        save("minimum_f32", np.minimum(a, b))
        save("sqrt_f32", np.sqrt(a))
        save("exp_f64", np.exp(a.astype(np.float64)))
        save("log_f32", np.log(a))
        save("tanh_f32", np.tanh(a))
        save("scalar_f32", a * 2.0 - 1.5)
    m = np.arange(12, dtype=np.int32).reshape(3, 4)
    v = np.array([10, 20, 30, 40], dtype=np.int16)
    save("m", m)
    save("v", v)
    save("bcast_add", m + v)
    save("bcast_outer", m[:, :1] * v)
    save("int_div", m / 4)
    i8 = np.array([-128, -1, 0, 1, 127], dtype=np.int8)
    save("i8", i8)
    save("i8_add_wrap", i8 + np.int8(1))
    save("i8_neg", -i8)
    u8 = np.array([0, 1, 200, 255], dtype=np.uint8)
    save("u8", u8)
    save("u8_sub_wrap", u8 - np.uint8(3))
    h = (rng.standard_normal(64) * 10).astype(np.float16)
    save("h", h)
    save("h_fused", h * h + np.float16(1))
    c = (rng.standard_normal(16) + 1j * rng.standard_normal(16)).astype(np.complex64)
    save("c", c)
    save("c_mul_div", c * c / (c + 1))
    rev = np.arange(10, dtype=np.float64)
    rev += rev[::-1]
    save("alias_rev", rev)
    over = np.arange(10, dtype=np.float64)
    over[1:] += over[:-1]
    save("alias_shift", over)
