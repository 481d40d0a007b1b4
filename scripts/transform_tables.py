#!/usr/bin/env python3
"""Writes include/cunp/detail/random/transform_tables.hpp: the tables of the float32 log and of
sin/cos of a turn that the float32 normals and exponentials take (detail/random/exact_math.hpp).

The log is glibc logf's reduction done in float32: x = 2^k z with z in [OFF, 2 OFF), OFF just
below 0.7; the 7 bits of z's mantissa after OFF pick an interval with centre c, and
log x = k log 2 + log c + log1p(z / c - 1), |z / c - 1| < 2^-8. The interval that holds 1.0 has
c = 1 exactly, so that logs of x near 1 keep their relative accuracy. Each entry holds 1/c
rounded to float32 and -log of that float32 value, rounded.

The turn table holds cos and sin of the centres of the 256 equal arcs of the circle,
2 pi (i + 1/2) / 256, rounded to float32.

Run: python3 scripts/transform_tables.py > include/cunp/detail/random/transform_tables.hpp
"""
import math
import struct

import numpy as np

OFF = 0x3F338000  # the 1.0 interval's boundaries fall at 1 - 2^-9 and 1 + 2^-8
LOG_BITS = 7
TURN_BITS = 8


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


def turn_entries():
    n = 1 << TURN_BITS
    return [(f32(math.cos(2 * math.pi * (i + 0.5) / n)), f32(math.sin(2 * math.pi * (i + 0.5) / n)))
            for i in range(n)]


def literal(x):
    return (float(x) + 0.0).hex().replace("0000000p", "p") + "f"  # + 0.0: no -0.0


def main():
    log, turn = log_entries(), turn_entries()
    print("// cunp/detail/random/transform_tables.hpp: written by scripts/transform_tables.py (its")
    print("// docstring says how); do not edit by hand.")
    print("#pragma once")
    print()
    print("namespace cunp::detail {")
    print()
    print(f"inline constexpr unsigned logf_offset = 0x{OFF:08x}u;")
    print(f"inline constexpr int logf_table_bits = {LOG_BITS};")
    print(f"inline constexpr int turn_table_bits = {TURN_BITS};")
    print("/// Of an interval of z: 1/c rounded to float32 and -log of that, rounded.")
    print("struct alignas(8) logf_entry {")
    print("  float invc, logc;")
    print("};")
    print("/// Of an arc of the circle: cos and sin of its centre, rounded to float32.")
    print("struct alignas(8) turn_entry {")
    print("  float cos, sin;")
    print("};")
    print("struct transform_tables_t {")
    print(f"  logf_entry log[{len(log)}];")
    print(f"  turn_entry turn[{len(turn)}];")
    print("};")
    print("inline constexpr transform_tables_t transform_tables = {")
    print("    {")
    for a, b in log:
        print(f"        {{{literal(a)}, {literal(b)}}},")
    print("    },")
    print("    {")
    for a, b in turn:
        print(f"        {{{literal(a)}, {literal(b)}}},")
    print("    }};")
    print()
    print("}  // namespace cunp::detail")


if __name__ == "__main__":
    main()
