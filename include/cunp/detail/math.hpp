// cunp/detail/math.hpp: the arithmetic types element-wise loops compute in, on host and device.
#pragma once
#include <cmath>

#include "cunp/dtype.hpp"

namespace cunp::detail {

/// A complex number with host and device operators (std::complex has no __device__ members);
/// laid out like std::complex<R>.
template <class R> struct cplx {
  R re, im;
  CUNP_HD constexpr cplx(R r = 0, R i = 0) : re(r), im(i) {}
  CUNP_HD friend constexpr cplx operator+(cplx a, cplx b) { return {a.re + b.re, a.im + b.im}; }
  CUNP_HD friend constexpr cplx operator-(cplx a, cplx b) { return {a.re - b.re, a.im - b.im}; }
  CUNP_HD friend constexpr cplx operator-(cplx a) { return {-a.re, -a.im}; }
  CUNP_HD friend constexpr cplx operator*(cplx a, cplx b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  // Smith's algorithm, as NumPy: no overflow for large denominators.
  CUNP_HD friend cplx operator/(cplx a, cplx b) {
    const R abs_br = b.re < 0 ? -b.re : b.re, abs_bi = b.im < 0 ? -b.im : b.im;
    if (abs_br >= abs_bi) {
      if (abs_br == 0 && abs_bi == 0) return {a.re / abs_br, a.im / abs_bi};
      const R rat = b.im / b.re, scl = R(1) / (b.re + b.im * rat);
      return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
    }
    const R rat = b.re / b.im, scl = R(1) / (b.im + b.re * rat);
    return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
  }
  CUNP_HD friend constexpr bool operator==(cplx a, cplx b) { return a.re == b.re && a.im == b.im; }
  CUNP_HD friend constexpr bool operator!=(cplx a, cplx b) { return !(a == b); }
};

template <class R> struct complex_parts<cplx<R>> { using type = R; };
}  // namespace cunp::detail

namespace cunp {
template <class R> inline constexpr bool is_complex_v<detail::cplx<R>> = true;
}

namespace cunp::detail {

/// The type an element-wise loop computes in for storage type T: float for float16/bfloat16
/// (as NumPy), cplx for complex, T otherwise.
template <class T> struct math_type { using type = T; };
template <> struct math_type<float16> { using type = float; };
template <> struct math_type<bfloat16> { using type = float; };
template <class R> struct math_type<std::complex<R>> { using type = cplx<R>; };
template <class T> using math_t = typename math_type<T>::type;

template <class T> inline constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

}  // namespace cunp::detail
