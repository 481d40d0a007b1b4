"""NumPy's outputs for numpy.fft (tests/test_fft.cpp).

Names are fft_<case>: each input as fft_<case>_x and each result as fft_<case>_<call>. Lengths
cover 1, 2, the radices 3, 5, 7, powers of two, a prime (97) and a composite (1000); the N-d cases
cover every norm, s that pads and crops, axis orders, repeated axes and negative-stride inputs.
"""
import numpy as np

LENGTHS = [1, 2, 3, 5, 7, 16, 97, 1000, 4096]
NORMS = ["backward", "ortho", "forward"]


def generate(out):
    rng = np.random.default_rng(20261204)

    def save(name, a):
        np.save(out / f"fft_{name}.npy", np.asarray(a))

    def complex_values(shape, dtype="complex128"):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)

    for dt in ("complex128", "complex64"):
        for n in LENGTHS:
            x = complex_values(n, dt)
            save(f"{dt}_{n}_x", x)
            for nm in NORMS:
                save(f"{dt}_{n}_fft_{nm}", np.fft.fft(x, norm=nm))
                save(f"{dt}_{n}_ifft_{nm}", np.fft.ifft(x, norm=nm))
    for dt in ("float64", "float32"):
        for n in LENGTHS:
            x = rng.standard_normal(n).astype(dt)
            save(f"{dt}_{n}_x", x)
            for nm in NORMS:
                save(f"{dt}_{n}_rfft_{nm}", np.fft.rfft(x, norm=nm))
                save(f"{dt}_{n}_ihfft_{nm}", np.fft.ihfft(x, norm=nm))
            # irfft and hfft of a spectrum of m values: the default n = 2 (m - 1) and the odd n
            # = 2 m - 1; m = n here.
            c = complex_values(n, "complex128" if dt == "float64" else "complex64")
            save(f"{dt}_{n}_c", c)
            for nm in NORMS:
                if n > 1:
                    save(f"{dt}_{n}_irfft_{nm}", np.fft.irfft(c, norm=nm))
                    save(f"{dt}_{n}_hfft_{nm}", np.fft.hfft(c, norm=nm))
                save(f"{dt}_{n}_irfft_odd_{nm}", np.fft.irfft(c, 2 * n - 1, norm=nm))
                save(f"{dt}_{n}_hfft_odd_{nm}", np.fft.hfft(c, 2 * n - 1, norm=nm))

    # n that pads and crops.
    x = complex_values(12)
    save("pad_x", x)
    for n in (1, 5, 12, 13, 20):
        save(f"pad_fft_{n}", np.fft.fft(x, n))
        save(f"pad_rfft_{n}", np.fft.rfft(x.real, n))
        save(f"pad_irfft_{n}", np.fft.irfft(x, n))

    # Axes of a 3-d array, and a negative-stride view of it (x[::-1, :, ::-2] in C++).
    x3 = complex_values((4, 5, 6))
    save("x3", x3)
    v3 = x3[::-1, :, ::-2]
    for ax in (0, 1, 2):
        save(f"x3_fft_a{ax}", np.fft.fft(x3, axis=ax))
        save(f"x3_ifft_a{ax}", np.fft.ifft(x3, 7, axis=ax, norm="ortho"))
        save(f"x3_rfft_a{ax}", np.fft.rfft(x3.real, axis=ax))
        save(f"x3_irfft_a{ax}", np.fft.irfft(x3, axis=ax))
        save(f"v3_fft_a{ax}", np.fft.fft(v3, axis=ax))
        save(f"v3_rfft_a{ax}", np.fft.rfft(v3.real, axis=ax))
    # N-d transforms: every axis, two of them in either order, s padding and cropping, repeats.
    save("x3_fftn", np.fft.fftn(x3))
    save("x3_ifftn_ortho", np.fft.ifftn(x3, norm="ortho"))
    save("x3_fftn_a20", np.fft.fftn(x3, axes=(2, 0)))
    save("x3_fftn_a02_s", np.fft.fftn(x3, s=(3, 8), axes=(0, 2)))
    save("x3_fftn_a00_s", np.fft.fftn(x3, s=(3, 6), axes=(0, 0)))
    save("x3_fftn_s_last", np.fft.fftn(x3, s=(7, -1)))
    save("x3_fft2", np.fft.fft2(x3))
    save("x3_ifft2_forward", np.fft.ifft2(x3, norm="forward"))
    save("x3_fft2_a01", np.fft.fft2(x3, axes=(0, 1)))
    save("x3_rfftn", np.fft.rfftn(x3.real))
    save("x3_rfftn_a10", np.fft.rfftn(x3.real, axes=(1, 0)))
    save("x3_rfft2_s", np.fft.rfft2(x3.real, s=(6, 9)))
    save("x3_irfftn", np.fft.irfftn(x3))
    save("x3_irfftn_s", np.fft.irfftn(x3, s=(4, 5, 9)))
    save("x3_irfft2_a01", np.fft.irfft2(x3, axes=(0, 1)))
    save("x3_irfft2_ortho", np.fft.irfft2(x3, norm="ortho"))
    save("v3_fftn", np.fft.fftn(v3))
    save("v3_rfftn", np.fft.rfftn(v3.real))
    save("v3_irfftn", np.fft.irfftn(v3))

    # Input dtypes NumPy 2 transforms in double (bool, integers) or single precision (float16).
    xi = rng.integers(-50, 50, 24).astype(np.int32)
    save("int32_x", xi)
    save("int32_fft", np.fft.fft(xi))
    save("int32_rfft", np.fft.rfft(xi))
    xb = (rng.integers(0, 2, 10) > 0)
    save("bool_x", xb)
    save("bool_fft", np.fft.fft(xb))
    xh = rng.standard_normal(16).astype(np.float16)
    save("float16_x", xh)
    save("float16_fft", np.fft.fft(xh))
    save("float16_rfft", np.fft.rfft(xh))
    save("float16_irfft", np.fft.irfft(xh))
    save("float16_hfft", np.fft.hfft(xh))

    for n, d in ((1, 1.0), (8, 0.1), (9, 2.0), (10, 1.0)):
        save(f"fftfreq_{n}", np.fft.fftfreq(n, d))
        save(f"rfftfreq_{n}", np.fft.rfftfreq(n, d))
    s2 = rng.standard_normal((5, 6))
    save("shift_x", s2)
    save("shift_fftshift", np.fft.fftshift(s2))
    save("shift_ifftshift", np.fft.ifftshift(s2))
    save("shift_fftshift_a1", np.fft.fftshift(s2, axes=1))
    save("shift_ifftshift_a0", np.fft.ifftshift(s2, axes=(0,)))
