"""NumPy's outputs for the ufunc table (tests/test_ufunc_math.cpp).

Every case `name` saves its inputs um_<name>_0.npy, um_<name>_1.npy, ... and NumPy's result
um_<name>_out.npy. Inputs cover each dtype family's special values (NaN, +-inf, +-0, the integer
extremes, subnormals, branch cuts of the complex functions) and random values of many magnitudes.
"""
import itertools

import numpy as np

try:
    import ml_dtypes
except ImportError:  # bfloat16 cases are then not generated; the C++ test says so
    ml_dtypes = None

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
nan, inf = np.nan, np.inf


def dt(name):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


class Cases:
    def __init__(self, out):
        self.out = out
        self.rng = np.random.default_rng(20240611)

    def save(self, name, a):
        np.save(self.out / f"um_{name}.npy", a)

    def case(self, name, fn, *inputs):
        with np.errstate(all="ignore"):
            result = np.asarray(fn(*inputs))
        for k, a in enumerate(inputs):
            self.save(f"{name}_{k}", a)
        self.save(f"{name}_out", result)

    # -- inputs ---------------------------------------------------------------------------------
    def ints(self, name, nonneg=False):
        info = np.iinfo(name)
        special = [info.min, info.min + 1, -100, -7, -3, -2, -1, 0, 1, 2, 3, 7, 100,
                   info.max - 1, info.max]
        special = [v for v in special if info.min <= v <= info.max and (v >= 0 or not nonneg)]
        lo = 0 if nonneg else info.min
        rand = self.rng.integers(lo, info.max, size=40, endpoint=True, dtype=name)
        small = self.rng.integers(max(lo, -50), 50, size=20, endpoint=True, dtype=name)
        return np.concatenate([np.array(special, dtype=name), rand, small])

    def reals(self, name, extra=()):
        f = np.finfo(np.float32 if name == "bfloat16" else name)
        big = {"float16": 6e4, "bfloat16": 1e38, "float32": 1e38, "float64": 1e300}[name]
        special = [nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0,
                   10.0, -7.25, 100.0, 1e-3, np.pi, -np.pi / 2, 0.99, -0.999, 1.0001,
                   float(f.tiny), -float(f.tiny) * 3, big, -big]
        if name != "bfloat16":
            special += [float(f.smallest_subnormal) * 5, float(f.max), -float(f.max)]
        top = {"float16": 4, "bfloat16": 30, "float32": 30, "float64": 200}[name]
        mag = 10.0 ** self.rng.uniform(-3, 3, 60)
        wide = 10.0 ** self.rng.uniform(-top, top, 20)
        rand = np.concatenate([self.rng.standard_normal(60) * mag,
                               wide * self.rng.choice([-1, 1], 20),
                               self.rng.uniform(-1, 1, 30)])
        vals = np.concatenate([np.array(special + list(extra), dtype=np.float64), rand])
        with np.errstate(over="ignore"):
            return vals.astype(np.float32).astype(dt(name)) if name == "bfloat16" else vals.astype(name)

    def complexes(self, name, moderate=False):
        parts = [nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0]
        grid = [complex(a, b) for a, b in itertools.product(parts, parts)]
        cuts = [complex(x, s) for x in (-3.0, -1.0, -0.5, 0.5, 1.0, 3.0, 1e3) for s in (0.0, -0.0)]
        cuts += [complex(s, y) for y in (-3.0, -1.0, -0.5, 0.5, 1.0, 3.0, 1e3) for s in (0.0, -0.0)]
        big = 1e30 if name == "complex64" else 1e300
        edge = [complex(big, 1.0), complex(-big, big), complex(1e-30, -1e-30), complex(1.0, 1e-8),
                complex(-1.0, 1e-8), complex(1e-8, 1.0), complex(0.6, 0.8), complex(0.8, -0.6),
                complex(20.0, 1.0), complex(-20.0, 3.0), complex(1.0, 20.0), complex(0.3, -40.0),
                complex(85.0, 0.5), complex(-85.0, 2.0)]
        if name == "complex128":
            edge += [complex(710.0, 0.5), complex(720.0, 2.0), complex(-720.0, 2.0),
                     complex(800.0, 1.0), complex(1e-310, 1e-310), complex(3e-308, -1e-308)]
        th = self.rng.uniform(-np.pi, np.pi, 10)
        circle = list(np.exp(1j * th) * (1 + self.rng.choice([-1e-6, 1e-9, 1e-6], 10)))
        n = 80
        mag = 10.0 ** self.rng.uniform(-3, 3, n)
        rand = list((self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)) * mag)
        unit = list(self.rng.uniform(-2, 2, 40) + 1j * self.rng.uniform(-2, 2, 40))
        z = np.array(grid + cuts + edge + circle + rand + unit, dtype=name)
        if moderate:  # NumPy's SIMD loops fuse products (fma): overflow then differs by platform
            limit = 1e18 if name == "complex64" else 1e150
            z = z[~((np.abs(z.real) > limit) | (np.abs(z.imag) > limit))]
        return z

    def values(self, name, **kw):
        if name == "bool":
            return np.array([False, True])
        if name.startswith("complex"):
            return self.complexes(name, **kw)
        if name.startswith("float") or name == "bfloat16":
            return self.reals(name, **kw)
        return self.ints(name, **kw)

    def pairs(self, a_name, b_name, **kw):
        """Every pair of special values and random pairs, as two flat arrays."""
        a, b = self.values(a_name, **kw), self.values(b_name, **kw)
        sa, sb = a[:40], b[:40]
        ia, ib = np.meshgrid(np.arange(len(sa)), np.arange(len(sb)), indexing="ij")
        ra = self.rng.integers(0, len(a), 200)
        rb = self.rng.integers(0, len(b), 200)
        return (np.concatenate([sa[ia.ravel()], a[ra]]), np.concatenate([sb[ib.ravel()], b[rb]]))

    # -- cases ------------------------------------------------------------------------------------
    def unary(self, ufunc, dtypes, fn=None, **kw):
        for d in dtypes:
            if d == "bfloat16" and ml_dtypes is None:
                continue
            self.case(f"{ufunc}_{d}", fn or getattr(np, ufunc), self.values(d, **kw))

    def binary(self, ufunc, dtypes, fn=None, **kw):
        for d in dtypes:
            a_name, b_name = d if isinstance(d, tuple) else (d, d)
            if "bfloat16" in (a_name, b_name) and ml_dtypes is None:
                continue
            a, b = self.pairs(a_name, b_name, **kw)
            name = f"{a_name}_{b_name}" if isinstance(d, tuple) else d
            self.case(f"{ufunc}_{name}", fn or getattr(np, ufunc), a, b)


