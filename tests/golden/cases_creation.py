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
    generate_more(out)


def generate_more(out):
    """arange with integer and complex bounds, linspace's retstep, axis, complex and array
    bounds, geomspace, logspace, full's casting (issue 18, item 5)."""
    import warnings
    save = lambda name, a: np.save(out / f"creation_{name}.npy", np.asarray(a))
    # arange: integer bounds past 2**53, computed in integers
    save("arange_big_int64", np.arange(2**62, 2**62 + 10, 3, dtype=np.int64))
    save("arange_big_uint64", np.arange(2**64 - 5, 2**64 - 1, 2, dtype=np.uint64))
    save("arange_span_int64", np.arange(-2**63, 2**63 - 1, 2**62, dtype=np.int64))
    save("arange_down_uint64", np.arange(2**64 - 1, 0, -2**62, dtype=np.uint64))
    save("arange_big_float64", np.arange(2**62, 2**62 + 10, 3, dtype=np.float64))
    save("arange_wrap_int8", np.arange(0, 300, 100, dtype=np.int8))
    save("arange_bool_1_3", np.arange(1, 3, 1, dtype=bool))
    # complex arange: min(ceil(re), ceil(im)) of (stop - start) / step values
    save("arange_c_1", np.arange(1 + 1j, 4 + 9j, 0.5 + 1j))
    save("arange_c_2", np.arange(0, 5 + 10j, 1))
    save("arange_c_3", np.arange(0.5 - 1j, 3 + 20j, 0.25 + 0.5j))
    save("arange_c_4", np.arange(0.5 - 1j, 3 + 20j, 0.25 + 0.5j, dtype=np.complex64))
    save("arange_c_real", np.arange(0.0, 5.0, 1.5, dtype=np.complex64))
    save("arange_c_down", np.arange(3 + 3j, -2 - 3j, -0.75 - 1j))
    # linspace: complex bounds, retstep, arrays and axis
    save("linspace_c_1", np.linspace(1j, 2 - 1j, 5))
    save("linspace_c_2", np.linspace(-1 + 2j, 3 + 0.5j, 7, endpoint=False, dtype=np.complex64))
    for name, (a, b, n, ep) in {"0_1_5_t": (0, 1, 5, True), "2_m2_7_f": (2, -2, 7, False),
                                "0_1_1_t": (0, 1, 1, True)}.items():
        y, step = np.linspace(a, b, n, endpoint=ep, retstep=True)
        save(f"linspace_step_{name}", y)
        save(f"linspace_step_{name}_step", np.float64(step))
    y, step = np.linspace(1j, 2 - 1j, 5, retstep=True)
    save("linspace_step_c_step", np.complex128(step))
    lo = np.array([0, 1], dtype=np.float32)
    hi = np.array([[2, 3], [4, 5], [6, 7]], dtype=np.float64)
    save("linspace_arr_lo", lo)
    save("linspace_arr_hi", hi)
    for axis in (0, 1, 2, -1):
        save(f"linspace_arr_a{axis}".replace("-", "m"), np.linspace(lo, hi, 4, axis=axis))
    save("linspace_arr_int32", np.linspace(lo, hi, 5, endpoint=False, dtype=np.int32))
    h16 = np.array([1, -3, 100], dtype=np.float16)
    save("linspace_arr_f16_lo", h16)
    save("linspace_arr_f16", np.linspace(h16, np.float16(7), 6))  # computed in float16
    ilo = np.array([0, 10, -5], dtype=np.int64)
    save("linspace_arr_ilo", ilo)
    y, step = np.linspace(ilo, 7.5, 4, retstep=True, axis=1)
    save("linspace_arr_i", y)
    save("linspace_arr_i_step", step)
    # geomspace and logspace
    geoms = {"1_1000_4": (1, 1000, 4, True), "m1_m1000_4": (-1, -1000, 4, True),
             "2_3_7_f": (2, 3, 7, False), "8_0p5_5": (8, 0.5, 5, True),
             "m2_m1e5_9_f": (-2, -1e5, 9, False), "1_1_3": (1, 1, 3, True)}
    for name, (a, b, n, ep) in geoms.items():
        save(f"geomspace_{name}", np.geomspace(a, b, n, endpoint=ep))
    save("geomspace_1_1000_4_f32", np.geomspace(1, 1000, 4, dtype=np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        save("geomspace_1_m10_3", np.geomspace(1, -10, 3))  # log10 of a negative: NaN inside
    cgeoms = {"i_1000i_4": (1j, 1000j, 4, True), "m1_1_5": (-1 + 0j, 1 + 0j, 5, True),
              "1p1i_m8_6_f": (1 + 1j, -8 + 0j, 6, False)}
    for name, (a, b, n, ep) in cgeoms.items():
        save(f"geomspace_c_{name}", np.geomspace(a, b, n, endpoint=ep))
    logs = {"0_3_4": (0, 3, 4, True, 10.0), "0_3_4_b2": (0, 3, 4, True, 2.0),
            "m1_2_6_f": (-1, 2, 6, False, 10.0), "1_0_5_be": (1, 0, 5, True, np.e)}
    for name, (a, b, n, ep, base) in logs.items():
        save(f"logspace_{name}", np.logspace(a, b, n, endpoint=ep, base=base))
    save("logspace_0_3_4_f_i32", np.logspace(0, 3, 4, endpoint=False, dtype=np.int32))
    save("logspace_c", np.logspace(0, 1 + 1j, 4, dtype=np.complex128))
    # array bounds and axis (lo, hi: linspace_arr_lo/hi above)
    for axis in (0, 1, -1):
        tag = str(axis).replace("-", "m")
        save(f"logspace_arr_a{tag}", np.logspace(lo, hi, 4, base=2.0, axis=axis))
    save("logspace_arr_f32", np.logspace(lo, np.float32(2), 3))  # float32 stays float32
    glo = np.array([1, -2, 4], dtype=np.float64)
    ghi = np.array([[1000], [-0.5]], dtype=np.float64)
    save("geomspace_arr_lo", glo)
    save("geomspace_arr_hi", ghi)
    for axis in (0, 2, -1):
        tag = str(axis).replace("-", "m")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # log10 of a negative ratio: NaN, as in NumPy
            save(f"geomspace_arr_a{tag}", np.geomspace(glo, ghi, 5, axis=axis))
    save("geomspace_arr_i32", np.geomspace(np.array([1, 2]), np.array([1000, 7]), 4, dtype=np.int32))
    save("geomspace_arr_c", np.geomspace(np.array([1j, -1]), np.array([1000j, 1 + 1j]), 4))
    # full: NumPy's casting of the fill value
    save("full_2p7_int32", np.full(3, 2.7, dtype=np.int32))
    save("full_m2p7_int16", np.full(2, -2.7, dtype=np.int16))
    save("full_300_uint16", np.full(2, 300, dtype=np.uint16))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Casting complex values to real discards ..."
        save("full_c_float64", np.full(2, 1 + 2j, dtype=np.float64))
    save("full_0p1_float16", np.full(2, 0.1, dtype=np.float16))
