"""Golden files for tests/test_io.cpp: what np.save, np.lib.format and np.savez write.

Every dtype gets a plain file (little endian, C order, format 1.0) and the same values written
big-endian, Fortran-ordered, big-endian and Fortran-ordered, and in format versions 2.0 and 3.0;
the test requires each variant to load to the plain file's values. Other files are np.save's
bytes for arrays the test builds itself (cunp::save must write them byte for byte), .npz archives,
and valid .npy files of dtypes cunp does not support.
"""
import io
import pathlib
import zipfile

import numpy as np

try:
    import ml_dtypes
except ImportError:  # bfloat16's np.save bytes are then not generated; the test says so
    ml_dtypes = None

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def values(name: str) -> np.ndarray:
    """A (2, 3, 4) array of `name` with extremes, and NaN/inf/-0.0 for the inexact types."""
    dt = np.dtype(name)
    if dt.kind == "b":
        return (np.arange(24) % 3 == 0).reshape(2, 3, 4)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        flat = np.arange(24, dtype=np.int64) * 7 - 40
        flat = np.clip(flat, info.min, info.max).astype(dt)
        flat[0], flat[1] = info.min, info.max
        return flat.reshape(2, 3, 4)
    real = dt if dt.kind == "f" else np.empty(0, dt).real.dtype
    flat = (np.arange(24) * 0.37 - 3.3).astype(real)
    flat[:5] = [np.nan, np.inf, -np.inf, -0.0, np.finfo(real).max]
    if dt.kind == "f":
        return flat.reshape(2, 3, 4)
    out = np.empty(24, dtype=dt)
    out.real = flat
    out.imag = np.arange(24) * -1.25 + 2
    out.imag[5:7] = [np.nan, -np.inf]
    return out.reshape(2, 3, 4)


def write_version(path: pathlib.Path, a: np.ndarray, version) -> None:
    with open(path, "wb") as f:
        np.lib.format.write_array(f, a, version=version)


def npy_bytes(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def stored_zip(path: pathlib.Path, members: dict) -> None:
    """An uncompressed .npz as cunp::savez lays it out: Python's zipfile with a fixed DOS time
    (1980-01-01) and -rw-r--r-- attributes; np.load must read it (checked below)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for name, a in members.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            info.create_system = 3
            zf.writestr(info, npy_bytes(a))
    with np.load(path) as z:
        assert z.files == list(members)
        for name, a in members.items():
            np.testing.assert_array_equal(z[name], a)


def generate(out: pathlib.Path) -> None:
    for name in DTYPES:
        a = values(name)
        np.save(out / f"io_{name}_plain.npy", a)
        big = a.astype(a.dtype.newbyteorder(">"))
        np.save(out / f"io_{name}_be.npy", big)
        np.save(out / f"io_{name}_fortran.npy", np.asfortranarray(a))
        np.save(out / f"io_{name}_be_fortran.npy", np.asfortranarray(big))
        write_version(out / f"io_{name}_v2.npy", a, (2, 0))
        write_version(out / f"io_{name}_v3.npy", a, (3, 0))
        np.save(out / f"io_{name}_0d.npy", a.reshape(-1)[7].reshape(()))
        np.save(out / f"io_{name}_empty.npy", np.zeros((3, 0, 2), dtype=name))

    # bfloat16: np.save writes ml_dtypes' bfloat16 as '<V2'; a raw 2-byte void is '|V2'.
    bf_bits = np.array([0x3FC0, 0xC000, 0x7FC0, 0x7F80, 0xFF80, 0x8000, 0x3DCD, 0x0001],
                       dtype=np.uint16)
    np.save(out / "io_bfloat16_bits.npy", bf_bits.reshape(2, 4))
    np.save(out / "io_bfloat16_void.npy", bf_bits.reshape(2, 4).view("V2"))
    if ml_dtypes is not None:
        bf = bf_bits.view(ml_dtypes.bfloat16).reshape(2, 4)
        np.save(out / "io_bfloat16_plain.npy", bf)
        np.save(out / "io_bfloat16_fortran.npy", np.asfortranarray(bf))

    # np.save's bytes for arrays that the C++ test builds on its own.
    np.save(out / "io_arange_f32.npy", np.arange(12, dtype=np.float32).reshape(3, 4))
    np.save(out / "io_arange_i32_reversed.npy", np.arange(10, dtype=np.int32)[::-1])
    np.save(out / "io_arange_f64_transposed.npy",
            np.ascontiguousarray(np.arange(6, dtype=np.float64).reshape(2, 3).T))
    np.save(out / "io_scalar_f64.npy", np.array(3.5))
    np.save(out / "io_empty_f32.npy", np.zeros((0, 3), dtype=np.float32))
    np.save(out / "io_empty_1d_i64.npy", np.zeros(0, dtype=np.int64))
    np.save(out / "io_long_axis_f32.npy", np.zeros((10**15, 0), dtype=np.float32))
    np.save(out / "io_many_axes_u8.npy", np.ones((1,) * 60 + (2,), dtype=np.uint8))

    # Valid .npy files whose dtype cunp has no ndarray for.
    np.save(out / "io_unsupported_U3.npy", np.array(["abc", "de"]))
    np.save(out / "io_unsupported_O.npy", np.array([1, "x"], dtype=object), allow_pickle=True)
    np.save(out / "io_unsupported_M8.npy", np.array(["2020-01-01"], dtype="datetime64[ns]"))
    np.save(out / "io_unsupported_struct.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")]))
    np.save(out / "io_unsupported_f16.npy", np.zeros(2, dtype=np.longdouble))

    # .npz: np.savez's own archives (zip64 local headers, as NumPy forces), a compressed one,
    # and the layout cunp::savez writes.
    x = values("float64")[0]
    np.savez(out / "io_numpy.npz", values("int16"), np.asfortranarray(values("complex64")),
             x=x, flags=values("bool"), scalar=np.array(7, dtype=np.uint32),
             big=values("int32").astype(">i4"), empty=np.zeros((0, 4), dtype=np.float16))
    np.savez(out / "io_numpy_empty.npz")
    np.savez_compressed(out / "io_numpy_compressed.npz", x=x)
    stored_zip(out / "io_layout.npz", {"arr_0": values("float32"), "i": values("int16"),
                                       "s": np.array(3.5), "e": np.zeros((0, 2), np.uint8)})