TRANSCENDENTAL = ["sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
                  "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
                  "arccosh", "arctanh"]


def type_tables(c):
    """The result dtype (index in DTYPES, -1: TypeError) of every ufunc for each input dtype."""
    code = {d: i for i, d in enumerate(DTYPES)}

    def result(fn, *args):
        try:
            with np.errstate(all="ignore"):
                r = fn(*args)
            return code[str(np.asarray(r).dtype)]
        except Exception:  # TypeError, or an error of ml_dtypes
            return -1

    ones = {d: np.ones(2, dt(d)) for d in DTYPES if d != "bfloat16" or ml_dtypes}
    unary = ["negative", "positive", "absolute", "fabs", "sign", "sqrt", "cbrt", "square",
             "reciprocal", "deg2rad", "rad2deg", "floor", "ceil", "trunc", "rint", "isnan",
             "isinf", "isfinite", "signbit", "logical_not", "invert", "conjugate"] + TRANSCENDENTAL
    for u in unary:
        c.save(f"types_{u}", np.array([result(getattr(np, u), ones[d]) if d in ones else -2
                                       for d in DTYPES], dtype=np.int8))
    for f in ["real", "imag", "angle", "round"]:
        c.save(f"types_{f}", np.array([result(getattr(np, f), ones[d]) if d in ones else -2
                                       for d in DTYPES], dtype=np.int8))
    binary = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod",
              "power", "arctan2", "hypot", "copysign", "maximum", "minimum", "fmax", "fmin",
              "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
              "bitwise_xor", "left_shift", "right_shift", "equal", "less", "clip"]
    for u in binary:
        fn = (lambda a, b: np.clip(a, b, b)) if u == "clip" else getattr(np, u)
        table = np.full((len(DTYPES), len(DTYPES) + 4), -2, dtype=np.int8)
        for i, a in enumerate(DTYPES):
            for j, b in enumerate(DTYPES):
                if a in ones and b in ones:
                    table[i, j] = result(fn, ones[a], ones[b])
            # NEP 50 weak scalars: True, 1, 1.0, 1j (ml_dtypes' bfloat16 is not NEP 50 aware)
            for k, s in enumerate((True, 1, 1.0, 1j)):
                if a in ones and a != "bfloat16":
                    table[i, len(DTYPES) + k] = result(fn, ones[a], s)
        c.save(f"types_{u}", table)


