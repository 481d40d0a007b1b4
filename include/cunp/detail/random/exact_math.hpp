// cunp/detail/random/exact_math.hpp: log, exp, sin/cos of pi x and the normal quantile that give
// the same bits on the host and on a GPU, for the distributions cunp draws by transformation
// (normal, exponential) and by rejection (gamma, beta, poisson: per_element.hpp). The
// libraries' log, exp and sincos differ in the last bit between glibc and CUDA, and nvcc fuses
// a * b + c where g++ does not; so every step here is one IEEE operation that rounds the same way
// on both (fma rounds once everywhere, sqrt and division are correctly rounded), with polynomial
// coefficients written as exact double constants. Accuracy is a few ulp, which the sampling does
// not notice; equality between the backends is the point.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

#include "cunp/config.hpp"
#include "cunp/detail/core/math.hpp"
#include "cunp/detail/random/transform_tables.hpp"

namespace cunp::detail {

/// a * b + c rounded once, on either side.
CUNP_HD inline double fma_exact(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
/// a + b, never fused with a neighbour (a * b: core/math.hpp's mul_rn).
CUNP_HD inline double add_exact(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

/// log 2 in fdlibm's two parts: ln2_hi's trailing zeros make k * ln2_hi exact for the k here.
inline constexpr double ln2_hi = 0x1.62e42fee00000p-1, ln2_lo = 0x1.a39ef35793c76p-33;

/// The number of leading zero bits of x (32 for 0).
CUNP_HD inline int countl_zero32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __clz(x);
#else
  return std::countl_zero(x);
#endif
}

/// log(x) for normal x > 0 (the transforms take uniforms in (0, 1], the smallest 2^-53).
/// x = m 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s), s = (m - 1)/(m + 1),
/// |s| < 0.172, by its series to s^21; e log 2 in two parts.
CUNP_HD inline double log_exact(double x) {
  std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  int e = int((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;  // m in [1, 2)
  double m = std::bit_cast<double>(bits);
  if (m > 0x1.6a09e667f3bcdp+0) {  // sqrt(2): take m / 2 (exact) and e + 1
    m = mul_rn(m, 0.5);
    ++e;
  }
  const double s = (m - 1.0) / add_exact(m, 1.0);  // m - 1 is exact
  const double z = mul_rn(s, s);
  // 2 atanh(s) = 2 s + s z (2/3 + z (2/5 + z (2/7 + ...)))
  constexpr double c[] = {0x1.5555555555555p-1, 0x1.999999999999ap-2, 0x1.2492492492492p-2,
                          0x1.c71c71c71c71cp-3, 0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3,
                          0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4, 0x1.af286bca1af28p-4,
                          0x1.8618618618618p-4};
  double p = c[9];
  for (int k = 8; k >= 0; --k) p = fma_exact(p, z, c[k]);
  const double log_m = fma_exact(mul_rn(s, z), p, mul_rn(2.0, s));
  return fma_exact(double(e), ln2_hi, fma_exact(double(e), ln2_lo, log_m));  // e * ln2_hi exact
}

/// log(x) for every x >= 0: log_exact's steps, with -inf at 0 and subnormal x scaled into the
/// normal range first (the rejection tests take logs of any draw).
CUNP_HD inline double log_any(double x) {
  if (x == 0) return -HUGE_VAL;
  if (x < 0x1p-1022)
    return add_exact(log_exact(mul_rn(x, 0x1p54)), mul_rn(-54.0, 0x1.62e42fefa39efp-1));
  return log_exact(x);
}

/// 2^k for -1022 <= k <= 1023, from its bits.
CUNP_HD inline double pow2_exact(int k) {
  return std::bit_cast<double>(std::uint64_t(k + 1023) << 52);
}

/// exp(x) for every x (0 below about -745.1, inf above about 709.8, NaN kept): x = k log 2 + r
/// with |r| <= log(2)/2 (r by the two parts of log 2), exp(r) by its series to r^13, times
/// 2^k in one product (two where 2^k is below the normal range: the second rounds once, as the
/// subnormal result).
CUNP_HD inline double exp_exact(double x) {
  if (x != x) return x;
  if (x < -746.0) return 0.0;
  if (x > 709.8) return HUGE_VAL;
  const double k = std::floor(add_exact(mul_rn(x, 0x1.71547652b82fep+0), 0.5));
  const double r = fma_exact(-k, ln2_lo, fma_exact(-k, ln2_hi, x));
  constexpr double c[] = {0x1.0000000000000p-1, 0x1.5555555555555p-3, 0x1.5555555555555p-5,
                          0x1.1111111111111p-7, 0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13,
                          0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19, 0x1.27e4fb7789f5cp-22,
                          0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33};
  double p = c[11];  // 1/13!, down to 1/2!
  for (int j = 10; j >= 0; --j) p = fma_exact(p, r, c[j]);
  p = fma_exact(fma_exact(p, r, 1.0), r, 1.0);
  const int e = int(k);
  if (e < -1022) return mul_rn(mul_rn(p, pow2_exact(e + 600)), pow2_exact(-600));
  if (e > 1023) return mul_rn(mul_rn(p, pow2_exact(e - 1)), 2.0);
  return mul_rn(p, pow2_exact(e));
}

/// sin and cos of (k/2 + r) pi from those of r pi: selects and sign flips, no branch (the lanes
/// of a warp turn by different k).
template <class R> CUNP_HD inline void quarter_turns(int k, R s, R c, R* sin_out, R* cos_out) {
  const bool swap = (k & 1) != 0;
  const R sv = swap ? c : s, cv = swap ? s : c;
  *sin_out = (k & 2) ? -sv : sv;
  *cos_out = ((k + 1) & 2) ? -cv : cv;
}

/// sin(pi y) and cos(pi y) for 0 <= y < 2: y = k/2 + r with |r| <= 1/4 (exact), the Taylor
/// series of sin and cos of pi r (terms to r^17 and r^18), then the quarter turns k.
CUNP_HD inline void sincospi_exact(double y, double* sin_out, double* cos_out) {
  const double k = std::floor(fma_exact(y, 2.0, 0.5));  // nearest quarter turn, 0..4
  const double r = fma_exact(k, -0.5, y);               // exact (Sterbenz)
  const double r2 = mul_rn(r, r);
  constexpr double sc[] = {0x1.921fb54442d18p+1,  -0x1.4abbce625be53p+2, 0x1.466bc6775aae2p+1,
                           -0x1.32d2cce62bd86p-1, 0x1.50783487ee782p-4,  -0x1.e3074fde8871fp-8,
                           0x1.e8f434d018d63p-12, -0x1.6fadb9f155744p-16, 0x1.aaec32af93359p-21};
  constexpr double cc[] = {0x1.0000000000000p+0,  -0x1.3bd3cc9be45dep+2, 0x1.03c1f081b5ac4p+2,
                           -0x1.55d3c7e3cbffap+0, 0x1.e1f506891babbp-3,  -0x1.a6d1f2a204a8cp-6,
                           0x1.f9d38a3763cc3p-10, -0x1.b6e24f44b128fp-14, 0x1.20c62c2f2d7f5p-18,
                           -0x1.2a0c591af8314p-23};
  double ps = sc[8], pc = cc[9];
  for (int j = 7; j >= 0; --j) ps = fma_exact(ps, r2, sc[j]);
  for (int j = 8; j >= 0; --j) pc = fma_exact(pc, r2, cc[j]);
  quarter_turns(static_cast<int>(k), mul_rn(ps, r), pc, sin_out, cos_out);
}

// The float32 forms, for float32 results, in float32 (twice float64's rate on a GPU, and these
// fills are bound by their instructions): a log from a table, sin and cos of a turn's fraction
// from its integer.
CUNP_HD inline float fma_exact(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
CUNP_HD inline float add_exact(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}

/// log(x) for 0 < x <= 1, x normal (down to 2^-24 here), glibc logf's reduction in float32:
/// x = 2^k z with z in [0.70, 1.40), an interval of z with centre c from `table`
/// (transform_tables.hpp, or a GPU block's copy of it in shared memory), and
/// log z = log c + log1p(r), r = z/c - 1 in one rounding, |r| < 2^-8, by its series to r^4.
/// No division: the GPU's IEEE division is a dozen instructions and a slow path.
CUNP_HD inline float log_exact(float x, const logf_entry* table) {
  const std::uint32_t ix = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t tmp = ix - logf_offset;
  const int k = static_cast<int>(tmp) >> 23;  // the exponent, arithmetic shift
  const logf_entry c = table[(tmp >> (23 - logf_table_bits)) & ((1u << logf_table_bits) - 1)];
  const std::uint32_t iz = ix - (tmp & 0xff800000u);
  const float z = std::bit_cast<float>(iz);
  const float r = fma_exact(z, c.invc, -1.0f);
  const float q = fma_exact(fma_exact(r, -0.25f, 0x1.555556p-2f), r, -0.5f);
  const float log1p_r = fma_exact(q, mul_rn(r, r), r);
  constexpr float ln2f_hi = 0x1.62e4p-1f, ln2f_lo = 0x1.7f7d1cp-20f;  // k * ln2f_hi exact
  const float kf = static_cast<float>(k);
  return add_exact(fma_exact(kf, ln2f_hi, c.logc), fma_exact(kf, ln2f_lo, log1p_r));
}

/// The standard normal quantile of a 32-bit draw h in float32: z(u) = -ndtri((u + 1/2) 2^-32)
/// of u = 2^31 - 1 - (h's low 31 bits), with the sign of h's top bit; so the 2^32 draws give
/// 2^32 equally likely normals, symmetric, the largest 6.23. A segment of u (or, near the
/// centre, of w = 2^31 - 1 - u) picks a cubic from `table` (transform_tables.hpp, or a GPU
/// block's copy of it in shared memory), evaluated at t, u's or w's offset into the segment:
/// within 2.3 ulp of z over every draw (scripts/transform_tables.py). One table entry, three
/// fma and integer steps: no log, square root or sin/cos, the same steps for every lane.
CUNP_HD inline float normal_quantile(std::uint32_t h, const quantile_entry* table) {
  static_assert(quantile_tail_bits == quantile_centre_bits + quantile_octave_bits);
  const std::uint32_t u = ~h & 0x7fffffffu;  // 2^31 - 1 - (h's low 31 bits)
  // The tail (u < 2^quantile_tail_bits): u's top bit and the next quantile_octave_bits pick the
  // segment, t = the s bits below (u < 16: s = 0, a segment each). The centre: segments of
  // 2^quantile_centre_bits values of w = 2^31 - 1 - u, taken as x = w + 2^quantile_tail_bits,
  // whose segments then follow the tail's in the table and whose t is w's low bits.
  const bool tail = u < (1u << quantile_tail_bits);
  const std::uint32_t x = tail ? u : (0x7fffffffu + (1u << quantile_tail_bits)) - u;
  const int top_less = 31 - quantile_octave_bits - countl_zero32(u);  // u = 0: below 0
  const int s = top_less < 0 ? 0 : top_less < quantile_centre_bits ? top_less : quantile_centre_bits;
  const quantile_entry c = table[(std::uint32_t(s) << quantile_octave_bits) + (x >> s)];
  const float t = static_cast<float>(x & ((1u << s) - 1));  // rounded to nearest
  const float z = fma_exact(fma_exact(fma_exact(c.c3, t, c.c2), t, c.c1), t, c.c0);
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(z) ^ (h & 0x80000000u));  // h's sign
}

}  // namespace cunp::detail
