"""NumPy's outputs for NumPy 2's remaining ufuncs and element-wise functions
(tests/test_ufunc_extra.cpp).

As cases_ufunc_math.py, with the prefix ux_: a case `name` saves its inputs ux_<name>_0.npy, ...
and NumPy's result ux_<name>_out.npy (two-output ufuncs: _out0 and _out1). types_<ufunc> holds
the result dtype of every input dtype (binary: and weak scalar), -1 for NumPy's TypeError.
"""
import numpy as np

from cases_ufunc_math import DTYPES, Cases, dt

INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLOATS = ["float16", "float32", "float64"]


class ExtraCases(Cases):
    def save(self, name, a):
        np.save(self.out / f"ux_{name}.npy", a)

    def case2(self, name, fn, *inputs):
        """A two-output ufunc: both results."""
        with np.errstate(all="ignore"):
            first, second = fn(*inputs)
        for k, a in enumerate(inputs):
            self.save(f"{name}_{k}", a)
        self.save(f"{name}_out0", np.asarray(first))
        self.save(f"{name}_out1", np.asarray(second))


def type_tables(c):
    code = {d: i for i, d in enumerate(DTYPES)}

    def result(fn, *args):
        try:
            with np.errstate(all="ignore"):
                r = fn(*args)
            return code[str(np.asarray(r).dtype)]
        except Exception:  # TypeError
            return -1

    # bfloat16 is left out (-2) even where ml_dtypes is installed: its promotion is ml_dtypes'
    # own (sinc of bfloat16 gives float32 there), and cunp's bfloat16 follows float16.
    ones = {d: np.ones(2, dt(d)) for d in DTYPES if d != "bfloat16"}
    unary = {"spacing": np.spacing, "bitwise_count": np.bitwise_count, "isposinf": np.isposinf,
             "isneginf": np.isneginf, "sinc": np.sinc, "i0": np.i0,
             "nan_to_num": np.nan_to_num, "modf": lambda a: np.modf(a)[1],
             "frexp0": lambda a: np.frexp(a)[0], "frexp1": lambda a: np.frexp(a)[1]}
    for u, fn in unary.items():
        c.save(f"types_{u}", np.array([result(fn, ones[d]) if d in ones else -2
                                       for d in DTYPES], dtype=np.int8))
    binary = {u: getattr(np, u) for u in ["logaddexp", "logaddexp2", "heaviside", "nextafter",
                                          "ldexp", "float_power", "gcd", "lcm"]}
    binary["divmod"] = lambda a, b: np.divmod(a, b)[0]
    for u, fn in binary.items():
        table = np.full((len(DTYPES), len(DTYPES) + 4), -2, dtype=np.int8)
        for i, a in enumerate(DTYPES):
            for j, b in enumerate(DTYPES):
                if a in ones and b in ones:
                    table[i, j] = result(fn, ones[a], ones[b])
            for k, s in enumerate((True, 1, 1.0, 1j)):  # NEP 50 weak scalars
                if a in ones and a != "bfloat16":
                    table[i, len(DTYPES) + k] = result(fn, ones[a], s)
        c.save(f"types_{u}", table)


def generate(out):
    c = ExtraCases(out)
    type_tables(c)

    # floating point ufuncs
    for u in ["logaddexp", "logaddexp2", "heaviside", "nextafter"]:
        c.binary(u, FLOATS)
    # nextafter(x, y) with x == y (0 and -0 among them): C, NumPy's float32 and float64 and, from
    # NumPy 2.5, its float16 give y; NumPy 2.4's float16 gave x. The data holds y on every NumPy.
    x, y = (np.load(out / f"ux_nextafter_float16_{k}.npy") for k in (0, 1))
    with np.errstate(all="ignore"):
        c.save("nextafter_float16_out", np.where(x == y, y, np.nextafter(x, y)))
    c.binary("logaddexp", [("int8", "uint8")])  # computes in float16
    c.unary("spacing", FLOATS + ["int8", "int32"])
    c.binary("copysign", ["float16"])
    c.unary("signbit", ["float16"])
    c.case("signbit_negnan_float16", np.signbit, np.array([np.nan, -np.nan, -0.0, 0.0], "e"))
    c.binary("float_power", ["int32", "float32", "float64"])
    c.binary("float_power", ["complex64", "complex128"], moderate=True)

    # ldexp: every mantissa against small and out-of-range exponents
    for m, e in [("float16", "int32"), ("float32", "int64"), ("float64", "int32"),
                 ("float64", "int64"), ("int8", "int8"), ("uint16", "uint32")]:
        info = np.iinfo(e)
        small = [v for v in range(-1100, 1100, 37)] + list(range(-30, 31))
        exps = np.array([v for v in small if info.min <= v <= info.max] +
                        [info.min, info.max], dtype=e)
        mant = c.values(m)
        a, b = np.meshgrid(mant, exps, indexing="ij")
        c.case(f"ldexp_{m}_{e}", np.ldexp, a.ravel(), b.ravel())

    # integer ufuncs
    for u in ["gcd", "lcm"]:
        c.binary(u, INTS)
    c.unary("bitwise_count", ["bool"] + INTS)

    # fmod for every dtype it has
    c.binary("fmod", ["bool", "int8", "uint8", "uint16", "int32", "uint32", "int64", "float16"])

    # classification
    for u in ["isposinf", "isneginf"]:
        c.unary(u, ["bool", "int32"] + FLOATS)

    # two-output ufuncs
    for d in ["bool", "int8", "int64", "uint8", "float16", "float32", "float64"]:
        a, b = c.pairs(d, d)
        c.case2(f"divmod_{d}", np.divmod, a, b)
    for d in FLOATS + ["int16"]:
        c.case2(f"modf_{d}", np.modf, c.values(d))
        c.case2(f"frexp_{d}", np.frexp, c.values(d))

    # NumPy's Python-level element-wise functions
    c.unary("sinc", FLOATS + ["int32"])
    c.unary("sinc", ["complex64", "complex128"], moderate=True)
    c.unary("i0", FLOATS + ["int64", "bool"])
    wide = np.concatenate([c.values("float64"), np.linspace(-720, 720, 97)])
    c.case("i0_wide_float64", np.i0, wide)
    c.unary("nan_to_num", FLOATS + ["complex64", "complex128", "int32"])
    c.case("nan_to_num_given_float64", lambda a: np.nan_to_num(a, nan=1.5, posinf=2e300,
                                                               neginf=-3.0), c.values("float64"))
    c.case("nan_to_num_given_float16", lambda a: np.nan_to_num(a, nan=-1.0, posinf=1e10),
           c.values("float16"))

    # shapes: broadcasting, size-1 dims, negative strides
    m = c.values("int32")[:12].reshape(3, 4)
    v = np.array([6, -4, 0, 9], dtype=np.int32)
    c.case("bcast_gcd", np.gcd, m, v)
    c.case("bcast_col_lcm", np.lcm, m[:, :1], v)
    x, y = c.values("float64")[:60], c.values("float64")[30:120]
    c.case("strided_logaddexp", lambda a, b: np.logaddexp(a[::-2], b[1::3]), x, y)
    c.case2("strided_divmod", lambda a, b: np.divmod(a[::-2], b[1::3]), x, y)