def generate(out):
    c = Cases(out)
    type_tables(c)

    # arithmetic
    c.binary("add", ["bool", "int32", "uint8", "float32", "complex64"])
    c.binary("subtract", ["int8", "uint16", "float64", "complex128"])
    c.binary("multiply", ["bool", "int64", "float16"])
    c.binary("multiply", ["complex64"], moderate=True)
    c.binary("divide", ["bool", "int32", "float32", "complex128"])
    c.binary("floor_divide", ["bool", "int8", "int64", "uint32", "float16", "float32", "float64"])
    c.binary("remainder", ["int8", "int64", "uint8", "float16", "float32", "float64"])
    c.binary("fmod", ["int16", "uint64", "float32", "float64"])
    c.binary("power", ["bool", "float16", "float32", "float64", "complex64", "complex128"])
    for d in ["int8", "int64", "uint8"]:  # NumPy raises for negative exponents: none here
        base = c.values(d)
        exps = np.concatenate([np.arange(0, 10), [31, 62, 63, 64, 65, 127]]).astype(d)
        a, b = np.meshgrid(base, exps, indexing="ij")
        c.case(f"power_{d}", np.power, a.ravel(), b.ravel())
    for d in ["complex64", "complex128"]:  # small integer exponents take the multiplying path
        z = c.values(d)[:150]
        e = np.array([-3, -2, -1, 1, 2, 3, 4, 7, 0.5, 2.5, 1j, -1 - 1j], dtype=d)
        a, b = np.meshgrid(z, e, indexing="ij")
        c.case(f"power_small_{d}", np.power, a.ravel(), b.ravel())
    c.unary("negative", ["int8", "uint8", "float32", "complex64"])
    c.unary("positive", ["int16", "complex128"])
    c.unary("absolute", ["bool", "int8", "int64", "uint16", "float16", "float64", "complex64",
                         "complex128"])
    c.unary("fabs", ["float32", "int16"])
    c.unary("sign", ["int32", "uint8", "float16", "float64", "complex64", "complex128"])
    c.unary("square", ["bool", "int32", "float32"])
    c.unary("square", ["complex128"], moderate=True)
    for d in ["int32", "uint8"]:  # 1 / 0 converted to an integer is left to the platform: no 0
        v = c.values(d)
        c.case(f"reciprocal_{d}", np.reciprocal, v[v != 0])
    c.unary("reciprocal", ["float64", "complex64", "complex128"])

    # extrema
    c.binary("maximum", ["bool", "int8", "uint64", "float32", "float64", "complex64"])
    c.binary("minimum", ["int16", "float16", "float64", "complex128"])
    c.binary("fmax", ["int32", "float32", "float64", "complex128"])
    c.binary("fmin", ["uint8", "float64", "complex64"])
    for d in ["bool", "int8", "float64", "complex128"]:
        v = c.values(d)
        idx = c.rng.integers(0, len(v), (3, 300))
        c.case(f"clip_{d}", np.clip, v[idx[0]], v[idx[1]], v[idx[2]])
    c.case("clip_float32_scalars", lambda a: np.clip(a, 0.5, 2.5), c.values("float32"))
    c.case("clip_uint8_wide", lambda a: np.clip(a, -1, 300), c.values("uint8"))
    c.case("clip_int16_scalars", lambda a: np.clip(a, -100, 7), c.values("int16"))

    # rounding
    c.unary("rint", ["int8", "float32", "float64", "complex64"])
    c.unary("floor", ["bool", "int32", "float16", "float32", "float64"])
    c.unary("ceil", ["uint16", "float32", "float64"])
    c.unary("trunc", ["int64", "float32", "float64"])
    halves = [0.5, 1.5, 2.5, -0.5, -2.5, 1.25, 1.35, 2.675, 0.125, 1234.5, 1250.0, -1350.0]
    # 10**22 is the last power of ten exact in float64; the factor is inf from 10**309 (float32:
    # 10**39, float16: 10**5) and the results NaN.
    for d, decimals in [("float64", [0, 1, 2, 3, -1, -2, 5, 17, 22, 23, -22, -23, 300, 308, 309,
                                     400, -308, -309, -400]),
                        ("float32", [0, 1, 2, -1, 3, 38, 39, -39, 40]),
                        ("float16", [0, 1, 2, -1, -4, 5]), ("bfloat16", [0, 1, -1]),
                        ("complex128", [0, 1, -1, 23, 309, -309]),
                        ("int64", [0, 3, -1, -2, -18, -22, -23, 400]), ("uint8", [-1, -2]),
                        ("bool", [0])]:
        if d == "bfloat16" and ml_dtypes is None:
            continue
        v = c.values(d, extra=halves) if d in ("float64", "float32", "float16") else c.values(d)
        for n in decimals:
            if d.startswith(("int", "uint")) and n < 0:  # NumPy's float-to-int overflow is C's UB
                info, f = np.iinfo(d), 10.0 ** -n
                r = np.rint(v / f) * f
                v = v[(r >= float(info.min)) & (r < float(info.max) + 1)]
            c.case(f"round_{d}_{n}".replace("-", "m"), lambda a: np.round(a, n), v)
    i8 = np.arange(-124, 125, dtype=np.int8)  # rounds to tens without leaving int8
    c.case("round_int8_m1", lambda a: np.round(a, -1), i8)

    # exponential, logarithmic, trigonometric
    for u in TRANSCENDENTAL:
        c.unary(u, ["float32", "float64", "complex64", "complex128"])
    for u in ["sqrt", "exp", "log", "sin", "arctan", "tanh", "log1p"]:
        c.unary(u, ["float16"])
    for u in ["sqrt", "exp", "sin"]:
        c.unary(u, ["bfloat16"])
    c.unary("sqrt", ["int8", "int16", "uint32"])
    c.unary("exp", ["bool"])
    c.unary("log", ["int64"])
    c.unary("cbrt", ["int8", "float32", "float64"])
    c.unary("deg2rad", ["float32", "float64"])
    c.unary("rad2deg", ["float16", "float32"])
    c.binary("arctan2", ["float16", "float32", "float64", ("int8", "uint16")])
    c.binary("hypot", ["float32", "float64"])
    c.binary("copysign", ["float32", "float64"])
    c.case("copysign_int8_scalar", lambda a: np.copysign(a, -1), c.values("int8"))

    # comparisons, logical, bitwise, classification
    for u in ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]:
        c.binary(u, ["complex128"])
    c.binary("less", ["complex64", "float16"])
    for u in ["logical_and", "logical_or", "logical_xor"]:
        c.binary(u, ["float64", "complex64"])
    c.binary("logical_and", ["int8"])
    c.unary("logical_not", ["int32", "float32", "complex128"])
    for u in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
        c.binary(u, ["bool", "int8", "uint64"])
    c.binary("bitwise_and", ["int64"])
    c.unary("invert", ["bool", "int8", "uint16", "int64"])
    for d in ["int8", "uint8", "int64", "uint64"]:
        base = c.values(d)
        bits = 8 * np.dtype(d).itemsize
        amount = np.array([0, 1, 2, 3, bits - 2, bits - 1, bits, bits + 1, 2 * bits] +
                          ([-1, -bits] if d.startswith("int") else []), dtype=d)
        a, b = np.meshgrid(base, amount, indexing="ij")
        c.case(f"left_shift_{d}", np.left_shift, a.ravel(), b.ravel())
        c.case(f"right_shift_{d}", np.right_shift, a.ravel(), b.ravel())
    for u in ["isnan", "isinf", "isfinite"]:
        c.unary(u, ["int32", "float16", "float32", "float64", "complex64"])
    c.unary("signbit", ["int8", "float32", "float64"])
    # -nan has its sign bit set
    c.case("signbit_negnan", np.signbit, np.array([nan, -nan, -0.0, 0.0]))

    # the parts of complex numbers
    for d in ["complex64", "complex128"]:
        v = c.values(d)
        c.save(f"parts_{d}", v)
        c.save(f"real_{d}", v.real.copy())
        c.save(f"imag_{d}", v.imag.copy())
    z = c.values("complex128")
    c.case("real_exp_complex128", lambda a: np.real(np.exp(a)), z)
    c.case("imag_exp_complex128", lambda a: np.imag(np.exp(a)), z)
    c.unary("conjugate", ["bool", "int32", "complex64", "complex128"])
    c.unary("angle", ["bool", "int8", "float16", "float64", "complex64", "complex128"])
    for d in ["float16", "float32", "complex128"]:
        c.case(f"angle_deg_{d}", lambda a: np.angle(a, deg=True), c.values(d))

    # broadcasting, empty and 0-d operands, strided views
    m = c.values("int64")[:12].reshape(3, 4)
    v = np.array([3, -2, 7, -1], dtype=np.int64)
    c.case("bcast_floor_divide", np.floor_divide, m, v)
    c.case("bcast_col_remainder", np.remainder, m[:, :1], v)
    c.case("zerod_power", np.power, np.array(2.5), c.values("float64")[:30].reshape(5, 6))
    c.case("strided_arctan2", lambda a, b: np.arctan2(a[::-2], b[1::3]),
           c.values("float32")[:60], c.values("float32")[:90])

    # fused expressions of several new ufuncs, large enough for the GPU's vector path
    x = np.linspace(-50, 50, 100003).astype(np.float32)
    c.save("fused_x", x)
    with np.errstate(all="ignore"):
        c.save("fused_out", np.floor_divide(x, np.float32(3.5)) * np.float32(2) +
               np.remainder(np.abs(x), np.float32(7)) - np.clip(np.rint(x), -10, 10))
