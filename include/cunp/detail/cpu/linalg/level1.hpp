// cunp/detail/cpu/linalg/level1.hpp: the scalar and vector helpers the cpu backend's
// factorisations share (cholesky.hpp, qr.hpp, eigh.hpp, svd.hpp, eig.hpp): the real type of a
// complex, conjugates and products spelt out, dot products and y -= c x on a complex's
// interleaved parts so that g++ vectorises them, and when a loop may open an OpenMP team.
#pragma once
#include <complex>
#include <type_traits>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cunp/shape.hpp"

namespace cunp::detail::cpu_linalg::level1 {

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;
template <class T> inline constexpr bool is_complex = !std::is_same_v<T, real_t<T>>;

template <class T> T conj_of(const T& v) {
  if constexpr (is_complex<T>)
    return std::conj(v);
  else
    return v;
}

// Products spelt out: g++ guards std::complex's operator* with a call (__muldc3) that recovers
// infinities from NaNs, which stops the loops below from vectorising; our inputs are finite.
template <class T> T mul(const T& a, const T& b) {
  if constexpr (is_complex<T>)
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else
    return a * b;
}
/// conj(a) * b
template <class T> T mulc(const T& a, const T& b) {
  if constexpr (is_complex<T>)
    return T(a.real() * b.real() + a.imag() * b.imag(), a.real() * b.imag() - a.imag() * b.real());
  else
    return a * b;
}

/// Whether a loop of this much work may open an OpenMP team: never inside one already (a batch of
/// matrices spread over the threads by the caller), where it would only add overhead.
inline bool may_fork(double work) {
#if defined(_OPENMP)
  return work >= double(1 << 16) && omp_in_parallel() == 0 && omp_get_max_threads() > 1;
#else
  (void)work;
  return false;
#endif
}

/// sum conj(x_i) y_i and sum x_i y_i, on the interleaved parts of a complex so that they vectorise.
template <class T> T dotc(const T* x, const T* y, index_t n) {
  if constexpr (is_complex<T>) {
    using R = real_t<T>;
    const R* p = reinterpret_cast<const R*>(x);
    const R* q = reinterpret_cast<const R*>(y);
    R re = 0, im = 0;
#pragma omp simd reduction(+ : re, im)
    for (index_t i = 0; i < n; ++i) {
      re += p[2 * i] * q[2 * i] + p[2 * i + 1] * q[2 * i + 1];
      im += p[2 * i] * q[2 * i + 1] - p[2 * i + 1] * q[2 * i];
    }
    return T(re, im);
  } else {
    T s = 0;
#pragma omp simd reduction(+ : s)
    for (index_t i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
  }
}
template <class T> T dotu(const T* x, const T* y, index_t n) {
  if constexpr (is_complex<T>) {
    using R = real_t<T>;
    const R* p = reinterpret_cast<const R*>(x);
    const R* q = reinterpret_cast<const R*>(y);
    R re = 0, im = 0;
#pragma omp simd reduction(+ : re, im)
    for (index_t i = 0; i < n; ++i) {
      re += p[2 * i] * q[2 * i] - p[2 * i + 1] * q[2 * i + 1];
      im += p[2 * i] * q[2 * i + 1] + p[2 * i + 1] * q[2 * i];
    }
    return T(re, im);
  } else {
    return dotc(x, y, n);
  }
}

/// y_i -= c x_i, or with conj_x y_i -= c conj(x_i); x and y never overlap.
template <class T>
void sub_scaled(T* __restrict y, const T* __restrict x, T c, index_t n, bool conj_x = false) {
  if constexpr (is_complex<T>) {
    using R = real_t<T>;
    R* q = reinterpret_cast<R*>(y);
    const R* p = reinterpret_cast<const R*>(x);
    const R cr = c.real(), ci = c.imag();
    if (conj_x) {
#pragma omp simd
      for (index_t i = 0; i < n; ++i) {
        q[2 * i] -= cr * p[2 * i] + ci * p[2 * i + 1];
        q[2 * i + 1] -= ci * p[2 * i] - cr * p[2 * i + 1];
      }
    } else {
#pragma omp simd
      for (index_t i = 0; i < n; ++i) {
        q[2 * i] -= cr * p[2 * i] - ci * p[2 * i + 1];
        q[2 * i + 1] -= ci * p[2 * i] + cr * p[2 * i + 1];
      }
    }
  } else {
    (void)conj_x;
#pragma omp simd
    for (index_t i = 0; i < n; ++i) y[i] -= c * x[i];
  }
}

}  // namespace cunp::detail::cpu_linalg::level1
