"""NumPy's outputs for sorting, searching, counting and order statistics (tests/test_sort.cpp).

Names are sort_<dtype>_<case>. Inputs hold many ties (argsort must match kind='stable'), NaNs of
both signs, infinities and signed zeros; complex inputs cover NumPy's NaN classes.
"""
import numpy as np

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
ALL = ["bool"] + INTS + FLOATS + COMPLEX
# Values floats are drawn from: ties, both zeros, both infinities and NaNs of both signs.
FLOAT_POOL = [-2.5, -1.0, -0.0, 0.0, 0.0, 0.5, 1.0, 1.0, 3.0, 1e-3, np.inf, -np.inf, np.nan,
              -np.nan]
PART_POOL = [-1.0, -0.0, 0.0, 1.0, 1.0, 2.0, np.inf, np.nan]


def values(rng, dtype, shape, special=True):
    """Random values of dtype with many repeats (and, for floats, special values if asked)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = max(info.min, -6)
        a = rng.integers(lo, 7, shape).astype(dt)
        if special and a.size > 3:  # the extremes of the dtype sort too
            flat = a.reshape(-1)
            flat[0], flat[-1] = info.max, info.min
        return a
    if dt.kind == "f":
        pool = FLOAT_POOL if special else [-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 1.5, 3.0, 7.0, 1e-3]
        return rng.choice(np.array(pool, dtype=np.float64), shape).astype(dt)
    part = np.array(PART_POOL if special else [-1.5, -1.0, 0.0, 0.5, 1.0, 2.0], dtype=np.float64)
    z = np.empty(shape, dtype=dt)
    z.real = rng.choice(part, shape)  # set part by part: 1j * inf would put a NaN in the real part
    z.imag = rng.choice(part, shape)
    return z


def generate(out):
    rng = np.random.default_rng(20260412)

    def save(name, a):
        np.save(out / f"sort_{name}.npy", np.asarray(a))

    for d in ALL:
        x1 = values(rng, d, (300,))
        x2 = values(rng, d, (6, 9))
        x3 = values(rng, d, (3, 4, 5))
        for name, x in (("x1", x1), ("x2", x2), ("x3", x3)):
            save(f"{d}_{name}", x)
            for ax in range(-1, x.ndim):
                tag = "m1" if ax < 0 else str(ax)
                save(f"{d}_{name}_sort_a{tag}", np.sort(x, axis=ax, kind="stable"))
                save(f"{d}_{name}_argsort_a{tag}", np.argsort(x, axis=ax, kind="stable"))
            save(f"{d}_{name}_sort_none", np.sort(x, axis=None, kind="stable"))
            save(f"{d}_{name}_argsort_none", np.argsort(x, axis=None, kind="stable"))
        rev = x2[::-1, ::-2]  # a negative-stride view as input
        for ax in (0, 1):
            save(f"{d}_rev_sort_a{ax}", np.sort(rev, axis=ax, kind="stable"))
            save(f"{d}_rev_argsort_a{ax}", np.argsort(rev, axis=ax, kind="stable"))
        # searchsorted: a sorted 1-d array with repeats and NaNs, values of another shape
        a = np.sort(x1, kind="stable")
        save(f"{d}_ss_a", a)
        save(f"{d}_ss_left", np.searchsorted(a, x2, side="left"))
        save(f"{d}_ss_right", np.searchsorted(a, x2, side="right"))
        # unique and the unique_* family. NumPy picks any member of a group of equal values (all
        # NaNs under equal_nan) and, without return_index, any order of NaNs for the inverse; with
        # return_index it sorts stably, and its answer is the one cunp gives.
        save(f"{d}_u", np.unique(x1, return_index=True)[0])
        save(f"{d}_uv", np.unique(x1, return_index=True, equal_nan=False)[0])
        assert np.array_equal(np.sort(np.unique_values(x1)), np.unique(x1, equal_nan=False),
                              equal_nan=d not in ALL[:9])
        uc = np.unique_counts(x1)
        save(f"{d}_uc_values", uc.values)
        save(f"{d}_uc_counts", uc.counts)
        ui = np.unique(x2, return_index=True, return_inverse=True, equal_nan=False)
        save(f"{d}_ui_values", ui[0])
        save(f"{d}_ui_inverse", ui[2])
        ua = np.unique_all(x3)
        save(f"{d}_ua_values", ua.values)
        save(f"{d}_ua_indices", ua.indices)
        save(f"{d}_ua_inverse", ua.inverse_indices)
        save(f"{d}_ua_counts", ua.counts)
        # order statistics over inputs without special values (and one with NaN lanes)
        s2 = values(rng, d, (7, 8), special=False)
        s3 = values(rng, d, (3, 4, 5), special=False)
        save(f"{d}_s2", s2)
        save(f"{d}_s3", s3)
        stat_input = s2.astype(np.int64) if d == "bool" else s2  # NumPy's median rejects bool
        stat3 = s3.astype(np.int64) if d == "bool" else s3
        save(f"{d}_med_none", np.median(stat_input))
        save(f"{d}_med_a0", np.median(stat_input, axis=0))
        save(f"{d}_med_a1", np.median(stat_input, axis=1))
        save(f"{d}_med3_a02_keep", np.median(stat3, axis=(0, 2), keepdims=True))
        if d not in COMPLEX:
            save(f"{d}_q30_none", np.quantile(stat_input, 0.3))
            save(f"{d}_q30_a1", np.quantile(stat_input, 0.3, axis=1))
            save(f"{d}_q_list_a0", np.quantile(stat_input, [0.0, 0.25, 0.5, 0.9, 1.0], axis=0))
            save(f"{d}_p_list3_a1_keep", np.percentile(stat3, [10.0, 50.0, 95.0], axis=1, keepdims=True))
            save(f"{d}_p75_a2", np.percentile(stat3, 75.0, axis=2))
            save(f"{d}_q_m1", np.quantile(stat3, 0.6, axis=-1))
        if d in FLOATS or d in COMPLEX:
            sn = s2.copy()
            sn[2, 3] = np.nan
            sn[5, 0] = -np.nan
            save(f"{d}_sn", sn)
            save(f"{d}_med_nan_a1", np.median(sn, axis=1))
            save(f"{d}_med_nan_a0", np.median(sn, axis=0))
            if d in FLOATS:
                save(f"{d}_q_nan_a1", np.quantile(sn, 0.5, axis=1))
                save(f"{d}_q_nan_list_a0", np.quantile(sn, [0.2, 0.8], axis=0))

    # searchsorted across dtypes: an integer array with float values, compared in float64
    ai = np.arange(-5, 15, 2, dtype=np.int32)
    vf = np.array([[-6.0, -5.0, -4.5], [0.5, 13.0, 99.0]])
    save("mixed_a", ai)
    save("mixed_v", vf)
    save("mixed_left", np.searchsorted(ai, vf))
    save("mixed_right", np.searchsorted(ai, vf, side="right"))

    # bincount
    bx = rng.integers(0, 12, 100)
    bw = rng.random(100)
    save("bc_x", bx)
    save("bc_w", bw)
    save("bc", np.bincount(bx))
    save("bc_min", np.bincount(bx, minlength=20))
    save("bc_w_out", np.bincount(bx, weights=bw))
    save("bc_w_min", np.bincount(bx, weights=bw, minlength=15))
    save("bc_u8", np.bincount(bx.astype(np.uint8)))
    save("bc_bool", np.bincount(bx.astype(bool)))

    # histogram
    for d in ("float16", "float32", "float64", "int32", "uint8", "int64"):
        dt = np.dtype(d)
        if dt.kind == "f":
            h = (rng.random(200) * 10 - 3).astype(dt)
            h[:5] = np.array([-3, 7, 0, 2, 4], dtype=dt)  # values on edges
        else:
            h = rng.integers(0, 40, 200).astype(dt)
        save(f"{d}_h_x", h)
        hist, edges = np.histogram(h)
        save(f"{d}_h10_hist", hist)
        save(f"{d}_h10_edges", edges)
        hist, edges = np.histogram(h, bins=7, range=(0.5, 6.25))
        save(f"{d}_h7r_hist", hist)
        save(f"{d}_h7r_edges", edges)
        e = np.array([-1.0, 0.0, 0.5, 2.0, 2.0, 5.0, 30.0])
        save(f"{d}_he_hist", np.histogram(h, bins=e)[0])
        ei = np.array([0, 3, 4, 10, 20], dtype=np.int64)
        save(f"{d}_hei_hist", np.histogram(h, bins=ei)[0])
        const = np.full(9, 5, dtype=dt)
        hist, edges = np.histogram(const, bins=4)
        save(f"{d}_hconst_hist", hist)
        save(f"{d}_hconst_edges", edges)
    hn = np.array([1.0, np.nan, 2.0, 3.0, np.inf], dtype=np.float64)
    save("hnan_x", hn)
    hist, edges = np.histogram(hn, bins=4, range=(0.0, 4.0))
    save("hnan_hist", hist)
    save("hnan_edges", edges)
    hist, edges = np.histogram(np.array([], dtype=np.float32), bins=3)
    save("hempty_hist", hist)
    save("hempty_edges", edges)
