"""NumPy's results for views (basic indexing), copyto and shape manipulation.

Every view case saves its values (views_<name>) and its layout (views_<name>_layout: the element
offset from the base array's first element, then the strides in elements), so that the C++ test
checks that cunp picks the same elements *and* the same memory as NumPy. The index expressions
here and in tests/test_views.cpp / tests/test_manipulation.cpp are kept side by side by name.
"""
import pathlib
import warnings

import numpy as np

N = None
E = Ellipsis


def layout(v: np.ndarray, base: np.ndarray) -> np.ndarray:
    item = base.itemsize
    offset = (v.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // item
    return np.array([offset] + [s // item for s in v.strides], dtype=np.int64)


def save(out: pathlib.Path, name: str, a) -> None:
    np.save(out / f"{name}.npy", np.asarray(a))


def save_view(out: pathlib.Path, name: str, v: np.ndarray, base: np.ndarray) -> None:
    assert np.shares_memory(v, base) or v.size == 0, name
    save(out, name, v)
    save(out, f"{name}_layout", layout(v, base))


BASES = {
    "a0": np.array(7.0),
    "a1": np.arange(10, dtype=np.float64),
    "a2": np.arange(12, dtype=np.float64).reshape(3, 4),
    "a3": np.arange(60, dtype=np.float64).reshape(3, 4, 5),
}

# name -> (base, index tuple); a result that NumPy would give as a scalar is taken as a 0-d view.
VIEWS = {
    # 1-d
    "s_2_7": ("a1", (slice(2, 7),)),
    "s_2_7_2": ("a1", (slice(2, 7, 2),)),
    "s_rev": ("a1", (slice(N, N, -1),)),
    "s_rev2": ("a1", (slice(N, N, -2),)),
    "s_8_2_m2": ("a1", (slice(8, 2, -2),)),
    "s_m3_": ("a1", (slice(-3, N),)),
    "s__m3": ("a1", (slice(N, -3),)),
    "s_m100_100": ("a1", (slice(-100, 100),)),
    "s_100_m100_m1": ("a1", (slice(100, -100, -1),)),
    "s_100__m3": ("a1", (slice(100, N, -3),)),
    "s_5_2": ("a1", (slice(5, 2),)),
    "s_2_5_m1": ("a1", (slice(2, 5, -1),)),
    "s_20_30": ("a1", (slice(20, 30),)),
    "s_m20_m30_m1": ("a1", (slice(-20, -30, -1),)),
    "s_3_4": ("a1", (slice(3, 4),)),
    "s_1__3": ("a1", (slice(1, N, 3),)),
    "s_m1_m11_m3": ("a1", (slice(-1, -11, -3),)),
    "s__7": ("a1", (slice(7),)),
    "s_step_100": ("a1", (slice(N, N, 100),)),
    "s_m_step_100": ("a1", (slice(N, N, -100),)),
    "i1_3": ("a1", (3,)),
    "i1_m1": ("a1", (-1,)),
    "na_first": ("a1", (N,)),
    "na_last": ("a1", (slice(N), N)),
    "na_both": ("a1", (N, slice(2, 5), N)),
    "ell1": ("a1", (E,)),
    "ell1_na": ("a1", (E, N)),
    "ell1_i": ("a1", (E, 4)),
    "empty_tuple1": ("a1", ()),
    # 2-d
    "r1": ("a2", (1,)),
    "r_m1_rev": ("a2", (-1, slice(N, N, -1))),
    "c2": ("a2", (slice(N), 2)),
    "c_m1": ("a2", (slice(N), -1)),
    "sub": ("a2", (slice(1, N), slice(1, 3))),
    "rev_both": ("a2", (slice(N, N, -1), slice(N, N, -2))),
    "ell_c": ("a2", (E, 1)),
    "ell_r": ("a2", (1, E)),
    "na_mid": ("a2", (slice(N), N, slice(1, 3))),
    "na_ell": ("a2", (N, E, N)),
    "empty_r": ("a2", (slice(3, N), slice(N))),
    "empty_c": ("a2", (slice(N), slice(2, 2))),
    "empty_rev": ("a2", (slice(N), slice(0, 3, -1))),
    "clamp2": ("a2", (slice(-10, 10), slice(-10, 10, 3))),
    "ij": ("a2", (2, 3)),
    "ij_neg": ("a2", (-3, -4)),
    "i_ell_j": ("a2", (1, E, 2)),
    "big_steps": ("a2", (slice(N, N, 5), slice(N, N, -5))),
    # 3-d
    "i0": ("a3", (0,)),
    "i_all_i": ("a3", (1, slice(N), 3)),
    "ell_i3": ("a3", (E, -1)),
    "i_ell3": ("a3", (-1, E)),
    "steps3": ("a3", (slice(N, N, 2), slice(1, 3), slice(N, N, -2))),
    "na3": ("a3", (N, 1, N, E, N)),
    "mix3": ("a3", (slice(1, N), N, -2, slice(4, 0, -2))),
    "empty3": ("a3", (slice(N), slice(4, N), slice(N))),
    "ell_mid3": ("a3", (0, E, 0)),
    "ijk": ("a3", (2, 3, 4)),
    "rev_last3": ("a3", (slice(N), slice(N), slice(-1, -6, -1))),
    "rev_all3": ("a3", (slice(N, N, -1), slice(N, N, -1), slice(N, N, -1))),
    # 0-d
    "ell0": ("a0", (E,)),
    "na0": ("a0", (N,)),
    "na0_ell": ("a0", (E, N, N)),
    "empty_tuple0": ("a0", ()),
}


def views(out: pathlib.Path) -> None:
    for name, base in BASES.items():
        save(out, f"views_{name}", base)
    for name, (b, idx) in VIEWS.items():
        base = BASES[b]
        v = base[idx]
        if not isinstance(v, np.ndarray):
            v = base[idx + (E,)]
        save_view(out, f"views_{name}", v, base)
    # A view of a view: offsets and strides compose.
    a3 = BASES["a3"]
    save_view(out, "views_of_view", a3[::-1, 1:][:, ::-1, 2][1:, N], a3)
    a2 = BASES["a2"]
    save_view(out, "views_of_view2", a2.T[::-2][1, ::-1], a2)


# numpy's dtypes in the order of the table in tests/test_views.cpp (bfloat16 is not NumPy's).
DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]


def copyto(out: pathlib.Path) -> None:
    for rule in ["no", "equiv", "safe", "same_kind", "unsafe"]:
        table = [[np.can_cast(np.dtype(f), np.dtype(t), rule) for t in DTYPES] for f in DTYPES]
        save(out, f"copyto_can_cast_{rule}", np.array(table, dtype=bool))
    # Broadcast + cast into a strided, reversed destination.
    d = np.zeros((4, 6), dtype=np.float64)
    np.copyto(d[::-2, 1::2], np.arange(3, dtype=np.int32) + 1)
    save(out, "copyto_bcast_cast", d)
    d = np.arange(10, dtype=np.int64)
    np.copyto(d[::-3], np.array([100, 101, 102, 103], dtype=np.int8))
    save(out, "copyto_neg_stride", d)
    d = np.zeros((3, 4), dtype=np.float32)
    col = np.array([[0.1], [1.0 / 3], [-2.7e10]], dtype=np.float64)
    np.copyto(d[:, ::-1], col)
    save(out, "copyto_col_to_f32_src", col)
    save(out, "copyto_col_to_f32", d)
    src = np.array([-2.5, -0.5, 0.5, 1.5, 2.7, -7.9], dtype=np.float64)
    d = np.zeros(6, dtype=np.int32)
    np.copyto(d, src, casting="unsafe")
    save(out, "copyto_unsafe_src", src)
    save(out, "copyto_unsafe", d)
    src = np.array([0, 127, 128, 255, 256, 2**63, 2**64 - 1], dtype=np.uint64)
    d = np.zeros(7, dtype=np.int8)
    np.copyto(d, src)  # unsigned -> signed is 'same_kind': wraps modulo 2**8
    save(out, "copyto_u64_i8_src", src)
    save(out, "copyto_u64_i8", d)
    src = np.array([np.nan, np.inf, -np.inf, 1e5, 65504.0, -0.0, 1e-8], dtype=np.float64)
    d = np.zeros(7, dtype=np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.copyto(d, src)
    save(out, "copyto_f16_src", src)
    save(out, "copyto_f16", d)
    d = np.zeros((2, 3), dtype=np.complex128)
    np.copyto(d.T, np.arange(6, dtype=np.float32).reshape(3, 2)[::-1])
    save(out, "copyto_complex", d)
    d = np.zeros((2, 3), dtype=np.int16)
    np.copyto(d, np.array([True, False, True]))
    save(out, "copyto_bool", d)
    d = np.arange(12, dtype=np.float64).reshape(3, 4)
    np.copyto(d[1, 2, ...], np.array(99.0))
    save(out, "copyto_into_0d", d)
    # Overlapping source and destination: as if the source were read in full first.
    a = np.arange(10, dtype=np.int32)
    a[1:] = a[:-1]
    save(out, "copyto_shift_right", a)
    a = np.arange(10, dtype=np.int32)
    a[:-1] = a[1:]
    save(out, "copyto_shift_left", a)
    a = np.arange(10, dtype=np.int32)
    a[::-1] = a
    save(out, "copyto_reverse", a)
    a = np.arange(20, dtype=np.int32).reshape(4, 5)
    a[1:, :] = a[:-1, :]
    save(out, "copyto_rows_down", a)
    a = np.arange(9, dtype=np.int32).reshape(3, 3)
    a[...] = a.T
    save(out, "copyto_transpose", a)
    a = np.arange(6, dtype=np.int32)
    a[:] = a[2]
    save(out, "copyto_bcast_self", a)
    a = np.arange(10, dtype=np.int32)
    a[::2] = a[1::2]
    save(out, "copyto_interleaved", a)
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    a[:, 1:, ::-1] = a[:, :-1, :]
    save(out, "copyto_3d_overlap", a)


def manipulation(out: pathlib.Path) -> None:
    m3 = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    ones = np.arange(6, dtype=np.float64).reshape(1, 3, 1, 2, 1)
    m0 = np.array(5.0)
    m1 = np.arange(5, dtype=np.float64)
    col = np.arange(3, dtype=np.float64).reshape(3, 1)
    e = np.zeros((0, 3, 2))
    for name, base in [("m3", m3), ("ones", ones), ("m0", m0), ("m1", m1), ("col", col)]:
        save(out, f"manip_{name}", base)
    cases = {
        "transpose": (m3, np.transpose(m3)),
        "transpose_102": (m3, np.transpose(m3, (1, 0, 2))),
        "transpose_neg": (m3, np.transpose(m3, (-1, 0, 1))),
        "swap_0_2": (m3, np.swapaxes(m3, 0, 2)),
        "swap_m1_1": (m3, np.swapaxes(m3, -1, 1)),
        "moveaxis_0_m1": (m3, np.moveaxis(m3, 0, -1)),
        "moveaxis_vec": (m3, np.moveaxis(m3, [0, 1], [-1, -2])),
        "moveaxis_vec2": (m3, np.moveaxis(m3, [2, 0], [0, 1])),
        "squeeze_all": (ones, np.squeeze(ones)),
        "squeeze_2": (ones, np.squeeze(ones, 2)),
        "squeeze_0_m1": (ones, np.squeeze(ones, (0, -1))),
        "expand_0": (m3, np.expand_dims(m3, 0)),
        "expand_m1": (m3, np.expand_dims(m3, -1)),
        "expand_multi": (m3, np.expand_dims(m3, (0, 3, -1))),
        "expand_0d": (m0, np.expand_dims(m0, (0, 1))),
        "bcast_row": (m1, np.broadcast_to(m1, (3, 5))),
        "bcast_col": (col, np.broadcast_to(col, (2, 3, 4))),
        "bcast_0d": (m0, np.broadcast_to(m0, (2, 2))),
        "ravel_view": (m3, np.ravel(m3)),
        "atleast_1d_0d": (m0, np.atleast_1d(m0)),
        "atleast_2d_1d": (m1, np.atleast_2d(m1)),
        "atleast_3d_1d": (m1, np.atleast_3d(m1)),
        "atleast_3d_2d": (col, np.atleast_3d(col)),
        "atleast_3d_0d": (m0, np.atleast_3d(m0)),
        "reshape_view": (m3, np.reshape(m3, (4, 6))),
    }
    for name, (base, v) in cases.items():
        save_view(out, f"manip_{name}", v, base)
    a, b = np.broadcast_arrays(col, m1[:3][None, :])
    save(out, "manip_bcast_arrays_0", a)
    save(out, "manip_bcast_arrays_1", b)
    t = m3.transpose(2, 0, 1)
    save(out, "manip_ravel_copy", np.ravel(t))
    save(out, "manip_flatten_strided", m3[:, ::-1, ::2].flatten())
    save(out, "manip_ascontiguous", np.ascontiguousarray(t))
    save(out, "manip_reshape_copy", np.reshape(t, (6, 4)))
    save(out, "manip_transpose_empty", np.transpose(e))
    save(out, "manip_moveaxis_empty", np.moveaxis(e, 0, -1))


def generate(out: pathlib.Path) -> None:
    views(out)
    copyto(out)
    manipulation(out)
