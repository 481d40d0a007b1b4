// cunp/detail/core/math.hpp: the arithmetic types element-wise loops compute in, and the real and
// complex functions they call, on host and device.
//
// Real functions are the C library's (glibc on the host, CUDA's math library on the device), as
// NumPy's loops are. Complex functions follow C99 Annex G (special values, branch cuts, signed
// zeros) as glibc's, which NumPy calls on Linux; where C99 leaves a sign unspecified they pick
// glibc's choice. The inverse functions use Hull, Fairgrieve and Tang's algorithm ("Implementing
// the complex arcsine and arccosine functions using exception handling", ACM TOMS 23(3), 1997).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cunp/dtype.hpp"

namespace cunp::detail {

// ---------------------------------------------------------------------------------------------
// Real functions: the C function in single precision on float, double precision on double; both
// exist on the host and on the device (std:: overloads have no device versions).
#define CUNP_REAL_FN(name, fn)                              \
  CUNP_HD inline float name(float x) { return ::fn##f(x); } \
  CUNP_HD inline double name(double x) { return ::fn(x); }
#define CUNP_REAL_FN2(name, fn)                                         \
  CUNP_HD inline float name(float x, float y) { return ::fn##f(x, y); } \
  CUNP_HD inline double name(double x, double y) { return ::fn(x, y); }
CUNP_REAL_FN(real_sqrt, sqrt)
CUNP_REAL_FN(real_cbrt, cbrt)
CUNP_REAL_FN(real_exp, exp)
CUNP_REAL_FN(real_exp2, exp2)
CUNP_REAL_FN(real_expm1, expm1)
CUNP_REAL_FN(real_log, log)
CUNP_REAL_FN(real_log2, log2)
CUNP_REAL_FN(real_log10, log10)
CUNP_REAL_FN(real_log1p, log1p)
CUNP_REAL_FN(real_sin, sin)
CUNP_REAL_FN(real_cos, cos)
CUNP_REAL_FN(real_tan, tan)
CUNP_REAL_FN(real_asin, asin)
CUNP_REAL_FN(real_acos, acos)
CUNP_REAL_FN(real_atan, atan)
CUNP_REAL_FN(real_sinh, sinh)
CUNP_REAL_FN(real_cosh, cosh)
CUNP_REAL_FN(real_tanh, tanh)
CUNP_REAL_FN(real_asinh, asinh)
CUNP_REAL_FN(real_acosh, acosh)
CUNP_REAL_FN(real_atanh, atanh)
CUNP_REAL_FN(real_fabs, fabs)
CUNP_REAL_FN(real_floor, floor)
CUNP_REAL_FN(real_ceil, ceil)
CUNP_REAL_FN(real_trunc, trunc)
CUNP_REAL_FN(real_rint, rint)
CUNP_REAL_FN2(real_atan2, atan2)
CUNP_REAL_FN2(real_copysign, copysign)
CUNP_REAL_FN2(real_fmod, fmod)
CUNP_REAL_FN2(real_pow, pow)
CUNP_REAL_FN2(real_nextafter, nextafter)
#undef CUNP_REAL_FN
#undef CUNP_REAL_FN2

template <class R>
CUNP_HD constexpr bool is_nan(R x) {
  return x != x;
}
template <class R>
CUNP_HD constexpr bool is_inf(R x) {
  return x == std::numeric_limits<R>::infinity() || x == -std::numeric_limits<R>::infinity();
}
template <class R>
CUNP_HD constexpr bool is_finite(R x) {
  return x <= std::numeric_limits<R>::max() && x >= -std::numeric_limits<R>::max();
}
/// The sign bit, also of zeros and NaNs (numpy.signbit).
template <class R>
CUNP_HD constexpr bool sign_bit(R x) {
  if constexpr (sizeof(R) == 4)
    return std::bit_cast<std::uint32_t>(x) >> 31;
  else
    return std::bit_cast<std::uint64_t>(x) >> 63;
}
template <class R>
inline constexpr R nan_v = std::numeric_limits<R>::quiet_NaN();
template <class R>
inline constexpr R inf_v = std::numeric_limits<R>::infinity();
template <class R>
inline constexpr R pi_v = R(3.14159265358979323846264338327950288);
template <class R>
inline constexpr R ln2_v = R(0.693147180559945309417232121458176568);

CUNP_HD inline double real_fma(double a, double b, double c) { return ::fma(a, b, c); }
CUNP_HD inline float real_ldexp(float x, int n) { return ::ldexpf(x, n); }
CUNP_HD inline double real_ldexp(double x, int n) { return ::ldexp(x, n); }
CUNP_HD inline float real_frexp(float x, int* e) { return ::frexpf(x, e); }
CUNP_HD inline double real_frexp(double x, int* e) { return ::frexp(x, e); }
CUNP_HD inline float real_modf(float x, float* i) { return ::modff(x, i); }
CUNP_HD inline double real_modf(double x, double* i) { return ::modf(x, i); }

/// The number of one bits of an unsigned integer (std::popcount has no device version).
template <class U>
CUNP_HD int popcount(U v) {
  static_assert(std::is_unsigned_v<U>);
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(U) == 8)
    return __popcll(v);
  else
    return __popc(v);
#else
  return std::popcount(v);
#endif
}

/// a * b rounded once, never fused with a neighbouring addition: nvcc contracts a*b + c into an
/// fma by default, which would make the GPU's complex products differ from the cpu's (near
/// overflow even inf against nan) and breaks error-free transformations.
CUNP_HD inline float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
CUNP_HD inline double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

/// hypot: glibc's on the host (NumPy's, correctly rounded in practice). CUDA's is 2 ulp: it
/// overflows just below DBL_MAX and misrounds hypot(1, tiny), which log1p and the complex log
/// turn into large relative errors. The device computes float in double, and double by Borges'
/// fma-corrected algorithm ("An improved algorithm for hypot(a,b)", 2019) with power-of-two
/// scaling, so that squares neither overflow nor underflow.
CUNP_HD inline float real_hypot(float x, float y) {
#if defined(__CUDA_ARCH__)
  if (is_inf(x) || is_inf(y)) return inf_v<float>;  // also against NaN, as C99
  const double a = x, b = y;
  return float(::sqrt(::fma(a, a, b * b)));
#else
  return ::hypotf(x, y);
#endif
}
CUNP_HD inline double real_hypot(double x, double y) {
#if defined(__CUDA_ARCH__)
  double a = ::fabs(x), b = ::fabs(y);
  if (is_inf(a) || is_inf(b)) return inf_v<double>;
  if (is_nan(a) || is_nan(b)) return a + b;
  if (a < b) {
    const double t = a;
    a = b;
    b = t;
  }
  if (b <= a * 0x1p-27) return a;  // b^2 / 2a is below half an ulp of a
  double scale = 1;
  if (a > 0x1p+500) {
    scale = 0x1p+600, a *= 0x1p-600, b *= 0x1p-600;
  } else if (b < 0x1p-500) {
    scale = 0x1p-600, a *= 0x1p+600, b *= 0x1p+600;
  }
  double h = ::sqrt(::fma(a, a, b * b));
  const double h2 = mul_rn(h, h), a2 = mul_rn(a, a);  // unfused: exact error terms
  const double err = ::fma(-b, b, h2 - a2) + ::fma(h, h, -h2) - ::fma(a, a, -a2);
  h -= err / (2 * h);
  return h * scale;
#else
  return ::hypot(x, y);
#endif
}

/// A complex number with host and device operators (std::complex has no __device__ members);
/// laid out like std::complex<R>.
template <class R>
struct cplx {
  R re, im;
  CUNP_HD constexpr cplx(R r = 0, R i = 0) : re(r), im(i) {}
  CUNP_HD friend constexpr cplx operator+(cplx a, cplx b) { return {a.re + b.re, a.im + b.im}; }
  CUNP_HD friend constexpr cplx operator-(cplx a, cplx b) { return {a.re - b.re, a.im - b.im}; }
  CUNP_HD friend constexpr cplx operator-(cplx a) { return {-a.re, -a.im}; }
  CUNP_HD friend cplx operator*(cplx a, cplx b) {
    return {mul_rn(a.re, b.re) - mul_rn(a.im, b.im), mul_rn(a.re, b.im) + mul_rn(a.im, b.re)};
  }
  // Smith's algorithm, as NumPy: no overflow for large denominators.
  CUNP_HD friend cplx operator/(cplx a, cplx b) {
    const R abs_br = real_fabs(b.re), abs_bi = real_fabs(b.im);
    if (abs_br >= abs_bi) {
      if (abs_br == 0 && abs_bi == 0) return {a.re / abs_br, a.im / abs_br};  // +0: inf or nan
      const R rat = b.im / b.re, scl = R(1) / (b.re + b.im * rat);
      return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
    }
    const R rat = b.re / b.im, scl = R(1) / (b.im + b.re * rat);
    return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
  }
  CUNP_HD friend constexpr bool operator==(cplx a, cplx b) { return a.re == b.re && a.im == b.im; }
  CUNP_HD friend constexpr bool operator!=(cplx a, cplx b) { return !(a == b); }
};

template <class R>
struct complex_parts<cplx<R>> {
  using type = R;
};
}  // namespace cunp::detail

namespace cunp {
template <class R>
inline constexpr bool is_complex_v<detail::cplx<R>> = true;
}

namespace cunp::detail {

/// The type an element-wise loop computes in for storage type T: float for float16/bfloat16
/// (as NumPy), cplx for complex, T otherwise.
template <class T>
struct math_type {
  using type = T;
};
template <>
struct math_type<float16> {
  using type = float;
};
template <>
struct math_type<bfloat16> {
  using type = float;
};
template <class R>
struct math_type<std::complex<R>> {
  using type = cplx<R>;
};
template <class T>
using math_t = typename math_type<T>::type;

template <class T>
inline constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// ---------------------------------------------------------------------------------------------
// Complex functions.

template <class R>
struct complex_limits;
template <>
struct complex_limits<float> {
  static constexpr float sqrt_min = 1.0842021724855044e-19f;  // sqrt(FLT_MIN)
  static constexpr float sqrt_6_eps = 8.4572793338e-4f;       // asinh(z) = z below a quarter
  static constexpr float sqrt_3_eps = 5.9801995673e-4f;       // atanh(z) = z below a half
  static constexpr float hyp_big = 9;     // cosh(x) and |sinh(x)| round to exp(|x|)/2 beyond
  static constexpr float tanh_huge = 11;  // tanh(x) rounds to +-1 beyond
};
template <>
struct complex_limits<double> {
  static constexpr double sqrt_min = 1.4916681462400413e-154;
  static constexpr double sqrt_6_eps = 3.65002414998885671e-08;
  static constexpr double sqrt_3_eps = 2.5809568279517849e-8;
  static constexpr double hyp_big = 22;
  static constexpr double tanh_huge = 22;
};

template <class R>
CUNP_HD R c_abs(cplx<R> z) {
  return real_hypot(z.re, z.im);
}
template <class R>
CUNP_HD R c_arg(cplx<R> z) {
  return real_atan2(z.im, z.re);
}

/// x*x + y*y - 1 for 0 <= y <= x, with no cancellation near the unit circle.
CUNP_HD inline float x2y2m1(float x, float y) {
  const double dx = x, dy = y;  // exact products and one rounding in double
  return static_cast<float>((dx - 1) * (dx + 1) + dy * dy);
}
CUNP_HD inline double x2y2m1(double x, double y) {
  const double px = mul_rn(x, x), ex = real_fma(x, x, -px);  // x*x = px + ex exactly
  const double py = mul_rn(y, y), ey = real_fma(y, y, -py);
  const double s = px - 1;  // exact: px lies in [0.5, 3] here
  const double t = s + py, v = t - s, et = (s - (t - v)) + (py - v);
  return t + (et + ex + ey);
}

template <class R>
CUNP_HD cplx<R> c_log(cplx<R> z) {
  const R ax = real_fabs(z.re), ay = real_fabs(z.im);
  if (is_inf(ax) || is_inf(ay)) return {inf_v<R>, c_arg(z)};
  if (is_nan(ax) || is_nan(ay)) return {nan_v<R>, nan_v<R>};
  const R hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
  R re;
  if (hi == 0) {
    re = -inf_v<R>;
  } else if (hi > std::numeric_limits<R>::max() / 4) {
    re = real_log(real_hypot(ax / 2, ay / 2)) + ln2_v<R>;
  } else if (hi < std::numeric_limits<R>::min()) {  // subnormal: scale up exactly first
    const R up = R(1) / std::numeric_limits<R>::epsilon();
    re = real_log(real_hypot(ax * up, ay * up)) + real_log(std::numeric_limits<R>::epsilon());
  } else {
    const R h = real_hypot(ax, ay);
    re = (h >= R(0.71) && h <= R(1.73)) ? real_log1p(x2y2m1(hi, lo)) / 2 : real_log(h);
  }
  return {re, c_arg(z)};
}

template <class R>
CUNP_HD cplx<R> c_sqrt(cplx<R> z) {
  R a = z.re, b = z.im;
  if (a == 0 && b == 0) return {0, b};
  if (is_inf(b)) return {inf_v<R>, b};
  if (is_nan(a)) return {a, nan_v<R>};
  if (is_inf(a)) {
    if (a < 0) return {is_nan(b) ? b : R(0), real_copysign(inf_v<R>, b)};
    return {a, is_nan(b) ? b : real_copysign(R(0), b)};
  }
  // Scale by an even power of two so that neither a + |z| overflows nor subnormals lose bits.
  R scale = 1;
  const R big = std::numeric_limits<R>::max() / 4, small = std::numeric_limits<R>::min() * 4;
  if (real_fabs(a) >= big || real_fabs(b) >= big) {
    a *= R(0.25), b *= R(0.25), scale = 2;
  } else if (real_fabs(a) < small && real_fabs(b) < small) {
    const R up = sizeof(R) == 4 ? R(16777216) : R(18014398509481984.0);  // 2^24, 2^54
    a *= up, b *= up, scale = R(1) / (sizeof(R) == 4 ? R(4096) : R(134217728));
  }
  const R t = real_sqrt((real_fabs(a) + real_hypot(a, b)) / 2);  // Algorithm 312, CACM 10(10)
  if (a >= 0) return {t * scale, b / (2 * t) * scale};
  return {real_fabs(b) / (2 * t) * scale, real_copysign(t * scale, b)};
}

/// e^x * (cos y + i sin y) for finite x, y; exp(x) may overflow while the product does not.
template <class R>
CUNP_HD cplx<R> exp_cis(R x, R y, R half = 1) {
  const R c = real_cos(y) * half, s = real_sin(y) * half, e = real_exp(x);
  if (is_finite(e)) return {e * c, e * s};
  const R h = real_exp(x / 2);  // e^x = h*h: multiply in two steps
  return {c * h * h, s * h * h};
}

template <class R>
CUNP_HD cplx<R> c_exp(cplx<R> z) {
  const R x = z.re, y = z.im;
  if (is_finite(x)) {
    if (y == 0) return {real_exp(x), y};
    if (!is_finite(y)) return {nan_v<R>, nan_v<R>};
    return exp_cis(x, y);
  }
  if (is_nan(x)) return {x, y == 0 ? y : nan_v<R>};
  if (x > 0) {
    if (y == 0) return {x, y};
    if (!is_finite(y)) return {x, nan_v<R>};
    return {x * real_cos(y), x * real_sin(y)};
  }
  if (!is_finite(y)) return {0, is_nan(y) ? R(0) : real_copysign(R(0), y)};
  return {R(0) * real_cos(y), R(0) * real_sin(y)};
}

template <class R>
CUNP_HD cplx<R> c_sinh(cplx<R> z) {
  const R x = z.re, y = z.im;
  if (is_finite(x) && is_finite(y)) {
    if (y == 0) return {real_sinh(x), y};
    if (real_fabs(x) < complex_limits<R>::hyp_big)
      return {real_sinh(x) * real_cos(y), real_cosh(x) * real_sin(y)};
    const cplx<R> h = exp_cis(real_fabs(x), y, R(0.5));  // cosh(x) = |sinh(x)| = e^|x| / 2
    return {real_copysign(R(1), x) * h.re, h.im};
  }
  if (x == 0) return {x, nan_v<R>};
  if (y == 0) return {x, is_nan(x) ? y : real_copysign(R(0), y)};
  if (is_finite(x) || is_nan(x)) return {nan_v<R>, nan_v<R>};
  if (!is_finite(y)) return {inf_v<R>, nan_v<R>};
  return {x * real_cos(y), inf_v<R> * real_sin(y)};
}

template <class R>
CUNP_HD cplx<R> c_cosh(cplx<R> z) {
  const R x = z.re, y = z.im;
  if (is_finite(x) && is_finite(y)) {
    if (y == 0) return {real_cosh(x), x * y};
    if (real_fabs(x) < complex_limits<R>::hyp_big)
      return {real_cosh(x) * real_cos(y), real_sinh(x) * real_sin(y)};
    const cplx<R> h = exp_cis(real_fabs(x), y, R(0.5));
    return {h.re, real_copysign(R(1), x) * h.im};
  }
  if (x == 0) return {nan_v<R>, R(0)};
  if (y == 0) return {is_nan(x) ? x : inf_v<R>, is_nan(x) ? y : real_copysign(R(0), x) * y};
  if (is_finite(x) || is_nan(x)) return {nan_v<R>, nan_v<R>};
  if (!is_finite(y)) return {inf_v<R>, nan_v<R>};
  return {inf_v<R> * real_cos(y), x * real_sin(y)};
}

/// tanh by Kahan's formula ("Branch cuts for complex elementary functions", 1987).
template <class R>
CUNP_HD cplx<R> c_tanh(cplx<R> z) {
  const R x = z.re, y = z.im;
  if (is_nan(x)) return {x, y == 0 ? y : nan_v<R>};
  if (is_inf(x))
    return {real_copysign(R(1), x), real_copysign(R(0), is_inf(y)   ? y
                                                        : is_nan(y) ? R(1)
                                                                    : real_sin(y) * real_cos(y))};
  if (!is_finite(y)) return {x == 0 ? x : nan_v<R>, nan_v<R>};
  if (real_fabs(x) >= complex_limits<R>::tanh_huge) {
    const R e = real_exp(-real_fabs(x));
    return {real_copysign(R(1), x), 4 * real_sin(y) * real_cos(y) * e * e};
  }
  const R t = real_tan(y), beta = 1 + t * t, s = real_sinh(x), rho = real_sqrt(1 + s * s);
  const R den = 1 + beta * s * s;
  return {beta * rho * s / den, t / den};
}

// sin, cos, tan through the hyperbolic functions of i*z (C99's definitions).
template <class R>
CUNP_HD cplx<R> c_sin(cplx<R> z) {
  const cplx<R> w = c_sinh(cplx<R>(-z.im, z.re));
  return {w.im, is_inf(w.re) && is_nan(w.im) ? w.re : -w.re};  // glibc's +inf where C99 allows +-
}
template <class R>
CUNP_HD cplx<R> c_cos(cplx<R> z) {
  return c_cosh(cplx<R>(-z.im, z.re));
}
template <class R>
CUNP_HD cplx<R> c_tan(cplx<R> z) {
  const cplx<R> w = c_tanh(cplx<R>(-z.im, z.re));
  return {w.im, -w.re};
}

/// log(z) for |z| beyond 1/eps (no care for |z| near 1 needed).
template <class R>
CUNP_HD cplx<R> log_large(R x, R y) {
  const R m = real_fabs(x) > real_fabs(y) ? real_fabs(x) : real_fabs(y);
  const R re = m > std::numeric_limits<R>::max() / 2 ? real_log(real_hypot(x / 2, y / 2)) + ln2_v<R>
                                                     : real_log(real_hypot(x, y));
  return {re, real_atan2(y, x)};
}

/// (hypot(a, b) - b) / 2 without cancellation; h = hypot(a, b).
template <class R>
CUNP_HD R half_excess(R a, R b, R h) {
  if (b < 0) return (h - b) / 2;
  if (b == 0) return a / 2;
  return a * a / (h + b) / 2;
}

/// Hull et al.'s kernel for x, y >= 0 below 1/eps. re = log(A + sqrt(A*A - 1)) with
/// A = (|z + i| + |z - i|) / 2; the other part is asin(b) when `b_usable`, else
/// atan2(y, sqrt_a2y2) (both rescaled alike to avoid underflow).
template <class R>
struct asinh_kernel {
  R re, b, sqrt_a2y2, y;
  bool b_usable;
  CUNP_HD asinh_kernel(R x, R y0) : re(0), b(0), sqrt_a2y2(0), y(y0), b_usable(true) {
    constexpr R eps = std::numeric_limits<R>::epsilon();
    const R r = real_hypot(x, y + 1), s = real_hypot(x, y - 1);
    R a = (r + s) / 2;
    if (a < 1) a = 1;
    if (a >= 10) {
      re = real_log(a + real_sqrt(a * a - 1));
    } else if (y == 1 && x < eps * eps / 128) {
      re = real_sqrt(x);
    } else if (x >= eps * real_fabs(y - 1)) {
      const R am1 = half_excess(x, 1 + y, r) + half_excess(x, 1 - y, s);
      re = real_log1p(am1 + real_sqrt(am1 * (a + 1)));
    } else if (y < 1) {
      re = x / real_sqrt((1 - y) * (1 + y));
    } else {
      re = real_log1p((y - 1) + real_sqrt((y - 1) * (y + 1)));
    }
    if (y < 4 * complex_limits<R>::sqrt_min) {  // y / A could underflow: use atan2, scaled
      b_usable = false;
      sqrt_a2y2 = a * (2 / eps);
      y *= 2 / eps;
      return;
    }
    b = y / a;
    if (b <= R(0.6417)) return;  // asin(b) is accurate up to here
    b_usable = false;
    if (y == 1 && x < eps / 128) {
      sqrt_a2y2 = real_sqrt(x) * real_sqrt((a + y) / 2);
    } else if (x >= eps * real_fabs(y - 1)) {
      const R amy = half_excess(x, y + 1, r) + half_excess(x, y - 1, s);
      sqrt_a2y2 = real_sqrt(amy * (a + y));
    } else if (y > 1) {
      const R up = 4 / eps / eps;
      sqrt_a2y2 = x * up * y / real_sqrt((y + 1) * (y - 1));
      y *= up;
    } else {
      sqrt_a2y2 = real_sqrt((1 - y) * (1 + y));
    }
  }
};

template <class R>
CUNP_HD cplx<R> c_asinh(cplx<R> z) {
  const R x = z.re, y = z.im, ax = real_fabs(x), ay = real_fabs(y);
  constexpr R eps = std::numeric_limits<R>::epsilon();
  if (is_nan(x) || is_nan(y)) {
    if (is_inf(x)) return {x, nan_v<R>};
    if (is_inf(y)) return {inf_v<R>, nan_v<R>};
    return {nan_v<R>, y == 0 ? y : nan_v<R>};
  }
  if (ax > 1 / eps || ay > 1 / eps) {  // asinh(z) = sign(x) log(2 sign(x) z) + O(1/z^2)
    const cplx<R> w = sign_bit(x) ? log_large(-x, -y) : log_large(x, y);
    return {real_copysign(w.re + ln2_v<R>, x), real_copysign(w.im, y)};
  }
  if (ax < complex_limits<R>::sqrt_6_eps / 4 && ay < complex_limits<R>::sqrt_6_eps / 4) return z;
  const asinh_kernel<R> k(ax, ay);
  const R im = k.b_usable ? real_asin(k.b) : real_atan2(k.y, k.sqrt_a2y2);
  return {real_copysign(k.re, x), real_copysign(im, y)};
}

template <class R>
CUNP_HD cplx<R> c_acos(cplx<R> z) {
  const R x = z.re, y = z.im, ax = real_fabs(x), ay = real_fabs(y);
  constexpr R eps = std::numeric_limits<R>::epsilon();
  if (is_nan(x) || is_nan(y)) {
    if (is_inf(x)) return {nan_v<R>, -inf_v<R>};
    if (is_inf(y)) return {nan_v<R>, -y};
    if (x == 0) return {pi_v<R> / 2, nan_v<R>};
    return {nan_v<R>, nan_v<R>};
  }
  if (ax > 1 / eps || ay > 1 / eps) {
    const cplx<R> w = log_large(x, y);
    const R im = w.re + ln2_v<R>;
    return {real_fabs(w.im), sign_bit(y) ? im : -im};
  }
  if (x == 1 && y == 0) return {0, -y};
  if (ax < complex_limits<R>::sqrt_6_eps / 4 && ay < complex_limits<R>::sqrt_6_eps / 4)
    return {pi_v<R> / 2 - x, -y};
  const asinh_kernel<R> k(ay, ax);  // roles of x and y swapped: acos(z) = pi/2 - asin(z)
  R re;
  if (k.b_usable)
    re = real_acos(sign_bit(x) ? -k.b : k.b);
  else
    re = real_atan2(k.sqrt_a2y2, sign_bit(x) ? -k.y : k.y);
  return {re, sign_bit(y) ? k.re : -k.re};
}

template <class R>
CUNP_HD cplx<R> c_asin(cplx<R> z) {  // asin(z) = i conj(asinh(i conj(z)))
  const cplx<R> w = c_asinh(cplx<R>(z.im, z.re));
  return {w.im, w.re};
}

template <class R>
CUNP_HD cplx<R> c_acosh(cplx<R> z) {  // +-i acos(z), with a real part >= 0
  const cplx<R> w = c_acos(z);
  if (is_nan(w.re) && is_nan(w.im)) return w;
  if (is_nan(w.re)) return {real_fabs(w.im), w.re};
  if (is_nan(w.im)) return {w.im, w.re};  // acosh(+-0 + i nan) = nan + i pi/2
  return {real_fabs(w.im), real_copysign(w.re, z.im)};
}

/// Re(1 / (x + iy)) for |x + iy| beyond 1/eps, without spurious overflow or underflow.
template <class R>
CUNP_HD R real_part_reciprocal(R x, R y) {
  if (is_inf(x) || is_inf(y)) return is_inf(x) ? real_copysign(R(0), x) : x / y / y;
  const R m = real_fabs(x) > real_fabs(y) ? real_fabs(x) : real_fabs(y);
  const R ux = x / m, uy = y / m;
  return ux / (ux * ux + uy * uy) / m;
}

template <class R>
CUNP_HD cplx<R> c_atanh(cplx<R> z) {
  const R x = z.re, y = z.im, ax = real_fabs(x), ay = real_fabs(y);
  constexpr R eps = std::numeric_limits<R>::epsilon();
  if (y == 0 && ax <= 1) return {real_atanh(x), y};
  if (x == 0) return {x, real_atan(y)};
  if (is_nan(x) || is_nan(y)) {
    if (is_inf(x)) return {real_copysign(R(0), x), nan_v<R>};
    if (is_inf(y)) return {real_copysign(R(0), x), real_copysign(pi_v<R> / 2, y)};
    return {nan_v<R>, nan_v<R>};
  }
  if (ax > 1 / eps || ay > 1 / eps)
    return {real_part_reciprocal(x, y), real_copysign(pi_v<R> / 2, y)};
  if (ax < complex_limits<R>::sqrt_3_eps / 2 && ay < complex_limits<R>::sqrt_3_eps / 2) return z;
  R re;
  if (ax == 1 && ay < eps) {
    re = (ln2_v<R> - real_log(ay)) / 2;
  } else {
    const R d = ax - 1, sq = ay < complex_limits<R>::sqrt_min ? d * d : d * d + ay * ay;
    re = real_log1p(4 * ax / sq) / 4;
  }
  R im;
  if (ax == 1)
    im = real_atan2(R(2), -ay) / 2;
  else if (ay < eps)
    im = real_atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else
    im = real_atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  return {real_copysign(re, x), real_copysign(im, y)};
}

template <class R>
CUNP_HD cplx<R> c_atan(cplx<R> z) {  // atan(z) = i conj(atanh(i conj(z)))
  const cplx<R> w = c_atanh(cplx<R>(z.im, z.re));
  return {w.im, w.re};
}

/// a * b with C99's recovery of infinities (Annex G): an infinite factor gives an infinite
/// product where the plain formula gives nan + nan i, as C's complex multiplication in glibc's
/// cpow.
template <class R>
CUNP_HD cplx<R> c_mul_c99(cplx<R> x, cplx<R> y) {
  const cplx<R> p = x * y;
  if (!is_nan(p.re) || !is_nan(p.im)) return p;
  R a = x.re, b = x.im, c = y.re, d = y.im;
  const auto box = [](R& u, R& v) {  // an infinite operand becomes a unit direction
    u = real_copysign(is_inf(u) ? R(1) : R(0), u);
    v = real_copysign(is_inf(v) ? R(1) : R(0), v);
  };
  const auto zero_nan = [](R& u) {
    if (is_nan(u)) u = real_copysign(R(0), u);
  };
  bool recalc = false;
  if (is_inf(a) || is_inf(b)) {
    box(a, b), zero_nan(c), zero_nan(d), recalc = true;
  }
  if (is_inf(c) || is_inf(d)) {
    box(c, d), zero_nan(a), zero_nan(b), recalc = true;
  }
  if (!recalc &&
      (is_inf(x.re * y.re) || is_inf(x.im * y.im) || is_inf(x.re * y.im) || is_inf(x.im * y.re))) {
    zero_nan(a), zero_nan(b), zero_nan(c), zero_nan(d), recalc = true;
  }
  if (!recalc) return p;
  return {inf_v<R> * (a * c - b * d), inf_v<R> * (a * d + b * c)};
}

/// NumPy's complex power: exact special cases, repeated multiplication for small integer
/// exponents, else exp(b log a) (glibc's cpow).
template <class R>
CUNP_HD cplx<R> c_pow(cplx<R> a, cplx<R> b) {
  if (b.re == 0 && b.im == 0) return {1, 0};
  if (a.re == 0 && a.im == 0) return b.re > 0 ? cplx<R>(0, 0) : cplx<R>(nan_v<R>, nan_v<R>);
  if (b.im == 0 && b.re > -100 && b.re < 100 && R(int(b.re)) == b.re) {
    const int n = int(b.re);
    if (n == 1) return a;
    if (n == 2) return a * a;
    if (n == 3) return a * (a * a);
    unsigned m = n < 0 ? unsigned(-n) : unsigned(n);
    cplx<R> acc(1, 0), p = a;
    while (true) {
      if (m & 1u) acc = acc * p;
      m >>= 1;
      if (m == 0) break;
      p = p * p;
    }
    return n < 0 ? cplx<R>(1, 0) / acc : acc;
  }
  return c_exp(c_mul_c99(b, c_log(a)));
}

// ---------------------------------------------------------------------------------------------
// Steps on the bits of 16-bit floats (float16, bfloat16: both sign and magnitude, so one
// algorithm serves both), where computing in float would step by a float's ulp.

/// NumPy's npy_half_nextafter: the neighbour of x towards y; x itself when x == y (C's
/// nextafter returns y: the sign of a zero can differ), the quiet NaN when either is NaN.
template <class H>
CUNP_HD H nextafter16(H x, H y) {
  const float fx = x, fy = y;
  if (is_nan(fx) || is_nan(fy)) return H(nan_v<float>);
  if (fx == fy) return y;  // C's rule (0 towards -0 is -0), NumPy's from 2.5
  if (fx == 0) return H::from_bits(static_cast<std::uint16_t>((y.bits & 0x8000u) | 1u));
  const bool away = (fx < fy) == !(x.bits & 0x8000u);  // away from zero: a larger magnitude
  return H::from_bits(static_cast<std::uint16_t>(away ? x.bits + 1u : x.bits - 1u));
}

/// a * b + c rounded after the product and after the sum, as NumPy's fill loops compute it.
/// nvcc contracts `a * b + c` into one fused multiply-add (rounded once), and a GPU's arange or
/// linspace would then differ from NumPy's in the last bit (linspace(-30, 30, 100003)'s middle
/// element: 3.6e-15 instead of 0).
template <class R> CUNP_HD R mul_add_unfused(R a, R b, R c) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<R, double>) return __dadd_rn(__dmul_rn(a, b), c);
  else if constexpr (std::is_same_v<R, float>) return __fadd_rn(__fmul_rn(a, b), c);
  else return a * b + c;
#else
  return a * b + c;
#endif
}

/// NumPy's npy_half_spacing: the distance from |h| to the next float16 away from zero, with no
/// sign (NumPy's float and double spacing have x's sign), except that a negative power of two
/// gives the (smaller) gap towards zero. inf and NaN give NaN, the largest value inf.
CUNP_HD inline float16 half_spacing(float16 h) {
  const unsigned e = h.bits & 0x7c00u, sig = h.bits & 0x03ffu;
  if (e == 0x7c00u) return float16(nan_v<float>);
  if (h.bits == 0x7bffu) return float16(inf_v<float>);
  unsigned r;
  if ((h.bits & 0x8000u) && sig == 0)
    r = e > 0x2c00u ? e - 0x2c00u : e > 0x0400u ? 1u << ((e >> 10) - 2) : 1u;
  else
    r = e > 0x2800u ? e - 0x2800u : e > 0x0400u ? 1u << ((e >> 10) - 1) : 1u;
  return float16::from_bits(static_cast<std::uint16_t>(r));
}

}  // namespace cunp::detail
