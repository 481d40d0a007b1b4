"""NumPy's outputs for creation functions (tests/test_creation.cpp)."""
import numpy as np

REAL = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
        "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
        "float16": np.float16, "float32": np.float32, "float64": np.float64}


def generate(out):
    save = lambda name, a: np.save(out / f"creation_{name}.npy", a)
    # arange: (start, stop, step) cases, each saved per dtype where NumPy accepts it.
    aranges = {"0_10_1": (0, 10, 1), "2_17_3": (2, 17, 3), "10_0_m2": (10, 0, -2),
               "0_1_0p1": (0, 1, 0.1), "m1_1_0p25": (-1, 1, 0.25), "5_5_1": (5, 5, 1),
               "0_100_7": (0, 100, 7), "0p5_3_0p5": (0.5, 3, 0.5), "1_m1_m0p3": (1, -1, -0.3)}
    for cname, (a, b, s) in aranges.items():
        for tname, t in REAL.items():
            is_float = any(isinstance(v, float) for v in (a, b, s))
            if (not np.issubdtype(t, np.floating)) and (is_float or min(a, b) < 0 and tname.startswith("u")):
                continue
            save(f"arange_{cname}_{tname}", np.arange(a, b, s, dtype=t))
    # linspace: (start, stop, num, endpoint)
    linspaces = {"0_1_5_t": (0, 1, 5, True), "0_1_5_f": (0, 1, 5, False), "m3_7_11_t": (-3, 7, 11, True),
                 "1_1_4_t": (1, 1, 4, True), "0_1_1_t": (0, 1, 1, True), "0_1_0_t": (0, 1, 0, True),
                 "2_m2_7_f": (2, -2, 7, False), "0_10_50_t": (0, 10, 50, True), "1e10_1e10p1_3_t": (1e10, 1e10 + 1, 3, True)}
    for cname, (a, b, n, ep) in linspaces.items():
        for tname in ("float32", "float64", "float16", "int32", "int64"):
            if cname.startswith("1e10") and tname in ("float16", "int32"):
                continue  # out of range: NumPy's cast result is platform-defined there
            save(f"linspace_{cname}_{tname}", np.linspace(a, b, n, endpoint=ep, dtype=REAL[tname]))
    for n, m, k in [(3, 3, 0), (3, 4, 1), (4, 3, -1), (2, 5, 7), (5, 2, -9), (0, 0, 0), (1, 1, 0), (3, 5, -2)]:
        save(f"eye_{n}_{m}_{k}", np.eye(n, m, k, dtype=np.float32))
        save(f"tri_{n}_{m}_{k}", np.tri(n, m, k, dtype=np.int32))
    src = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4) - 7.5
    save("tril_src", src)
    for k in (-2, -1, 0, 1, 3):
        save(f"tril_{k}", np.tril(src, k))
        save(f"triu_{k}", np.triu(src, k))
    save("tril_1d", np.tril(np.arange(1, 5, dtype=np.int64)))
    v = np.array([1.5, -2.0, 3.25], dtype=np.float64)
    for k in (-2, 0, 1):
        save(f"diag_1d_{k}", np.diag(v, k))
    m = np.arange(12, dtype=np.int32).reshape(3, 4)
    for k in (-3, -1, 0, 2, 4):
        save(f"diag_2d_{k}", np.diag(m, k))
    x, y, z = np.arange(3, dtype=np.float32), np.arange(10, 14, dtype=np.float32), np.array([-1, 1], dtype=np.float32)
    for ind in ("xy", "ij"):
        for i, g in enumerate(np.meshgrid(x, y, z, indexing=ind)):
            save(f"meshgrid3_{ind}_{i}", g)
        for i, g in enumerate(np.meshgrid(x, y, indexing=ind)):
            save(f"meshgrid2_{ind}_{i}", g)
