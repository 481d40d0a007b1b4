#!/usr/bin/env python3
"""Writes include/cunp/detail/random/transform_tables.hpp: the tables of the float32 log that the
float32 exponentials take, and of the normal quantile that the float32 normals take
(detail/random/exact_math.hpp).

The log is glibc logf's reduction done in float32: x = 2^k z with z in [OFF, 2 OFF), OFF just
below 0.7; the 7 bits of z's mantissa after OFF pick an interval with centre c, and
log x = k log 2 + log c + log1p(z / c - 1), |z / c - 1| < 2^-8. The interval that holds 1.0 has
c = 1 exactly, so that logs of x near 1 keep their relative accuracy. Each entry holds 1/c
rounded to float32 and -log of that float32 value, rounded.

The quantile table holds a cubic in t of each segment of the normal quantile z(u) = -ndtri(p),
p = (u + 1/2) 2^-32, u < 2^31 (a float32 normal is z or -z, the draw's top bit picking which).
The tail, u < 2^29 (p < 1/8): 8 segments an octave of u (u's top bit, the next 3 bits pick the
segment, t = the bits below); u < 16 is one value a segment. The centre, w = 2^31 - 1 - u below
3 2^29: segments of 2^26 values of w, t = w's low 26 bits; the one at the centre has its
constant pinned to z there, so that the smallest normals keep their relative accuracy. Each
cubic is fitted in float64 to z's relative error at 64 Chebyshev nodes of its segment
(scipy.special.ndtri), then rounded to float32; evaluated by Horner's rule with fma in float32
it is within 2.3 ulp of z on every segment (checked here at both ends and at 4000 points of
each; over all 2^31 values of u the worst is 2.26 ulp, the mean 0.39).

Run: python3 scripts/transform_tables.py > include/cunp/detail/random/transform_tables.hpp
"""
import math
import struct

import numpy as np
import scipy.special

OFF = 0x3F338000  # the 1.0 interval's boundaries fall at 1 - 2^-9 and 1 + 2^-8
LOG_BITS = 7
Q_TAIL_BITS = 29  # the tail: u < 2^29
Q_OCTAVE_BITS = 3  # segments an octave of u, as bits
Q_CENTRE_BITS = 26  # values of w a centre segment, as bits
# normal_quantile finds a centre segment as the tail's next octave (its x = w + 2^Q_TAIL_BITS)
assert Q_TAIL_BITS == Q_CENTRE_BITS + Q_OCTAVE_BITS


def as_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f32(x):
    return float(np.float32(x))


def log_entries():
    out = []
    width = 1 << (23 - LOG_BITS)
    for i in range(1 << LOG_BITS):
        lo, hi = as_float(OFF + i * width), as_float(OFF + (i + 1) * width)
        c = 1.0 if lo <= 1.0 < hi else (lo + hi) / 2
        invc = f32(1.0 / c)
        out.append((invc, f32(-math.log(invc))))
    return out


def quantile_of_u(u):
    return -scipy.special.ndtri((np.asarray(u, np.float64) + 0.5) * 2.0**-32)


def quantile_segments():
    """(z of t, n): the segments in table order, tail first."""
    segs = []
    for sh in range(Q_TAIL_BITS - Q_OCTAVE_BITS):
        first = 0 if sh == 0 else 1 << Q_OCTAVE_BITS
        for m in range(first, 1 << (Q_OCTAVE_BITS + 1)):
            segs.append((lambda t, u0=m << sh: quantile_of_u(u0 + t), 1 << sh))
    top = (1 << 31) - 1
    for c in range(((1 << 31) - (1 << Q_TAIL_BITS)) >> Q_CENTRE_BITS):
        segs.append((lambda t, w0=c << Q_CENTRE_BITS: quantile_of_u(top - (w0 + t)),
                     1 << Q_CENTRE_BITS))
    return segs


def horner_f32(c, t):
    """c[0] + t (c[1] + t (c[2] + t c[3])) with float32 fma (a float32 product is exact in float64)."""
    t = np.asarray(t, np.float32).astype(np.float64)
    r = np.full(t.shape, c[3], np.float32)
    for k in (2, 1, 0):
        r = (r.astype(np.float64) * t + np.float64(c[k])).astype(np.float32)
    return r


def quantile_entries():
    out, worst = [], 0.0
    check = np.random.default_rng(1)
    for z, n in quantile_segments():
        if n == 1:
            out.append((f32(z(0)), 0.0, 0.0, 0.0))
            continue
        x = (n - 1) / 2 * (1 - np.cos(np.pi * (np.arange(64) + 0.5) / 64))
        y = z(x)
        a = np.vander(x / n, 4, increasing=True) / y[:, None]  # relative error, t scaled to [0, 1)
        if z(0) < 1e-8:  # the centre's segment: z(0) = sqrt(2 pi) 2^-33
            z0 = z(0)
            rest, *_ = np.linalg.lstsq(a[:, 1:], 1 - z0 / y, rcond=None)
            sol = np.concatenate([[z0], rest])
        else:
            sol, *_ = np.linalg.lstsq(a, np.ones_like(y), rcond=None)
        c = [f32(v) for v in sol / float(n) ** np.arange(4)]  # n a power of 2: exact scaling
        t = np.unique(np.concatenate([np.arange(min(n, 64)), n - 1 - np.arange(min(n, 64)),
                                      check.integers(0, n, 4000)]))
        want = z(t)
        ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
        worst = max(worst, float(np.max(np.abs(horner_f32(c, t) - want) / ulp)))
        out.append(tuple(c))
    assert worst < 2.5, worst
    return out


def literal(x):
    return (float(x) + 0.0).hex().replace("0000000p", "p") + "f"  # + 0.0: no -0.0


def main():
    log, quantile = log_entries(), quantile_entries()
    print("// cunp/detail/random/transform_tables.hpp: written by scripts/transform_tables.py (its")
    print("// docstring says how); do not edit by hand.")
    print("#pragma once")
    print()
    print("namespace cunp::detail {")
    print()
    print(f"inline constexpr unsigned logf_offset = 0x{OFF:08x}u;")
    print(f"inline constexpr int logf_table_bits = {LOG_BITS};")
    print(f"inline constexpr int quantile_tail_bits = {Q_TAIL_BITS};")
    print(f"inline constexpr int quantile_octave_bits = {Q_OCTAVE_BITS};")
    print(f"inline constexpr int quantile_centre_bits = {Q_CENTRE_BITS};")
    print("/// Of an interval of z: 1/c rounded to float32 and -log of that, rounded.")
    print("struct alignas(8) logf_entry {")
    print("  float invc, logc;")
    print("};")
    print("struct logf_table_t {")
    print(f"  logf_entry entry[{len(log)}];")
    print("};")
    print("inline constexpr logf_table_t logf_table = {{")
    for a, b in log:
        print(f"    {{{literal(a)}, {literal(b)}}},")
    print("}};")
    print("/// Of a segment of the normal quantile: the cubic's coefficients, constant first.")
    print("struct alignas(16) quantile_entry {")
    print("  float c0, c1, c2, c3;")
    print("};")
    print("struct quantile_table_t {")
    print(f"  quantile_entry entry[{len(quantile)}];")
    print("};")
    print("inline constexpr quantile_table_t quantile_table = {{")
    for c in quantile:
        print("    {" + ", ".join(literal(v) for v in c) + "},")
    print("}};")
    print()
    print("}  // namespace cunp::detail")


if __name__ == "__main__":
    main()
